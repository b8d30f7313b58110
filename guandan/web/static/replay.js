// The replay of a finished hand (from the records page): the four hands open, the trick on the
// table, step by step or trick by trick, forwards and back. The server sends the hand's record
// (GET /api/games/{id}/replay/{n}: every seat's cards once the tribute was exchanged, and every
// play and pass with its trick); the page only subtracts the cards played.

import { cardRow } from "./cards.js";
import { $ } from "./dom.js";
import { t, playDesc, seatName } from "./i18n.js";
import { S, api, gameId } from "./state.js";
import { logList } from "./table.js";

const R = { data: null, at: 0, back: null };

/** Load finished hand ``hand`` for the replay; ``back`` leaves it (the records page, which
 * opened it: passed in, so that this module does not import the pages above it). */
export async function openReplay(hand, back) {
  R.data = await api("GET", `/api/games/${gameId()}/replay/${hand}`);
  R.at = 0;
  R.back = back;
}

/** The step positions that end a trick (0 first): where "trick by trick" stops. */
function trickStops(steps) {
  const stops = [0];
  steps.forEach((e, i) => {
    if (i + 1 === steps.length || steps[i + 1].trick !== e.trick) stops.push(i + 1);
  });
  return stops;
}

function moveTo(i) {
  R.at = Math.max(0, Math.min(R.data.steps.length, i));
  renderReplay();
}

function stepBy(d) {
  moveTo(R.at + d);
}

function trickBy(d) {
  const stops = trickStops(R.data.steps);
  const next = d > 0 ? stops.find((p) => p > R.at) : [...stops].reverse().find((p) => p < R.at);
  moveTo(next ?? (d > 0 ? R.data.steps.length : 0));
}

function button(id, label, fn, disabled) {
  const b = document.createElement("button");
  b.type = "button";
  b.id = id;
  b.textContent = label;
  b.disabled = disabled;
  b.addEventListener("click", fn);
  return b;
}

export function renderReplay() {
  const root = $("#replay-body");
  root.innerHTML = "";
  const d = R.data;
  if (!d) return;
  const n = d.steps.length;
  const done = d.steps.slice(0, R.at);
  // Each seat's cards at this step: its cards after the tribute, less what it has played.
  const hands = {};
  for (const s of [1, 2, 3, 4]) hands[s] = [...d.hands[s]];
  for (const e of done)
    if (e.kind === "play") for (const c of e.play.cards) hands[e.seat].splice(hands[e.seat].indexOf(c), 1);
  const last = done[done.length - 1];
  const trick = last ? done.filter((e) => e.trick === last.trick) : [];
  const plays = trick.filter((e) => e.kind === "play");
  const top = plays[plays.length - 1]; // the play to beat (or that took the trick)
  const h = document.createElement("h2");
  h.textContent = t("replay.title", { n: d.hand });
  root.appendChild(h);
  const felt = document.createElement("div");
  felt.className = "felt replay-felt";
  for (const [seat, cls] of [[3, "top"], [4, "left"], [2, "right"], [1, "bottom"]]) {
    const el = document.createElement("div");
    el.className = `seat ${cls}`;
    el.dataset.seat = seat;
    const head = document.createElement("div");
    head.className = "seat-head";
    head.innerHTML = "<span class='seat-name'></span><span class='seat-count'></span>";
    head.children[0].textContent = seatName(seat);
    head.children[1].textContent = t("count", { n: hands[seat].length });
    el.appendChild(head);
    const row = cardRow(hands[seat], { wild: d.wild, tiny: true, t });
    row.classList.add("replay-hand");
    el.appendChild(row);
    const mine = trick.filter((e) => e.seat === seat);
    const act = document.createElement("div");
    act.className = "seat-act";
    const m = mine[mine.length - 1];
    if (m && m.kind === "pass") {
      act.classList.add("passed");
      act.textContent = t("pass");
    } else if (m && m !== top) {
      act.appendChild(cardRow(m.play.cards, { wild: d.wild, tiny: true, t }));
    }
    el.appendChild(act);
    felt.appendChild(el);
  }
  const center = document.createElement("div");
  center.className = "center";
  center.id = "replay-center";
  if (top) {
    const box = document.createElement("div");
    box.className = "table-play";
    box.dataset.seat = top.seat;
    box.append(cardRow(top.play.cards, { wild: d.wild, t }));
    const who = document.createElement("div");
    who.className = "table-who";
    const over = R.at === n || d.steps[R.at].trick !== last.trick; // every pass is in
    const won = top.wins && over;
    who.textContent = `${t("table.by", { seat: seatName(top.seat) })} · ${playDesc(top.play)}` +
      (won ? ` · ${t("log.won", { seat: seatName(top.seat) })}` : "");
    box.appendChild(who);
    center.appendChild(box);
  }
  felt.appendChild(center);
  root.appendChild(felt);
  const pos = document.createElement("div");
  pos.className = "replay-pos";
  pos.id = "replay-pos";
  pos.textContent = R.at
    ? t("replay.pos", { i: R.at, n, trick: t("log.trick", { n: last.trick }) })
    : t("replay.before");
  root.appendChild(pos);
  const bar = document.createElement("div");
  bar.className = "controls replay-controls";
  bar.append(
    button("rp-first", t("replay.first"), () => moveTo(0), R.at === 0),
    button("rp-prev-trick", t("replay.prev_trick"), () => trickBy(-1), R.at === 0),
    button("rp-prev", t("replay.prev"), () => stepBy(-1), R.at === 0),
    button("rp-next", t("replay.next"), () => stepBy(1), R.at === n),
    button("rp-next-trick", t("replay.next_trick"), () => trickBy(1), R.at === n),
    button("rp-last", t("replay.last"), () => moveTo(n), R.at === n),
  );
  const back = document.createElement("a");
  back.href = "#records";
  back.className = "button";
  back.dataset.go = "records";
  back.textContent = t("nav.records");
  back.addEventListener("click", (e) => {
    e.preventDefault();
    if (R.back) R.back();
  });
  bar.appendChild(back);
  root.appendChild(bar);
  const ol = document.createElement("ol");
  ol.className = "log-list replay-log";
  logList(ol, done, d.wild, null);
  root.appendChild(ol);
}

document.addEventListener("keydown", (e) => {
  if (S.view !== "replay" || !R.data) return;
  if (e.key === "ArrowRight") stepBy(1);
  else if (e.key === "ArrowLeft") stepBy(-1);
  else if (e.key === "PageDown") trickBy(1);
  else if (e.key === "PageUp") trickBy(-1);
});
