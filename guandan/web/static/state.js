// The page's state: the game as the server last sent it (what seat 1 may see), the person's
// selection and settings, the pace of play; the API calls that change it; the game id kept in
// localStorage. Every rule is decided by the engine on the server.
//
// Drawing is not done here: the page's modules subscribe ("game": a new state arrived,
// "message": the message line changed) and app.js draws.

import { errorText } from "./i18n.js";

export const LS = {
  game: "guandan.game",
  sort: "guandan.sort",
  interval: "guandan.autoInterval",
  pace: "guandan.aiPace",
  sound: "guandan.sound",
  counter: "guandan.counter",
};
export const INTERVALS = [0.3, 0.5, 1, 2, 3, 4, 5];
// The AI seats' pace (seconds between their plays), a setting of its own: the auto-play
// interval is only seat 1's.
export const PACES = { fast: 0.35, normal: 0.9, slow: 1.8 };
const params = new URLSearchParams(location.search);
// ?pace= overrides the AI's pace (the tests use a fast one).
const PACE_OVERRIDE = params.has("pace") ? Number(params.get("pace")) : null;
// ?autopace= overrides the auto-play interval (tests only; the page offers 0.3 to 5 s).
const AUTO_PACE = params.has("autopace") ? Number(params.get("autopace")) : null;

export const S = {
  game: null,
  selected: new Set(), // keys "H7#0" of the selected cards
  handSig: "",
  sort: localStorage.getItem(LS.sort) || "strength",
  auto: false,
  interval: Number(localStorage.getItem(LS.interval) || 1),
  pace: PACES[localStorage.getItem(LS.pace)] ? localStorage.getItem(LS.pace) : "normal",
  sound: localStorage.getItem(LS.sound) === "on", // off by default
  counter: localStorage.getItem(LS.counter) === "on",
  timer: null,
  busy: false,
  readings: null, // {legal: [...], chosen: 0} for the current selection
  readingsSeq: 0,
  // The message line: {kind: "error"|"hint"|"info", make: () => text, more: () => text|null};
  // made again in the page's language at every drawing, so a language switch re-says it.
  message: null,
  view: "start",
  lastEvent: null,
  outside: null, // what the outside seats' programs do (outside.js), for the game shown
};

const subscribers = { game: [], message: [], event: [], waiting: [] };

export function subscribe(what, fn) {
  subscribers[what].push(fn);
}

function notify(what) {
  for (const fn of subscribers[what]) fn();
}

// -- server ---------------------------------------------------------------------------------

export class ApiError extends Error {
  constructor(status, body) {
    super(body?.error?.message || "error " + status);
    this.status = status;
    this.code = body?.error?.code || "network";
    this.params = body?.error?.params || {};
  }
}

export async function api(method, path, body) {
  let r;
  try {
    r = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, { error: { code: "network", message: "network" } });
  }
  const data = r.status === 204 ? null : await r.json().catch(() => null);
  if (!r.ok) throw new ApiError(r.status, data);
  return data;
}

// -- game flow ------------------------------------------------------------------------------

/** The saved game's id (the only key to it), or null. */
export function gameId() {
  return localStorage.getItem(LS.game);
}

export function setGame(g) {
  const sig = g.hand.join(" ") + "|" + g.phase + "|" + g.hand_number;
  if (sig !== S.handSig) {
    S.selected.clear();
    S.readings = null;
    S.handSig = sig;
  }
  S.game = g;
  S.version = (S.version || 0) + 1;
  localStorage.setItem(LS.game, g.id);
  notify("game");
  schedule();
}

/** Show a message: `text` a string or a function making it (in the language of the moment). */
export function showMessage(text, kind, more = null) {
  S.message = { kind, make: typeof text === "function" ? text : () => text, more };
  notify("message");
}

/** The AI seats' pause between plays, in seconds. */
export function aiPace() {
  return PACE_OVERRIDE ?? PACES[S.pace];
}

/** The next AI step (or seat 1's, with auto-play), after the page's pause. */
export function schedule() {
  clearTimeout(S.timer);
  S.timer = null;
  const g = S.game;
  if (!g || S.view !== "game" || g.result || g.to_act === null) return;
  if (g.to_act === 1 && !S.auto) return;
  if (S.outside && S.outside.waiting.length) return; // outside.js steps on once they are here
  const delay = g.to_act === 1 ? (AUTO_PACE ?? S.interval) : aiPace();
  S.timer = setTimeout(step, delay * 1000);
}

async function step() {
  const g = S.game;
  if (!g || S.busy) return schedule();
  S.busy = true;
  try {
    const r = await api("POST", `/api/games/${g.id}/step`, { auto: S.auto });
    S.lastEvent = r.event;
    if (r.state.to_act === 1 && !S.auto) S.message = null;
    S.busy = false;
    setGame(r.state);
    if (r.event) notify("event");
  } catch (e) {
    S.busy = false;
    if (["your_turn", "result_pending", "match_over", "changed", "not_your_turn"].includes(e.code)) {
      await refresh().catch(() => {});
    } else if (e.code === "waiting_outside") {
      notify("waiting"); // the hand waits for an outside program: outside.js asks and shows
    } else {
      showMessage(() => errorText(e), "error");
      S.timer = setTimeout(step, 2000);
    }
  }
}

export async function refresh() {
  const id = gameId();
  if (!id) return;
  setGame(await api("GET", `/api/games/${id}`));
}

/** One of the person's actions (play, pass, return); a refusal goes to the message line. */
export async function act(path, body) {
  const g = S.game;
  if (!g || S.busy) return;
  S.busy = true;
  const t0 = performance.now();
  try {
    const state = await api("POST", `/api/games/${g.id}/${path}`, body);
    S.message = null;
    S.busy = false;
    const before = S.game;
    setGame(state);
    window.__lastActMs = performance.now() - t0;
    const mine = state.history.filter((e) => e.seat === 1 && (e.kind === "play" || e.kind === "pass"));
    if (path !== "return" && before && mine.length) {
      S.lastEvent = mine[mine.length - 1];
      notify("event");
    }
  } catch (e) {
    S.busy = false;
    showMessage(() => errorText(e), "error");
  }
}

/** Again (btn.again): past a hand's result (after a final victory: a new match). */
export async function nextHand() {
  const g = S.game;
  if (!g) return;
  try {
    S.message = null;
    setGame(await api("POST", `/api/games/${g.id}/next`));
  } catch (e) {
    showMessage(() => errorText(e), "error");
  }
}

/** A new match; the previous game is forgotten on the server. The caller shows it. */
export async function createGame(preset, difficulty, outside = []) {
  const old = gameId();
  const g = await api("POST", "/api/games", { preset, difficulty, outside });
  if (old && old !== g.id) api("DELETE", `/api/games/${old}`).catch(() => {});
  S.message = null;
  S.auto = false;
  return g;
}
