// The page's views (its screens) and which one is shown (go): the start screen (with the saved match's
// summary) and the new-game dialog, the rules and introduction pages (from the catalogs, with
// card examples), the match records (each finished hand can be replayed: replay.js).

import { cardRow, rankLabel } from "./cards.js";
import { $, strong } from "./dom.js";
import { t, errorText, seatName } from "./i18n.js";
import { openReplay, renderReplay } from "./replay.js";
import { renderResult, whyLines } from "./result.js";
import { S, api, createGame, gameId, refresh, schedule, setGame } from "./state.js";

const PRESETS = ["site", "national", "huaian", "nanjing"];
// The AI's levels (the API's names; the server maps them to the players package's levels).
const DIFFICULTIES = ["easy", "normal", "hard"];
const DEFAULT_DIFFICULTY = "hard";
const TEAMS = ["13", "24"];
const COLUMNS = ["hand", "level", "order", "winner", "levels", "why"];

/** Show one view: "start", "game", "rules", "intro", "records" or "replay" (kept in the
 * address). */
export function go(view) {
  S.view = view;
  for (const v of document.querySelectorAll("[data-view]"))
    v.hidden = v.dataset.view !== view;
  for (const a of document.querySelectorAll("nav a"))
    a.classList.toggle("active", a.dataset.go === view);
  if (view === "rules" || view === "intro") renderDoc(view);
  if (view === "records") renderRecords();
  if (view === "start") renderStart();
  if (view === "replay") renderReplay();
  if (view !== "game") clearTimeout(S.timer);
  else schedule();
  if (S.game) renderResult();
  const hash = view === "start" ? "" : "#" + view;
  if (location.hash !== hash) history.replaceState(null, "", location.pathname + location.search + hash);
}

// -- start, new game ------------------------------------------------------------------------

function renderStart() {
  const id = gameId();
  $("#btn-continue").disabled = !id;
  const note = $("#start-note");
  note.className = "";
  note.textContent = id ? t("start.continue_hint") : t("start.none");
  const sum = $("#start-summary");
  sum.hidden = true;
  if (!id) return;
  // The saved match in a line: its number, the hand, both teams' levels, rules and AI level.
  api("GET", `/api/games/${id}`).then((g) => {
    if (S.view !== "start" || gameId() !== id) return;
    sum.innerHTML = "";
    const a = document.createElement("div");
    a.textContent = t("start.summary", {
      match: g.match_number, hand: g.result ? g.result.hand : g.hand_number,
      us: rankLabel(g.team_levels["13"]), them: rankLabel(g.team_levels["24"]),
    });
    const b = document.createElement("div");
    b.className = "muted";
    b.textContent = t("start.summary2", {
      preset: t("preset." + g.preset + ".name"), difficulty: t("difficulty." + g.difficulty),
    });
    sum.append(a, b);
    sum.hidden = false;
  }).catch((e) => {
    if (S.view === "start") showStartError(errorText(e));
  });
}

function showStartError(text) {
  $("#start-note").textContent = text;
  $("#start-note").className = "error";
}

export async function onContinue() {
  try {
    go("game");
    await refresh();
  } catch (e) {
    go("start");
    showStartError(errorText(e));
  }
}

export function openNew() {
  const dlg = $("#newgame");
  const list = $("#presets");
  list.innerHTML = "";
  for (const p of PRESETS) {
    const lab = document.createElement("label");
    lab.className = "preset";
    lab.innerHTML = `<input type="radio" name="preset" value="${p}"><span class="pname"></span><span class="pdesc"></span>`;
    lab.querySelector("input").checked = p === "site";
    lab.querySelector(".pname").textContent = t(`preset.${p}.name`);
    lab.querySelector(".pdesc").textContent = t(`preset.${p}.desc`);
    list.appendChild(lab);
  }
  const levels = $("#difficulties");
  levels.innerHTML = "";
  for (const d of DIFFICULTIES) {
    const lab = document.createElement("label");
    lab.className = "difficulty";
    lab.innerHTML = `<input type="radio" name="difficulty" value="${d}"><span></span>`;
    lab.querySelector("input").checked = d === DEFAULT_DIFFICULTY;
    lab.querySelector("span").textContent = t(`difficulty.${d}`);
    levels.appendChild(lab);
  }
  const outside = $("#outside-seats");
  outside.innerHTML = "";
  for (const seat of [2, 3, 4]) {
    const lab = document.createElement("label");
    lab.className = "difficulty";
    lab.innerHTML = `<input type="checkbox" name="outside" value="${seat}"><span></span>`;
    lab.querySelector("span").textContent = seatName(seat);
    outside.appendChild(lab);
  }
  $("#new-confirm").hidden = !(S.game && S.game.to_act !== null && gameId());
  dlg.hidden = false;
  $("#btn-new-start").focus();
}

export async function newGame(preset, difficulty = DEFAULT_DIFFICULTY, outside = []) {
  const g = await createGame(preset, difficulty, outside);
  go("game");
  setGame(g);
}

// -- rules, introduction --------------------------------------------------------------------

function renderDoc(which) {
  const root = $(`#${which}-body`);
  root.innerHTML = "";
  const h1 = document.createElement("h2");
  h1.textContent = t(which + ".title");
  root.appendChild(h1);
  if (which === "rules") {
    const lead = document.createElement("p");
    lead.className = "lead";
    lead.textContent = t("rules.lead");
    root.appendChild(lead);
  }
  for (const sec of t(which + ".sections")) {
    const s = document.createElement("section");
    const h = document.createElement("h3");
    h.textContent = sec.h;
    s.appendChild(h);
    for (const p of sec.p) {
      const e = document.createElement("p");
      e.textContent = p;
      s.appendChild(e);
    }
    // An example: [cards, caption] or [cards, caption, level] (the level's hearts are wild).
    for (const [cards, cap, level] of sec.ex || []) {
      const fig = document.createElement("figure");
      fig.className = "example";
      fig.appendChild(cardRow(cards.split(" "), { wild: level ? "H" + level : null, t }));
      const fc = document.createElement("figcaption");
      fc.textContent = cap;
      fig.appendChild(fc);
      s.appendChild(fig);
    }
    root.appendChild(s);
  }
  if (which === "rules") {
    const s = document.createElement("section");
    const h = document.createElement("h3");
    h.textContent = t("new.preset");
    s.appendChild(h);
    for (const p of PRESETS) {
      const e = document.createElement("p");
      const b = strong(t(`preset.${p}.name`) + ": ");
      e.append(b, t(`preset.${p}.desc`));
      s.appendChild(e);
    }
    root.appendChild(s);
  }
}

// -- records --------------------------------------------------------------------------------

async function renderRecords() {
  const root = $("#records-body");
  root.innerHTML = "";
  const h = document.createElement("h2");
  h.textContent = t("records.title");
  root.appendChild(h);
  const id = gameId();
  if (!id) {
    root.append(t("records.none"));
    return;
  }
  let data;
  try {
    data = await api("GET", `/api/games/${id}/records`);
  } catch (e) {
    root.append(errorText(e));
    return;
  }
  const info = document.createElement("p");
  info.textContent = `${t("info.match", { n: data.match_number })} · ${t("preset." + data.preset + ".name")}`;
  root.appendChild(info);
  if (!data.results.length) {
    const p = document.createElement("p");
    p.textContent = t("records.empty");
    root.appendChild(p);
  } else {
    const wrap = document.createElement("div");
    wrap.className = "table-scroll";
    wrap.appendChild(recordsTable(data.results));
    root.appendChild(wrap);
  }
  const a = document.createElement("a");
  a.className = "button";
  a.id = "btn-export";
  a.href = `/api/games/${id}/export`;
  a.download = "";
  a.textContent = t("btn.export");
  root.appendChild(a);
}

function recordsTable(results) {
  const tbl = document.createElement("table");
  tbl.className = "records";
  const head = document.createElement("tr");
  for (const c of [...COLUMNS, "replay"]) {
    const th = document.createElement("th");
    th.textContent = t("records.col." + c);
    head.appendChild(th);
  }
  tbl.appendChild(head);
  for (const r of results) {
    const tr = document.createElement("tr");
    tr.className = "record";
    const levels = TEAMS.map((team) =>
      `${t("team.short." + team)}: ${rankLabel(r.team_levels_before[team])}→${rankLabel(r.team_levels_after[team])}`);
    const cells = [
      String(r.hand),
      rankLabel(r.level),
      r.finish_order.map((s) => seatName(s)).join(" › "),
      t("team.short." + r.winner) + (r.final_winner ? " · " + t("result.final") : ""),
      levels.join(" · "),
      whyLines(r).join(" "),
    ];
    cells.forEach((c, i) => {
      const td = document.createElement("td");
      td.textContent = c;
      td.dataset.label = t("records.col." + COLUMNS[i]);
      tr.appendChild(td);
    });
    const td = document.createElement("td");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn-replay";
    b.dataset.hand = r.hand;
    b.textContent = t("btn.replay");
    b.addEventListener("click", () => openReplay(r.hand, () => go("records")).then(() => go("replay")).catch((e) => {
      b.replaceWith(errorText(e));
    }));
    td.appendChild(b);
    tr.appendChild(td);
    tbl.appendChild(tr);
  }
  return tbl;
}
