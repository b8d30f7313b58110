// The table: the teams' levels and this hand's level and wild card, the four seats (cards
// left, finishing place, their play or pass in this trick), the play to beat in the centre,
// the card counter, and the log of this hand, trick by trick. With a result shown, the hand
// that just ended (every seat's remaining cards open), not the next one.

import { cardEl, cardRow, rankLabel } from "./cards.js";
import { $, strong } from "./dom.js";
import { I18N, t, playDesc, seatName } from "./i18n.js";
import { S } from "./state.js";
import { exemptionLogItem, tributeBox } from "./tribute.js";

/** What the table shows: the hand in play, or (result shown) the hand that ended. */
export function tableShown(g) {
  if (g.result && g.ended) {
    const e = g.ended;
    const counts = {};
    for (const s of ["1", "2", "3", "4"]) counts[s] = e.remaining[s].length;
    return {
      ended: true, level: e.level, wild: e.wild, hand_number: e.hand, history: e.history,
      trick: [], table: g.result.last_play, counts, finish_order: e.finish_order, to_act: null,
      tribute: e.tribute, remaining: e.remaining, hand: e.remaining["1"], phase: "over",
    };
  }
  return { ...g, ended: false };
}

export function renderTable() {
  const v = tableShown(S.game);
  renderInfo(v);
  renderSeats(v);
  renderCenter(v);
  renderCounter(v);
  renderLog(v);
}

function renderInfo(v) {
  const g = S.game;
  const el = $("#info");
  el.innerHTML = "";
  const add = (cls, html) => {
    const d = document.createElement("div");
    d.className = "chip " + cls;
    d.append(...html);
    el.appendChild(d);
    return d;
  };
  const tries = (team) =>
    g.a_tries_max && g.team_levels[team] === "A"
      ? ` · ${t("info.tries", { n: g.a_tries[team] + 1, max: g.a_tries_max })}`
      : "";
  add("team us" + (g.level_team === "13" ? " playing" : ""), [
    `${t("team.short.13")} `,
    strong(rankLabel(g.team_levels["13"])),
    tries("13"),
  ]).dataset.team = "13";
  add("team them" + (g.level_team === "24" ? " playing" : ""), [
    `${t("team.short.24")} `,
    strong(rankLabel(g.team_levels["24"])),
    tries("24"),
  ]).dataset.team = "24";
  const lv = add("level", [`${t("info.level")} `, strong(rankLabel(v.level)), ` · ${t("info.wild")} `]);
  lv.id = "hand-level";
  lv.appendChild(cardEl(v.wild, { wild: v.wild, small: true, t }));
  add("handno", [
    t("info.hand", { n: v.hand_number }) + " · " + t("preset." + g.preset + ".name") +
      " · " + t("difficulty." + g.difficulty),
  ]);
}

function renderSeats(v) {
  for (const seat of [1, 2, 3, 4]) {
    const el = $(`#seat-${seat}`);
    el.innerHTML = "";
    el.classList.toggle("turn", v.to_act === seat && !S.game.result);
    el.classList.toggle("out", v.finish_order.includes(seat));
    const head = document.createElement("div");
    head.className = "seat-head";
    const name = document.createElement("span");
    name.className = "seat-name";
    name.textContent = seatName(seat);
    const count = document.createElement("span");
    count.className = "seat-count";
    count.dataset.count = v.counts[seat];
    count.textContent = t("count", { n: v.counts[seat] });
    head.append(name, count);
    const place = v.finish_order.indexOf(seat);
    if (place >= 0) {
      const badge = document.createElement("span");
      badge.className = "seat-place";
      badge.textContent = t("place", { n: place + 1 });
      head.appendChild(badge);
    }
    el.appendChild(head);
    const act = document.createElement("div");
    act.className = "seat-act";
    if (v.ended) {
      // The hand is over: the cards this seat still held, open.
      const left = v.remaining[seat];
      if (left.length && seat !== 1) {
        act.classList.add("remaining");
        act.appendChild(cardRow(left, { wild: v.wild, tiny: true, t }));
      }
    } else {
      // This seat's action in the current trick: its play, or "pass" until the trick ends.
      const mine = v.trick.filter((e) => e.seat === seat);
      const last = mine[mine.length - 1];
      if (last && last.kind === "pass") {
        act.classList.add("passed");
        act.textContent = t("pass");
      } else if (last && last.kind === "play" && !(v.table && v.table.seat === seat)) {
        act.appendChild(cardRow(last.play.cards, { wild: v.wild, tiny: true, t }));
      }
    }
    el.appendChild(act);
  }
}

function renderCenter(v) {
  const el = $("#center");
  el.innerHTML = "";
  const tr = v.tribute;
  const noPlayYet = !v.history.some((e) => e.kind === "play" || e.kind === "pass");
  if (tr && tr.kind !== "none" && noPlayYet) {
    el.appendChild(tributeBox(tr));
  }
  if (v.table) {
    const box = document.createElement("div");
    box.className = "table-play";
    box.dataset.seat = v.table.seat;
    const who = document.createElement("div");
    who.className = "table-who";
    who.textContent = `${t("table.by", { seat: seatName(v.table.seat) })} · ${playDesc(v.table.play)}`;
    box.append(cardRow(v.table.play.cards, { wild: v.wild, t }), who);
    el.appendChild(box);
  } else if (!(tr && tr.kind !== "none" && noPlayYet)) {
    const empty = document.createElement("div");
    empty.className = "table-empty";
    empty.textContent =
      v.to_act === 1 && v.phase === "play"
        ? t("table.you_lead")
        : v.to_act && v.phase === "play"
          ? t("table.leads", { seat: seatName(v.to_act) })
          : t("table.empty");
    el.appendChild(empty);
  }
}

// -- the card counter (카드 기록 / 记牌器) ----------------------------------------------------------

const RANKS = ["BJ", "LJ", "A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];

/** For each rank, how many cards seat 1 has not seen: two decks (8 of a rank, 2 of a joker)
 * less its own hand and every card played in this hand. */
export function unseenByRank(hand, history) {
  const left = {};
  for (const r of RANKS) left[r] = r === "BJ" || r === "LJ" ? 2 : 8;
  const take = (n) => {
    const r = n === "BJ" || n === "LJ" ? n : n.slice(1);
    left[r] -= 1;
  };
  for (const c of hand) take(c);
  for (const e of history) if (e.kind === "play") for (const c of e.play.cards) take(c);
  return left;
}

function renderCounter(v) {
  const el = $("#counter");
  el.hidden = !S.counter;
  if (!S.counter) return;
  el.innerHTML = "";
  el.title = t("counter.title");
  const left = unseenByRank(v.hand, v.history);
  for (const r of RANKS) {
    const cell = document.createElement("div");
    cell.className = "cc" + (r === v.level ? " level" : "") + (left[r] === 0 ? " none" : "");
    cell.dataset.rank = r;
    const top = document.createElement("span");
    top.className = "cc-rank";
    top.textContent = r === "BJ" ? t("counter.BJ") : r === "LJ" ? t("counter.LJ") : rankLabel(r);
    const n = document.createElement("b");
    n.className = "cc-n";
    n.textContent = String(left[r]);
    cell.append(top, n);
    el.appendChild(cell);
  }
}

// -- the log, trick by trick ------------------------------------------------------------------

function eventItem(e, wild) {
  const li = document.createElement("li");
  li.className = "ev " + e.kind + (e.wins ? " wins" : "");
  li.dataset.seat = e.seat;
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = seatName(e.seat);
  li.appendChild(who);
  if (e.kind === "play") {
    li.appendChild(cardRow(e.play.cards, { wild, tiny: true, t }));
    const d = document.createElement("span");
    d.className = "desc";
    d.textContent = playDesc(e.play) + (e.finished ? " · " + t("log.finished", { n: e.finished }) : "");
    li.appendChild(d);
  } else if (e.kind === "pass") {
    li.append(" " + t("pass"));
  } else {
    const key = e.kind === "gift" ? "tribute.gift" : e.card ? "tribute.return" : "tribute.return_hidden";
    who.textContent = t(key, { from: seatName(e.seat), to: seatName(e.to) });
    if (e.card) li.appendChild(cardRow([e.card], { wild, tiny: true, t }));
  }
  return li;
}

/** The events of a hand as a list: the tribute first, then one block per trick with the seat
 * that took it. With `from` > 0 the list already shows events[0..from) and only the new ones
 * are added (the log is drawn at every state: redrawing it whole would cost most of a frame). */
export function logList(ol, events, wild, tribute, from = 0) {
  if (!from) {
    ol.innerHTML = "";
    ol._items = [];
    ol._blocks = {};
    if (tribute && tribute.kind === "exempt") ol.appendChild(exemptionLogItem(tribute));
  }
  for (let i = from; i < events.length; i++) {
    const e = events[i];
    const li = eventItem(e, wild);
    ol._items[i] = li;
    if (e.trick == null) {
      ol.appendChild(li);
      continue;
    }
    let b = ol._blocks[e.trick];
    if (!b) {
      const box = document.createElement("li");
      box.className = "trick";
      box.dataset.trick = e.trick;
      const head = document.createElement("div");
      head.className = "trick-head";
      head.textContent = t("log.trick", { n: e.trick });
      const list = document.createElement("ol");
      box.append(head, list);
      ol.appendChild(box);
      b = ol._blocks[e.trick] = { head, list, won: false };
    }
    b.list.appendChild(li);
  }
  // The seat that took each finished trick (known once the passes after its play are in).
  events.forEach((e, i) => {
    const b = e.wins && ol._blocks[e.trick];
    if (!b || b.won) return;
    b.won = true;
    ol._items[i].classList.add("wins");
    const w = document.createElement("span");
    w.className = "won";
    w.textContent = t("log.won", { seat: seatName(e.seat) });
    b.head.append(" · ", w);
  });
}

function renderLog(v) {
  const ol = $("#log-list");
  const key = [S.game.id, S.game.match_number, v.hand_number, v.ended, I18N.lang].join("|");
  const n = ol.dataset.key === key ? Number(ol.dataset.n) : 0;
  const grows = n > 0 && n <= v.history.length;
  logList(ol, v.history, v.wild, v.tribute, grows ? n : 0);
  ol.dataset.key = key;
  ol.dataset.n = String(v.history.length);
  if (!v.history.length && !ol.children.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = t("log.empty");
    ol.appendChild(li);
    ol.dataset.n = "0";
  } else if (v.history.length) {
    ol.querySelector(":scope > li.empty")?.remove();
  }
  // Scrolled to the end after the frame's layout, not in the middle of drawing (reading
  // scrollHeight here would lay the page out twice).
  requestAnimationFrame(() => (ol.scrollTop = ol.scrollHeight));
}
