// The table: the teams' levels and this hand's level and wild card, the four seats (cards
// left, finishing place, their play or pass in this trick), the play to beat in the centre,
// and the log of this hand's plays.

import { cardEl, cardRow, rankLabel } from "./cards.js";
import { $, strong } from "./dom.js";
import { t, playDesc, seatName } from "./i18n.js";
import { S } from "./state.js";
import { exemptionLogItem, tributeBox } from "./tribute.js";

export function renderTable() {
  renderInfo();
  renderSeats();
  renderCenter();
  renderLog();
}

function renderInfo() {
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
  const lv = add("level", [`${t("info.level")} `, strong(rankLabel(g.level)), ` · ${t("info.wild")} `]);
  lv.id = "hand-level";
  lv.appendChild(cardEl(g.wild, { wild: g.wild, small: true, t }));
  add("handno", [
    t("info.hand", { n: g.hand_number }) + " · " + t("preset." + g.preset + ".name") +
      " · " + t("difficulty." + g.difficulty),
  ]);
}

function renderSeats() {
  const g = S.game;
  for (const seat of [1, 2, 3, 4]) {
    const el = $(`#seat-${seat}`);
    el.innerHTML = "";
    el.classList.toggle("turn", g.to_act === seat && !g.result);
    el.classList.toggle("out", g.finish_order.includes(seat));
    const head = document.createElement("div");
    head.className = "seat-head";
    const name = document.createElement("span");
    name.className = "seat-name";
    name.textContent = seatName(seat);
    const count = document.createElement("span");
    count.className = "seat-count";
    count.dataset.count = g.counts[seat];
    count.textContent = t("count", { n: g.counts[seat] });
    head.append(name, count);
    const place = g.finish_order.indexOf(seat);
    if (place >= 0) {
      const badge = document.createElement("span");
      badge.className = "seat-place";
      badge.textContent = t("place", { n: place + 1 });
      head.appendChild(badge);
    }
    el.appendChild(head);
    // This seat's action in the current trick: its play, or "pass" until the trick ends.
    const mine = g.trick.filter((e) => e.seat === seat);
    const last = mine[mine.length - 1];
    const act = document.createElement("div");
    act.className = "seat-act";
    if (last && last.kind === "pass") {
      act.classList.add("passed");
      act.textContent = t("pass");
    } else if (last && last.kind === "play" && !(g.table && g.table.seat === seat)) {
      act.appendChild(cardRow(last.play.cards, { wild: g.wild, tiny: true, t }));
    }
    el.appendChild(act);
  }
}

function renderCenter() {
  const g = S.game;
  const el = $("#center");
  el.innerHTML = "";
  const tr = g.tribute;
  const noPlayYet = !g.history.some((e) => e.kind === "play" || e.kind === "pass");
  if (tr && tr.kind !== "none" && noPlayYet) {
    el.appendChild(tributeBox(tr));
  }
  if (g.table) {
    const box = document.createElement("div");
    box.className = "table-play";
    box.dataset.seat = g.table.seat;
    const who = document.createElement("div");
    who.className = "table-who";
    who.textContent = `${t("table.by", { seat: seatName(g.table.seat) })} · ${playDesc(g.table.play)}`;
    box.append(cardRow(g.table.play.cards, { wild: g.wild, t }), who);
    el.appendChild(box);
  } else if (!(tr && tr.kind !== "none" && noPlayYet)) {
    const empty = document.createElement("div");
    empty.className = "table-empty";
    empty.textContent =
      g.to_act === 1 && g.phase === "play"
        ? t("table.you_lead")
        : g.to_act && g.phase === "play"
          ? t("table.leads", { seat: seatName(g.to_act) })
          : t("table.empty");
    el.appendChild(empty);
  }
}

function renderLog() {
  const g = S.game;
  const ol = $("#log-list");
  ol.innerHTML = "";
  const events = g.history;
  if (g.tribute && g.tribute.kind === "exempt") {
    ol.appendChild(exemptionLogItem(g.tribute));
  } else if (!events.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = t("log.empty");
    ol.appendChild(li);
  }
  for (const e of events) {
    const li = document.createElement("li");
    li.className = "ev " + e.kind;
    li.dataset.seat = e.seat;
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = seatName(e.seat);
    li.appendChild(who);
    if (e.kind === "play") {
      li.appendChild(cardRow(e.play.cards, { wild: g.wild, tiny: true, t }));
      const d = document.createElement("span");
      d.className = "desc";
      d.textContent = playDesc(e.play) + (e.finished ? " · " + t("log.finished", { n: e.finished }) : "");
      li.appendChild(d);
    } else if (e.kind === "pass") {
      li.append(" " + t("pass"));
    } else {
      const key = e.kind === "gift" ? "tribute.gift" : e.card ? "tribute.return" : "tribute.return_hidden";
      who.textContent = t(key, { from: seatName(e.seat), to: seatName(e.to) });
      if (e.card) li.appendChild(cardRow([e.card], { wild: g.wild, tiny: true, t }));
    }
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}
