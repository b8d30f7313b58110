// Friends' rooms: making one (친구와 하기), the lobby at /r/CODE (seats as two teams, names,
// ready, connected; the maker moves and frees seats and starts), and playing from this seat's
// point of view with the one-person page's modules: the server's seats are turned so that this
// seat is seat 1 at the bottom (its partner 3 at the top), its team "13".
//
// The seat's token is kept in localStorage (guandan.room.CODE), sent in a header or as the
// socket's first message, never in an address. The room's socket pushes every change; the page
// polls nothing.

import { $ } from "./dom.js";
import { I18N, errorText, t } from "./i18n.js";
import { outsideAddress } from "./outside.js";
import { S, api, roomDo, setGame, showMessage } from "./state.js";

const PRESETS = ["site", "national", "huaian", "nanjing"];
const LEVELS = ["easy", "normal", "hard"];
const TIMERS = [0, 15, 30, 60];
const PHRASES = ["hello", "nice", "thanks", "sorry", "hurry", "wow", "gg", "again",
  "smile", "cry", "angry", "clap"];
const NAME_KEY = "guandan.name";
const tokenKey = (code) => "guandan.room." + code;

let goView = null; // pages.js's go, given by app.js (room.js does not import pages.js)

/** The room code of this address (/r/CODE), or null. */
export function roomCodeOfPath() {
  const m = location.pathname.match(/^\/r\/([A-Za-z0-9]{6})\/?$/);
  return m ? m[1].toUpperCase() : null;
}

// -- turning the server's seats to this seat's point of view ---------------------------------

const SEAT_KEYS = new Set(["seat", "to", "to_act", "leader", "first_partner"]);
const SEAT_LISTS = new Set(["finish_order", "pending"]);
const SEAT_DICTS = new Set(["counts", "remaining", "exempt_jokers", "hands"]);
const TEAM_VALUES = new Set(["level_team", "winner", "final_winner", "reset"]);
const TEAM_DICTS = new Set(["team_levels", "a_tries", "team_levels_before", "team_levels_after",
  "a_tries_before", "a_tries_after"]);

/** The page's seat of server seat `s` when `me` sits at the bottom. */
export function shownSeat(s, me) {
  return ((s - me + 4) % 4) + 1;
}

/** The server's seat of the page's seat `d`. */
export function serverSeat(d, me) {
  return ((d - 1 + me - 1) % 4) + 1;
}

/** Any of the server's data (a state, a result, a replay) from `me`'s point of view. */
export function turn(data, me) {
  const seat = (s) => (s === null || s === undefined ? s : shownSeat(Number(s), me));
  const team = (x) => (me % 2 === 0 && (x === "13" || x === "24") ? (x === "13" ? "24" : "13") : x);
  const walk = (v) => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== "object") return v;
    const out = {};
    for (const [k, x] of Object.entries(v)) {
      if (SEAT_KEYS.has(k) && typeof x === "number") out[k] = seat(x);
      else if (SEAT_LISTS.has(k) && Array.isArray(x)) out[k] = x.map(seat);
      else if (SEAT_DICTS.has(k) && x && typeof x === "object")
        out[k] = Object.fromEntries(Object.entries(x).map(([s, y]) => [String(seat(s)), walk(y)]));
      else if (TEAM_VALUES.has(k) && typeof x === "string") out[k] = team(x);
      else if (TEAM_DICTS.has(k) && x && typeof x === "object")
        out[k] = Object.fromEntries(Object.entries(x).map(([tm, y]) => [team(tm), y]));
      else if (k === "seat_teams") out[k] = { 1: "13", 2: "24", 3: "13", 4: "24" };
      else out[k] = walk(x);
    }
    return out;
  };
  return walk(data);
}

// -- the room's state ------------------------------------------------------------------------

function me() {
  return S.room?.view?.you || 1;
}

function saved(code) {
  try {
    return JSON.parse(localStorage.getItem(tokenKey(code)) || "null");
  } catch {
    return null;
  }
}

/** Show a room's view (pushed by the socket, or the answer of an action). */
function onView(v) {
  const room = S.room;
  if (!room || v.code !== room.code) return;
  if (room.view && v.version < room.view.version && v.you === room.view.you) return; // older
  room.view = v;
  room.skew = v.now ? v.now - Date.now() / 1000 : room.skew || 0;
  const mine = me();
  const names = {};
  for (const s of v.seats) {
    const d = shownSeat(s.seat, mine);
    if (s.name && !(s.you)) names[d] = s.name;
  }
  I18N.names = names;
  if (v.game && v.phase !== "lobby") {
    const g = turn(v.game, mine);
    if (!v.settings.counter) S.counter = false;
    setGame(g);
    if (S.view === "room" || S.view === "start") goView("game");
  } else {
    S.game = null;
    if (S.view === "game" || S.view === "start") goView("room");
  }
  renderRoom();
}

/** Open the room of this address: its view, then its socket. */
export async function openRoom(code) {
  const keep = saved(code);
  const old = S.room;
  S.room = null;
  old?.ws?.close(); // another room opened on this page: the old one's socket ends
  S.room = { code, token: keep?.token || null, view: null, ws: null, retry: 0, skew: 0 };
  S.onRoomView = onView;
  S.fromServer = (data) => turn(data, me());
  S.auto = false;
  goView("room");
  renderRoom();
  try {
    onView(await api("GET", `/api/rooms/${code}`));
  } catch (e) {
    if (e.code === "bad_token") {
      forgetToken();
      return openRoom(code);
    }
    $("#room-note").textContent = errorText(e);
    $("#room-note").className = "error";
    return;
  }
  connect();
}

function forgetToken() {
  localStorage.removeItem(tokenKey(S.room.code));
  S.room.token = null;
}

function connect() {
  const room = S.room;
  if (!room) return;
  if (room.ws) room.ws.close();
  const ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/rooms/${room.code}/socket`);
  room.ws = ws;
  ws.onopen = () => {
    room.retry = 0;
    ws.send(JSON.stringify(room.token ? { type: "hello", token: room.token } : { type: "hello" }));
  };
  ws.onmessage = (m) => {
    const f = JSON.parse(m.data);
    if (f.type === "room") onView(f);
    else if (f.type === "phrase") showPhrase(f.seat, f.phrase);
    else if (f.type === "error") {
      room.refused = f.error.code;
      if (f.error.code === "bad_token") forgetToken();
      showMessage(() => errorText(f.error), "error");
    }
  };
  ws.onclose = (e) => {
    if (room.ws !== ws || S.room !== room) return;
    room.ws = null;
    if (e.code === 4004) return; // the room is closed
    if (e.code === 4003 && room.refused === "no_spectators") return; // the lobby only
    if (e.code === 4001) forgetToken(); // the seat was freed: watch (or sit again)
    // Back again after a dropped connection (a phone that slept): the seat and the hand as
    // they stand come with the first push.
    room.retry = Math.min(room.retry + 1, 5);
    setTimeout(connect, 300 * room.retry);
  };
}

async function send(msg) {
  try {
    return await roomDo(msg);
  } catch (e) {
    showMessage(() => errorText(e), "error");
    renderRoom();
    const note = $("#room-note"); // in the lobby, the refusal shows under the seats
    if (note) {
      note.textContent = errorText(e);
      note.className = "error";
    }
    return null;
  }
}

// -- making a room ---------------------------------------------------------------------------

export function openRoomDialog() {
  const dlg = $("#roomnew");
  const fill = (id, name, values, label, checked) => {
    const box = $(id);
    box.innerHTML = "";
    for (const v of values) {
      const lab = document.createElement("label");
      lab.className = "difficulty";
      lab.innerHTML = `<input type="radio" name="${name}" value="${v}"><span></span>`;
      lab.querySelector("input").checked = v === checked;
      lab.querySelector("span").textContent = label(v);
      box.appendChild(lab);
    }
  };
  fill("#room-presets", "room-preset", PRESETS, (p) => t(`preset.${p}.name`), "site");
  fill("#room-levels", "room-level", LEVELS, (d) => t(`difficulty.${d}`), "normal");
  fill("#room-timers", "room-timer", TIMERS, (s) => (s ? t("room.seconds", { n: s }) : t("room.timer_off")), 0);
  $("#room-maker-name").value = localStorage.getItem(NAME_KEY) || "";
  $("#room-new-note").textContent = "";
  dlg.hidden = false;
  $("#room-maker-name").focus();
}

async function createRoom() {
  const pick = (name) => document.querySelector(`input[name=${name}]:checked`)?.value;
  const name = $("#room-maker-name").value.trim();
  const body = {
    name, preset: pick("room-preset") || "site", level: pick("room-level") || "normal",
    timer: Number(pick("room-timer") || 0), spectators: $("#room-spectators").checked,
    counter: $("#room-counter").checked, phrases: $("#room-phrases").checked,
  };
  try {
    const r = await api("POST", "/api/rooms", body);
    localStorage.setItem(NAME_KEY, name);
    localStorage.setItem(tokenKey(r.code), JSON.stringify({ token: r.token, seat: r.seat }));
    $("#roomnew").hidden = true;
    history.pushState(null, "", `/r/${r.code}`);
    await openRoom(r.code);
  } catch (e) {
    $("#room-new-note").textContent = errorText(e);
    $("#room-new-note").className = "error";
  }
}

async function takeSeat(seat) {
  const name = $("#room-name").value.trim();
  try {
    const r = await api("POST", `/api/rooms/${S.room.code}/join`, { seat, name });
    localStorage.setItem(NAME_KEY, name);
    localStorage.setItem(tokenKey(r.code), JSON.stringify({ token: r.token, seat: r.seat }));
    S.room.token = r.token;
    onView(r.room);
    connect();
  } catch (e) {
    $("#room-note").textContent = errorText(e);
    $("#room-note").className = "error";
  }
}

// -- drawing ---------------------------------------------------------------------------------

function now() {
  return Date.now() / 1000 + (S.room?.skew || 0);
}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text; // names are always text, never HTML
  return e;
}

/** A seat's state in words: 자동, 연결 끊김 · N초, AI, or nothing. */
function seatState(s, v) {
  if (!s.name) return t("room.ai");
  if (s.auto) return t("room.auto");
  if (!s.connected && s.gone_since) {
    const left = Math.max(0, Math.ceil(s.gone_since + v.grace - now()));
    return t("room.gone", { n: left });
  }
  return "";
}

export function renderRoom() {
  const v = S.room?.view;
  document.body.classList.toggle("in-room", !!S.room);
  if (!S.room) return;
  renderLobby(v);
  renderBar(v);
}

function renderLobby(v) {
  const root = $("#room-body");
  const typed = $("#room-name")?.value; // a name being typed survives a push
  const focused = document.activeElement?.id === "room-name";
  root.innerHTML = "";
  if (!v) {
    const note = el("p", "", "");
    note.id = "room-note";
    root.append(note);
    return;
  }
  const head = el("div", "room-head");
  head.append(el("div", "muted", t("room.code")));
  const code = el("div", "room-code", v.code);
  code.id = "room-code";
  head.append(code);
  const link = el("input", "room-link");
  link.id = "room-link";
  link.readOnly = true;
  link.value = `${location.origin}/r/${v.code}`;
  const copy = el("button", "", t("room.copy"));
  copy.id = "btn-room-copy";
  copy.addEventListener("click", async () => {
    link.select();
    try {
      await navigator.clipboard.writeText(link.value);
    } catch {
      document.execCommand?.("copy");
    }
    copy.textContent = t("room.copied");
  });
  const row = el("div", "room-linkrow");
  row.append(link, copy);
  head.append(row);
  const s = v.settings;
  head.append(el("p", "muted", [t(`preset.${s.preset}.name`), `AI ${t("difficulty." + s.level)}`,
    s.timer ? t("room.seconds", { n: s.timer }) : t("room.timer_off"),
    s.spectators ? t("room.spectators_on") : t("room.spectators_off")].join(" · ")));
  root.append(head);
  const you = v.you;
  if (!you) {
    const nameRow = el("label", "room-namerow");
    nameRow.append(el("span", "", t("room.your_name")));
    const input = el("input");
    input.id = "room-name";
    input.maxLength = 16;
    input.value = typed ?? (localStorage.getItem(NAME_KEY) || "");
    nameRow.append(input);
    root.append(nameRow);
    if (focused) setTimeout(() => input.focus(), 0);
  }
  const teams = el("div", "room-teams");
  for (const team of [[1, 3], [2, 4]]) {
    const box = el("div", "room-team");
    box.append(el("h3", "", t("room.team", { a: team[0], b: team[1] })));
    for (const n of team) {
      const st = v.seats[n - 1];
      const card = el("div", "room-seat" + (st.you ? " you" : "") + (st.name ? "" : " empty"));
      card.dataset.seat = n;
      card.append(el("span", "room-seatno", t("seat.n", { n })));
      card.append(el("span", "room-seatname", st.name || (st.program ? t("outside.title") : t("room.ai"))));
      const flags = [];
      if (st.maker) flags.push(t("room.maker"));
      if (st.name) flags.push(st.connected ? t("room.online") : t("room.offline"));
      if (st.name && st.ready) flags.push(t("room.ready"));
      card.append(el("span", "room-flags", flags.join(" · ")));
      const program = (v.outside || []).find((o) => o.seat === n);
      if (program && program.path) { // the maker only: the address takes the seat
        const addr = el("code", "room-address", outsideAddress(program.path));
        addr.title = t("outside.address");
        card.append(addr);
      }
      if (v.maker && v.phase === "lobby" && !st.name && n !== 1) {
        const b = el("button", "", st.program ? t("room.program_off") : t("room.program_on"));
        b.dataset.outside = n;
        b.addEventListener("click", () => send({ type: "outside", seat: n, on: !st.program }));
        card.append(b);
      }
      if (!st.name && !st.program && !you) {
        const b = el("button", "primary", t("room.sit"));
        b.dataset.sit = n;
        b.addEventListener("click", () => takeSeat(n));
        card.append(b);
      }
      if (v.maker && v.phase === "lobby" && !st.you) {
        const sel = el("select", "room-move");
        sel.setAttribute("aria-label", t("room.move"));
        sel.append(new Option(t("room.move"), ""));
        for (const to of [1, 2, 3, 4]) if (to !== n) sel.append(new Option(t("seat.n", { n: to }), String(to)));
        sel.addEventListener("change", () => sel.value && send({ type: "move", from: n, to: Number(sel.value) }));
        if (st.name) card.append(sel);
        if (st.name) {
          const f = el("button", "", t("room.free"));
          f.addEventListener("click", () => send({ type: "free", seat: n }));
          card.append(f);
        }
      }
      box.append(card);
    }
    teams.append(box);
  }
  root.append(teams);
  const buttons = el("div", "room-buttons");
  if (you && v.phase === "lobby") {
    const mine = v.seats[you - 1];
    const ready = el("button", mine.ready ? "on" : "primary", mine.ready ? t("room.unready") : t("room.ready_btn"));
    ready.id = "btn-room-ready";
    ready.addEventListener("click", () => send({ type: "ready", ready: !mine.ready }));
    buttons.append(ready);
  }
  if (v.maker && v.phase === "lobby") {
    const start = el("button", "primary", t("room.start"));
    start.id = "btn-room-start";
    start.addEventListener("click", () => send({ type: "start" }));
    buttons.append(start);
  }
  if (you) {
    const leave = el("button", "", t("room.leave"));
    leave.id = "btn-room-leave";
    leave.addEventListener("click", onLeave);
    buttons.append(leave);
  }
  root.append(buttons);
  const note = el("p", "", "");
  note.id = "room-note";
  root.append(note);
}

async function onLeave() {
  const r = await send({ type: "leave" });
  if (r === null) return;
  forgetToken();
  connect();
}

/** The room's line above the table: each seat's name and state, the turn timer, take back,
 * quick phrases. */
function renderBar(v) {
  const bar = $("#roombar");
  bar.hidden = !(v && v.game);
  if (bar.hidden) return;
  bar.innerHTML = "";
  const mine = me();
  const code = el("span", "chip", `${t("room.code")} ${v.code}`);
  bar.append(code);
  for (const s of v.seats) {
    const d = shownSeat(s.seat, mine);
    const chip = el("span", "chip room-chip" + (s.auto ? " auto" : "") + (s.name && !s.connected ? " gone" : ""));
    chip.dataset.seat = String(d);
    chip.append(el("b", "", s.name || t("seat." + d)));
    const st = seatState(s, v);
    if (st) chip.append(" " + st);
    bar.append(chip);
  }
  if (v.turn_deadline && S.game && S.game.to_act !== null) {
    const left = Math.max(0, Math.ceil(v.turn_deadline - now()));
    const tm = el("span", "chip timer", t("room.timer_left", { n: left }));
    tm.id = "room-timer";
    bar.append(tm);
  }
  const you = v.you ? v.seats[v.you - 1] : null;
  if (you && you.auto) {
    const b = el("button", "primary", t("room.take_back"));
    b.id = "btn-take-back";
    b.addEventListener("click", () => send({ type: "takeback" }));
    bar.append(b);
  }
  if (you && v.settings.phrases) {
    const sel = el("select", "room-phrase");
    sel.id = "room-phrase";
    sel.setAttribute("aria-label", t("room.phrase"));
    sel.append(new Option(t("room.phrase"), ""));
    for (const p of PHRASES) sel.append(new Option(t("phrase." + p), p));
    sel.addEventListener("change", () => {
      if (sel.value) send({ type: "phrase", phrase: sel.value });
      sel.value = "";
    });
    bar.append(sel);
  }
  if (!v.you) bar.append(el("span", "chip", t("room.watching")));
  $("#btn-counter").hidden = !v.settings.counter;
  $("#btn-auto").hidden = true; // in a room, 자동 is the server's (take back above)
  const again = $("#btn-again");
  if (S.game) again.textContent = S.game.to_act === null ? t("room.again") : t("room.next");
}

function showPhrase(seat, phrase) {
  const d = shownSeat(seat, me());
  const box = $(`#seat-${d}`);
  if (!box) return;
  const b = el("div", "bubble", t("phrase." + phrase));
  box.append(b);
  setTimeout(() => b.remove(), 3000);
}

/** Back to the one-person game: the room is left on this page (its seat stays the person's). */
export function closeRoom() {
  if (!S.room) return;
  const ws = S.room.ws;
  S.room = null;
  ws?.close();
  I18N.names = null;
  S.onRoomView = null;
  S.fromServer = (data) => data;
  S.game = null;
  $("#btn-auto").hidden = false;
  $("#btn-counter").hidden = false;
  $("#roombar").hidden = true;
  document.body.classList.remove("in-room");
  if (location.pathname !== "/") history.replaceState(null, "", "/");
}

/** Wiring: the dialog's buttons, the clock of the countdowns. `go` is pages.js's. */
export function wireRoom(go) {
  goView = go;
  for (const b of document.querySelectorAll(".btn-room")) b.addEventListener("click", openRoomDialog);
  $("#btn-room-create").addEventListener("click", createRoom);
  $("#btn-room-cancel").addEventListener("click", () => ($("#roomnew").hidden = true));
  setInterval(() => { // the countdowns (연결 끊김 · N초, the turn timer) in the room's line
    const v = S.room?.view;
    if (v && (v.turn_deadline || v.seats.some((s) => s.gone_since && !s.auto))) renderBar(v);
  }, 1000);
}
