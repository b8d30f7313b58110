// The result screen after a hand: the winner, the last play, the finish order, every seat's
// remaining cards, each team's level before and after and why, a final victory at A. Every
// sentence is the page's own (catalogs), said from the person's seat. "판 보기" folds it to a
// bar so the hand that ended can be seen behind it; the next hand shows after 다시 하기.

import { cardRow, rankLabel } from "./cards.js";
import { $ } from "./dom.js";
import { t, playDesc, seatName } from "./i18n.js";
import { S } from "./state.js";

export function renderResult() {
  const g = S.game;
  const dlg = $("#result");
  const r = g.result || (g.to_act === null && g.results.length ? g.results[g.results.length - 1] : null);
  if (!r || S.view !== "game") {
    dlg.hidden = true;
    return;
  }
  dlg.hidden = false;
  dlg.classList.toggle("folded", !!S.resultFolded);
  $("#btn-result-view").setAttribute("aria-pressed", String(!!S.resultFolded));
  const body = $("#result-body");
  body.innerHTML = "";
  $("#result-title").textContent = t("result.title", { n: r.hand });
  const h = (tag, text, cls) => {
    const e = document.createElement(tag);
    e.textContent = text;
    if (cls) e.className = cls;
    body.appendChild(e);
    return e;
  };
  if (r.final_winner) {
    const f = h("div", t("result.final"), "final");
    f.id = "final-victory";
    h("p", t("result.final_text", { team: t("team." + r.final_winner) }));
  }
  h("p", `${t("result.win", { team: t("team." + r.winner) })} · ${t("result.level_at", { level: rankLabel(r.level) })}`, "winner");
  if (r.last_play) {
    const lp = document.createElement("div");
    lp.className = "last-play";
    lp.append(t("result.last_play", { seat: seatName(r.last_play.seat), play: playDesc(r.last_play.play) }));
    lp.appendChild(cardRow(r.last_play.play.cards, { wild: "H" + r.level, tiny: true, t }));
    body.appendChild(lp);
  }
  h("h3", t("result.order"));
  const ol = document.createElement("ol");
  ol.className = "order";
  for (const seat of r.finish_order) {
    const li = document.createElement("li");
    li.textContent = `${seatName(seat)} (${t("seat.n", { n: seat })})`;
    li.dataset.seat = seat;
    ol.appendChild(li);
  }
  body.appendChild(ol);
  const ended = g.ended && g.ended.hand === r.hand ? g.ended : null;
  if (ended) {
    h("h3", t("result.remaining"));
    const ul = document.createElement("ul");
    ul.className = "remaining";
    for (const seat of [1, 2, 3, 4]) {
      const li = document.createElement("li");
      li.dataset.seat = seat;
      const left = ended.remaining[seat];
      const name = document.createElement("span");
      name.className = "who";
      name.textContent = seatName(seat);
      li.appendChild(name);
      if (left.length) li.appendChild(cardRow(left, { wild: ended.wild, tiny: true, t }));
      else li.append(t("result.none_left"));
      ul.appendChild(li);
    }
    body.appendChild(ul);
  }
  h("h3", t("result.levels"));
  body.appendChild(levelsTable(r));
  const w = h("ul", "", "why");
  for (const line of whyLines(r)) {
    const li = document.createElement("li");
    li.textContent = line;
    w.appendChild(li);
  }
  h("h3", t("result.players"));
  const pl = document.createElement("ul");
  pl.className = "players";
  for (const seat of [1, 2, 3, 4]) {
    const team = g.seat_teams[seat];
    const li = document.createElement("li");
    li.dataset.seat = seat;
    li.textContent = `${seatName(seat)}: ${rankLabel(r.team_levels_after[team])}`;
    pl.appendChild(li);
  }
  body.appendChild(pl);
  h("p", r.final_winner ? t("result.again_new") : t("result.again_hint"), "again-hint");
}

function levelsTable(r) {
  const tbl = document.createElement("table");
  tbl.className = "levels";
  for (const team of ["13", "24"]) {
    const tr = document.createElement("tr");
    tr.dataset.team = team;
    const b = r.team_levels_before[team];
    const a = r.team_levels_after[team];
    const diff =
      r.final_winner === team
        ? t("result.final")
        : team === r.winner && b !== a
          ? `+${r.gain}`
          : team === r.winner
            ? t("result.capped")
            : r.reset === team
              ? t("result.reset")
              : t("result.kept");
    tr.innerHTML = "<th></th><td class='before'></td><td>→</td><td class='after'></td><td class='diff'></td>";
    tr.children[0].textContent = t("team." + team);
    tr.children[1].textContent = rankLabel(b);
    tr.children[3].textContent = rankLabel(a);
    tr.children[4].textContent = diff;
    tr.children[4].classList.add(r.reset === team ? "down" : team === r.winner ? "up" : "kept");
    tbl.appendChild(tr);
  }
  return tbl;
}

/** Why the levels moved, in the page's words, naming the seats as the person sees them. */
export function whyLines(r) {
  const first = r.finish_order[0];
  const partner = r.first_partner; // the server's: its place decides the gain
  const place = r.finish_order.indexOf(partner) + 1;
  const why = [t("result.why.gain", {
    first: seatName(first), partner: seatName(partner), place, place_ord: t("ord." + place),
    team: t("team.short." + r.winner), gain: r.gain,
  })];
  if (r.team_levels_before[r.winner] !== "A" && r.team_levels_after[r.winner] === "A")
    why.push(t("result.why.reached_a", { team: t("team." + r.winner) }));
  if (r.why === "a_not_passed") why.push(t("result.why.a_not_passed"));
  if (r.final_winner && r.a_tries_max && r.a_try)
    why.push(t("result.why.a_passed", { n: r.a_try, max: r.a_tries_max }));
  if (r.why === "a_try_failed") why.push(t("result.why.a_try_failed", { n: r.a_try, max: r.a_tries_max }));
  if (r.why === "a_reset") why.push(t("result.why.a_reset", { n: r.a_try, max: r.a_tries_max, team: t("team." + r.reset) }));
  return why;
}
