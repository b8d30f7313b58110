// Seats left to outside programs (the competition's protocol, guandan/web/outside.py): the
// panel with each seat's address and what its program is doing, the seats' badges, and the
// news when a program connects, leaves or is replaced by our AI. While the hand waits for a
// program nothing moves: the page asks again every second and steps on once it is here.

import { $ } from "./dom.js";
import { I18N, errorText, t, seatName } from "./i18n.js";
import { S, api, schedule, setGame, showMessage, subscribe } from "./state.js";

const POLL_MS = 1000; // how often the page asks while it shows a game with outside seats

/** The WebSocket address of a seat's path on this server. */
export function outsideAddress(path) {
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
}

let timer = null;
let asking = false;
let shownFor = null; // the game id whose status S.outside is

/** Ask the server what the outside seats are doing now (and again later while shown). */
export async function refreshOutside() {
  const g = S.game;
  clearTimeout(timer);
  timer = null;
  if (!g || !g.outside || !g.outside.length) {
    const had = S.outside;
    S.outside = null;
    renderOutside();
    if (had) schedule(); // no seat left to wait for
    return;
  }
  if (shownFor !== g.id) S.outside = null; // another game's: not this one's waiting
  if (S.view !== "game") {
    timer = setTimeout(refreshOutside, POLL_MS); // asked again once the game is shown
    return;
  }
  if (asking) return;
  asking = true;
  let st = null;
  try {
    st = await api("GET", `/api/games/${g.id}/outside`);
  } catch {
    st = null; // asked again below
  }
  asking = false;
  if (!S.game || S.game.id !== g.id) return;
  const before = shownFor === g.id ? S.outside : null;
  if (st) {
    S.outside = st;
    shownFor = g.id;
    tellNews(before, st);
    renderOutside();
    const wasWaiting = !before || before.waiting.length;
    if (wasWaiting && !st.waiting.length) schedule(); // everyone is here: play on
  }
  timer = setTimeout(refreshOutside, POLL_MS);
}

function reasonText(code) {
  return code ? t("outside.reason." + code) : "";
}

/** A message when a seat's program connects, leaves, is refused or replaced. */
function tellNews(before, now) {
  if (!before) return;
  for (const s of now.seats) {
    const old = before.seats.find((x) => x.seat === s.seat);
    if (!old) continue;
    const seat = seatName(s.seat);
    if (s.state === "replaced" && old.state !== "replaced")
      showMessage(() => t("outside.news.replaced", { seat, reason: reasonText(s.reason) }), "error");
    else if (s.connected && !old.connected)
      showMessage(() => t("outside.news.connected", { seat }), "info");
    else if (!s.connected && old.connected)
      showMessage(() => t("outside.news.dropped", { seat }), "error");
    else if (s.refused > old.refused)
      showMessage(() => t("outside.news.refused", { seat }), "error");
  }
}

function stateText(s) {
  return t("outside.state." + s.state, { reason: reasonText(s.reason) });
}

/** The panel of the outside seats, and a badge on each of their seats at the table. */
export function renderOutside() {
  const g = S.game;
  const box = $("#outside");
  const seats = g && g.outside ? g.outside : [];
  for (const seat of [2, 3, 4]) {
    const head = document.querySelector(`#seat-${seat} .seat-head`);
    if (!head) continue;
    head.querySelector(".seat-bot")?.remove();
    if (seats.some((x) => x.seat === seat)) {
      const b = document.createElement("span");
      b.className = "seat-bot";
      b.textContent = t("outside.badge");
      head.querySelector(".seat-name")?.after(b);
    }
  }
  if (!seats.length) {
    box.hidden = true;
    box.innerHTML = "";
    box.dataset.sig = "";
    return;
  }
  const st = S.outside && shownFor === g.id ? S.outside : null;
  box.hidden = false;
  const sig = JSON.stringify([g.id, seats, st, I18N.lang]);
  if (box.dataset.sig === sig) return; // as drawn (an address opened by a click stays open)
  box.dataset.sig = sig;
  box.innerHTML = "";
  box.classList.toggle("waiting", !!(st && st.waiting.length));
  const title = document.createElement("div");
  title.className = "outside-title";
  title.textContent = t("outside.title");
  box.appendChild(title);
  if (st && st.waiting.length) {
    const w = document.createElement("div");
    w.className = "outside-wait";
    w.textContent = t("outside.waiting", { seats: st.waiting.map(seatName).join(", ") });
    box.appendChild(w);
  }
  for (const o of seats) {
    const s = st ? st.seats.find((x) => x.seat === o.seat) : null;
    const row = document.createElement("div");
    row.className = "outside-seat";
    row.dataset.seat = o.seat;
    row.dataset.state = s ? s.state : "";
    const name = document.createElement("b");
    name.textContent = seatName(o.seat);
    const what = document.createElement("span");
    what.className = "outside-state";
    what.textContent = s ? stateText(s) : "…";
    row.append(name, " ", what);
    // The address while the seat needs a program (and on a click on the seat's line).
    const addr = document.createElement("div");
    addr.className = "outside-addr";
    const code = document.createElement("code"); // selected whole by one click (CSS)
    code.textContent = outsideAddress(o.path);
    const toAi = document.createElement("button"); // stop waiting: our AI plays the seat
    toAi.className = "outside-to-ai";
    toAi.textContent = t("outside.to_ai");
    toAi.addEventListener("click", () => giveToAi(g.id, o.seat));
    addr.append(`${t("outside.address")} `, code, " ", toAi);
    addr.hidden = !!s && ["playing", "ready"].includes(s.state);
    name.addEventListener("click", () => (addr.hidden = !addr.hidden));
    row.appendChild(addr);
    box.appendChild(row);
  }
}

async function giveToAi(id, seat) {
  try {
    setGame(await api("POST", `/api/games/${id}/outside/${seat}/ai`));
    showMessage(() => t("outside.news.to_ai", { seat: seatName(seat) }), "info");
    refreshOutside();
  } catch (e) {
    showMessage(() => errorText(e), "error");
  }
}

// Another game or a new hand: ask at once (app.js draws the panel with the rest); so does a
// step refused because the game waits.
let seen = "";
subscribe("game", () => {
  const g = S.game;
  const key = g ? `${g.id}|${g.match_number}|${g.hand_number}` : "";
  if (key !== seen) {
    seen = key;
    refreshOutside();
  }
});
subscribe("waiting", () => refreshOutside());
