// 관단 web game: the page. It shows what the server sends (seat 1's own view) and sends the
// person's actions; every rule is decided by the engine on the server.

import { cardEl, cardRow, rankLabel } from "./cards.js";

const $ = (sel, root = document) => root.querySelector(sel);
const LS = {
  game: "guandan.game",
  lang: "guandan.lang",
  sort: "guandan.sort",
  interval: "guandan.autoInterval",
};
const INTERVALS = [0.3, 0.5, 1, 2, 3, 4, 5];
const params = new URLSearchParams(location.search);
// AI pace (seconds between AI plays); ?pace= overrides it (the tests use a fast pace).
const AI_PACE = params.has("pace") ? Number(params.get("pace")) : 0.9;
// ?autopace= overrides the auto-play interval (tests only; the page offers 0.3 to 5 s).
const AUTO_PACE = params.has("autopace") ? Number(params.get("autopace")) : null;

const S = {
  lang: localStorage.getItem(LS.lang) || "ko",
  cat: {},
  ko: {},
  game: null,
  selected: new Set(), // keys "H7#0" of the selected cards
  handSig: "",
  sort: localStorage.getItem(LS.sort) || "strength",
  auto: false,
  interval: Number(localStorage.getItem(LS.interval) || 1),
  timer: null,
  busy: false,
  readings: null, // {legal: [...], chosen: 0} for the current selection
  readingsSeq: 0,
  message: null, // {text, kind: "error"|"hint"|"info"}
  view: "start",
  lastEvent: null,
};

// -- catalogs -------------------------------------------------------------------------------

async function loadCatalog(lang) {
  const r = await fetch(`/api/catalogs/${lang}`);
  return r.json();
}

function t(key, p = {}) {
  let s = S.cat[key];
  if (s === undefined) s = S.ko[key];
  if (s === undefined) return key;
  if (typeof s !== "string") return s;
  return s.replace(/\{(\w+)\}/g, (_, k) => (p[k] === undefined ? "" : String(p[k])));
}

function seatName(seat) {
  return t("seat." + seat);
}

function playDesc(play) {
  if (!play) return "";
  let kind = t("kind." + play.kind, { n: play.cards.length });
  if (play.kind === "joker_bomb") return kind;
  let rank = play.rank;
  if (rank === "BJ" || rank === "LJ") rank = t("card." + rank);
  else rank = rankLabel(rank);
  return t("play.desc", { kind, rank });
}

function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  document.documentElement.lang = S.lang;
  document.title = t("app.title") + " · Guandan";
}

// -- server ---------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, body) {
    super(body?.error?.message || "error " + status);
    this.status = status;
    this.code = body?.error?.code || "network";
    this.params = body?.error?.params || {};
  }
}

async function api(method, path, body) {
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

function errorText(e) {
  const p = { ...e.params };
  if (p.seat) p.seat = seatName(p.seat);
  if (p.table_kind) p.table_kind = t("kind." + p.table_kind, { n: p.table_size });
  if (p.kind) p.kind = t("kind." + p.kind, { n: p.size });
  if (Array.isArray(p.allowed)) p.allowed = p.allowed.map(cardText).join(" ");
  if (Array.isArray(p.cards)) p.cards = p.cards.map(cardText).join(" ");
  const key = "err." + e.code;
  const s = t(key, p);
  return s === key ? `${t("err.refused")} (${e.message})` : s;
}

function cardText(n) {
  if (n === "BJ" || n === "LJ") return t("card." + n);
  return { S: "♠", H: "♥", D: "♦", C: "♣" }[n[0]] + rankLabel(n.slice(1));
}

// -- game flow ------------------------------------------------------------------------------

function gameId() {
  return localStorage.getItem(LS.game);
}

function setGame(g) {
  const sig = g.hand.join(" ") + "|" + g.phase + "|" + g.hand_number;
  if (sig !== S.handSig) {
    S.selected.clear();
    S.readings = null;
    S.handSig = sig;
  }
  S.game = g;
  S.version = (S.version || 0) + 1;
  localStorage.setItem(LS.game, g.id);
  render();
  schedule();
}

function schedule() {
  clearTimeout(S.timer);
  S.timer = null;
  const g = S.game;
  if (!g || S.view !== "game" || g.result || g.to_act === null) return;
  if (g.to_act === 1 && !S.auto) return;
  const delay = S.auto ? (AUTO_PACE ?? S.interval) : AI_PACE;
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
  } catch (e) {
    S.busy = false;
    if (["your_turn", "result_pending", "match_over", "changed", "not_your_turn"].includes(e.code)) {
      await refresh().catch(() => {});
    } else {
      showMessage(errorText(e), "error");
      S.timer = setTimeout(step, 2000);
    }
  }
}

async function refresh() {
  const id = gameId();
  if (!id) return;
  setGame(await api("GET", `/api/games/${id}`));
}

async function act(path, body) {
  const g = S.game;
  if (!g || S.busy) return;
  S.busy = true;
  const t0 = performance.now();
  try {
    const state = await api("POST", `/api/games/${g.id}/${path}`, body);
    S.message = null;
    S.busy = false;
    setGame(state);
    window.__lastActMs = performance.now() - t0;
  } catch (e) {
    S.busy = false;
    showMessage(errorText(e), "error");
  }
}

function selectedCards() {
  // The selected cards in the order of the hand.
  return handOrder().filter((c) => S.selected.has(c.key)).map((c) => c.card);
}

function onPlay() {
  const g = S.game;
  if (!g) return;
  if (g.phase === "return") return onReturn();
  const body = { cards: selectedCards() };
  const r = S.readings;
  if (r && r.legal.length > 1) {
    const chosen = r.legal[r.chosen] || r.legal[0];
    body.kind = chosen.kind;
    body.rank = chosen.rank;
  }
  act("play", body);
}

function onPass() {
  act("pass");
}

function onReturn() {
  const cards = selectedCards();
  if (cards.length !== 1) return showMessage(t("err.select_one_return"), "error");
  act("return", { card: cards[0] });
}

async function onHint() {
  const g = S.game;
  if (!g) return;
  try {
    const h = await api("POST", `/api/games/${g.id}/hint`);
    const reason = h.reason[S.lang] || h.reason.en || h.reason.ko;
    S.selected.clear();
    const order = handOrder();
    const used = new Set();
    for (const n of h.cards) {
      const c = order.find((x) => x.card === n && !used.has(x.key));
      if (c) {
        used.add(c.key);
        S.selected.add(c.key);
      }
    }
    let head;
    if (h.kind === "pass") head = t("hint.pass");
    else if (h.kind === "return") head = t("hint.return", { card: cardText(h.cards[0]) });
    else head = t("hint.play", { play: playDesc(h.play) });
    S.message = { text: `${head} — ${reason}`, kind: "hint" };
    S.readings = null;
    renderHand();
    renderMessage();
    if (h.kind === "play") await updateReadings(h.play);
  } catch (e) {
    showMessage(errorText(e), "error");
  }
}

function onSort() {
  S.sort = S.sort === "strength" ? "groups" : "strength";
  localStorage.setItem(LS.sort, S.sort);
  renderHand();
  renderControls();
}

function setAuto(on) {
  S.auto = on;
  renderControls();
  schedule();
}

async function onAgain() {
  const g = S.game;
  if (!g) return;
  try {
    S.message = null;
    setGame(await api("POST", `/api/games/${g.id}/next`));
  } catch (e) {
    showMessage(errorText(e), "error");
  }
}

async function newGame(preset) {
  const old = gameId();
  const g = await api("POST", "/api/games", { preset });
  if (old && old !== g.id) api("DELETE", `/api/games/${old}`).catch(() => {});
  S.message = null;
  S.auto = false;
  go("game");
  setGame(g);
}

async function onContinue() {
  try {
    go("game");
    await refresh();
  } catch (e) {
    go("start");
    showStartError(errorText(e));
  }
}

function showMessage(text, kind) {
  S.message = { text, kind };
  renderMessage();
}

// -- selection and readings -----------------------------------------------------------------

function handKeys(hand) {
  const seen = {};
  return hand.map((card) => {
    seen[card] = (seen[card] || 0) + 1;
    return { card, key: `${card}#${seen[card] - 1}` };
  });
}

function handOrder() {
  const g = S.game;
  if (!g) return [];
  const keyed = handKeys(g.hand); // keys follow the strength order, whatever is shown
  if (S.sort === "strength") return keyed.map((k) => ({ ...k, group: 0 }));
  const pool = {};
  for (const k of keyed) (pool[k.card] ||= []).push(k);
  const out = [];
  g.hand_groups.forEach((grp, gi) => {
    for (const c of grp) {
      const k = pool[c].shift();
      out.push({ ...k, group: gi });
    }
  });
  return out;
}

function toggle(key) {
  if (S.selected.has(key)) S.selected.delete(key);
  else S.selected.add(key);
  if (S.message?.kind === "error") S.message = null;
  renderHand();
  renderMessage();
  updateReadings();
}

let readingsTimer = null;
function updateReadings(prefer) {
  clearTimeout(readingsTimer);
  const g = S.game;
  const cards = selectedCards();
  if (!g || g.phase !== "play" || cards.length < 2) {
    S.readings = null;
    renderReadings();
    return Promise.resolve();
  }
  const seq = ++S.readingsSeq;
  return new Promise((resolve) => {
    readingsTimer = setTimeout(async () => {
      try {
        const r = await api("POST", `/api/games/${g.id}/readings`, { cards });
        if (seq !== S.readingsSeq) return resolve();
        let chosen = 0;
        if (prefer) {
          const i = r.legal.findIndex((x) => x.kind === prefer.kind && x.rank === prefer.rank);
          if (i >= 0) chosen = i;
        }
        S.readings = { legal: r.legal, chosen };
      } catch {
        S.readings = null;
      }
      renderReadings();
      resolve();
    }, 60);
  });
}

// -- rendering ------------------------------------------------------------------------------

const POS = { 1: "bottom", 2: "right", 3: "top", 4: "left" };

function go(view) {
  S.view = view;
  for (const v of document.querySelectorAll("[data-view]"))
    v.hidden = v.dataset.view !== view;
  for (const a of document.querySelectorAll("nav a"))
    a.classList.toggle("active", a.dataset.go === view);
  if (view === "rules" || view === "intro") renderDoc(view);
  if (view === "records") renderRecords();
  if (view === "start") renderStart();
  if (view !== "game") clearTimeout(S.timer);
  else schedule();
  if (S.game) renderResult();
  const hash = view === "start" ? "" : "#" + view;
  if (location.hash !== hash) history.replaceState(null, "", location.pathname + location.search + hash);
}

function render() {
  if (!S.game) return;
  renderInfo();
  renderSeats();
  renderCenter();
  renderHand();
  renderControls();
  renderMessage();
  renderReadings();
  renderLog();
  renderResult();
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
    t("info.hand", { n: g.hand_number }) + " · " + t("preset." + g.preset + ".name"),
  ]);
}

function strong(text) {
  const b = document.createElement("b");
  b.textContent = text;
  return b;
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
    // This seat's action in the current trick: its play, or "패스" until the trick ends.
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

function tributeBox(tr) {
  const box = document.createElement("div");
  box.className = "tribute";
  box.id = "tribute";
  box.dataset.kind = tr.kind;
  const h = document.createElement("div");
  h.className = "tribute-title";
  h.textContent = `${t("tribute.title")} · ${t("tribute.kind." + tr.kind)}`;
  box.appendChild(h);
  if (tr.kind === "exempt") {
    const p = document.createElement("div");
    p.className = "exempt";
    p.textContent = t("tribute.exempt");
    box.appendChild(p);
    for (const [seat, n] of Object.entries(tr.exempt_jokers)) {
      if (!n) continue;
      const row = document.createElement("div");
      row.className = "tribute-row";
      row.append(t("tribute.exempt_holder", { seat: seatName(seat), n }), " ");
      row.appendChild(cardRow(Array(n).fill("BJ"), { t }));
      box.appendChild(row);
    }
  }
  const line = (key, e) => {
    const row = document.createElement("div");
    row.className = "tribute-row " + e.kind;
    row.append(t(e.card ? key : "tribute.return_hidden", { from: seatName(e.seat), to: seatName(e.to) }), " ");
    if (e.card) row.appendChild(cardRow([e.card], { wild: S.game.wild, t }));
    box.appendChild(row);
  };
  for (const e of tr.gifts) line("tribute.gift", e);
  for (const e of tr.returns) line("tribute.return", e);
  if (S.game.leader && tr.kind !== "exempt") {
    const p = document.createElement("div");
    p.className = "tribute-note";
    p.textContent = t("tribute.leader", { seat: seatName(S.game.leader) });
    box.appendChild(p);
  }
  return box;
}

function layoutHand(n) {
  const wrap = $("#hand-wrap");
  const W = Math.max(200, wrap.clientWidth - 8);
  const phone = W < 560;
  const cw = phone ? 50 : 66;
  const minStep = phone ? 24 : 30;
  const maxStep = Math.round(cw * 0.62);
  let rows = 1;
  let per = n;
  let stepW = maxStep;
  for (rows = 1; rows <= 4; rows++) {
    per = Math.ceil(n / rows);
    stepW = per > 1 ? Math.min(maxStep, Math.floor((W - cw) / (per - 1))) : maxStep;
    if (stepW >= minStep) break;
  }
  return { cw, step: Math.max(stepW, minStep), per };
}

function renderHand() {
  const g = S.game;
  const el = $("#hand");
  el.innerHTML = "";
  if (!g) return;
  const order = handOrder();
  const { cw, step, per } = layoutHand(order.length);
  el.style.setProperty("--cw", cw + "px");
  el.style.setProperty("--step", step + "px");
  el.style.width = Math.max(per, 1) * step + "px";
  el.style.paddingRight = cw - step + "px";
  const returning = g.phase === "return" && g.my_turn;
  const returnable = new Set(g.returnable);
  let prevGroup = 0;
  order.forEach((c, i) => {
    const e = cardEl(c.card, { wild: g.wild, key: c.key, t });
    e.setAttribute("role", "button");
    e.tabIndex = 0;
    const sel = S.selected.has(c.key);
    if (sel) e.classList.add("selected");
    e.setAttribute("aria-pressed", String(sel));
    if (returning) e.classList.add(returnable.has(c.card) ? "returnable" : "dim");
    if (S.sort === "groups" && c.group !== prevGroup && i > 0) e.classList.add("group-start");
    prevGroup = c.group;
    e.addEventListener("click", () => toggle(c.key));
    e.addEventListener("keydown", (ev) => {
      if (ev.key === " ") {
        ev.preventDefault();
        ev.stopPropagation();
        toggle(c.key);
        document.querySelector(`#hand .card[data-key="${c.key}"]`)?.focus();
      }
    });
    el.appendChild(e);
  });
}

function renderControls() {
  const g = S.game;
  const mine = !!(g && g.my_turn);
  const returning = mine && g.phase === "return";
  $("#btn-play").disabled = !mine || returning;
  $("#btn-pass").disabled = !mine || returning || !g.can_pass;
  $("#btn-hint").disabled = !mine;
  $("#btn-return").hidden = !(g && g.phase === "return" && g.to_act === 1);
  $("#btn-return").disabled = !returning;
  $("#btn-sort").textContent = `${t("btn.sort")}: ${t("sort." + S.sort).split(" ")[0]}`;
  $("#btn-sort").dataset.mode = S.sort;
  const auto = $("#btn-auto");
  auto.setAttribute("aria-pressed", String(S.auto));
  auto.classList.toggle("on", S.auto);
  auto.textContent = `${t("btn.auto")}: ${S.auto ? t("auto.on") : t("auto.off")}`;
  $("#auto-interval").value = String(S.interval);
  const status = $("#status");
  if (!g) return (status.textContent = "");
  if (g.to_act === null) status.textContent = t("status.over");
  else if (g.phase === "return")
    status.textContent = g.to_act === 1
      ? t("status.return", { to: seatName(returnTarget(g)) })
      : t("status.wait_return", { seat: seatName(g.to_act) });
  else if (g.to_act === 1) status.textContent = g.table ? t("status.your_turn") : t("status.your_lead");
  else status.textContent = t("status.waiting", { seat: seatName(g.to_act) });
  status.classList.toggle("mine", g.to_act === 1);
}

function returnTarget(g) {
  const gift = g.tribute?.gifts.find((x) => x.to === 1);
  return gift ? gift.seat : 0;
}

function renderMessage() {
  const el = $("#message");
  const m = S.message;
  el.textContent = m ? m.text : "";
  el.className = m ? m.kind : "";
  el.setAttribute("role", m && m.kind === "error" ? "alert" : "status");
  const n = S.selected.size;
  $("#selcount").textContent = n ? t("status.selected", { n }) : "";
}

function renderReadings() {
  const el = $("#readings");
  el.innerHTML = "";
  const r = S.readings;
  if (!r || r.legal.length < 2) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const label = document.createElement("span");
  label.textContent = t("readings.choose");
  el.appendChild(label);
  r.legal.forEach((p, i) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "reading" + (i === r.chosen ? " chosen" : "");
    b.dataset.kind = p.kind;
    b.dataset.rank = p.rank ?? "";
    b.setAttribute("aria-pressed", String(i === r.chosen));
    b.textContent = playDesc(p);
    b.addEventListener("click", () => {
      r.chosen = i;
      renderReadings();
    });
    el.appendChild(b);
  });
}

function renderLog() {
  const g = S.game;
  const ol = $("#log-list");
  ol.innerHTML = "";
  const events = g.history;
  if (g.tribute && g.tribute.kind === "exempt") {
    const li = document.createElement("li");
    li.className = "ev exempt";
    li.append(t("tribute.exempt"));
    for (const [seat, n] of Object.entries(g.tribute.exempt_jokers)) {
      if (!n) continue;
      li.append(" " + t("tribute.exempt_holder", { seat: seatName(seat), n }));
      li.appendChild(cardRow(Array(n).fill("BJ"), { tiny: true, t }));
    }
    ol.appendChild(li);
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

function renderResult() {
  const g = S.game;
  const dlg = $("#result");
  const r = g.result || (g.to_act === null && g.results.length ? g.results[g.results.length - 1] : null);
  if (!r || S.view !== "game") {
    dlg.hidden = true;
    return;
  }
  dlg.hidden = false;
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
  h("h3", t("result.levels"));
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
  body.appendChild(tbl);
  const why = [t("result.why.gain" + r.gain)];
  if (r.team_levels_before[r.winner] !== "A" && r.team_levels_after[r.winner] === "A")
    why.push(t("result.why.reached_a", { team: t("team." + r.winner) }));
  if (r.why === "a_not_passed") why.push(t("result.why.a_not_passed"));
  if (r.final_winner && r.a_tries_max && r.a_try)
    why.push(t("result.why.a_passed", { n: r.a_try, max: r.a_tries_max }));
  if (r.why === "a_try_failed") why.push(t("result.why.a_try_failed", { n: r.a_try, max: r.a_tries_max }));
  if (r.why === "a_reset") why.push(t("result.why.a_reset", { n: r.a_try, max: r.a_tries_max, team: t("team." + r.reset) }));
  const w = h("ul", "", "why");
  for (const line of why) {
    const li = document.createElement("li");
    li.textContent = line;
    w.appendChild(li);
  }
  const engineWhy = S.lang === "ko" ? r.why_ko : S.lang === "en" ? r.why_en : "";
  if (engineWhy) h("p", engineWhy, "why-engine");
  h("h3", t("result.players"));
  const pl = document.createElement("ul");
  pl.className = "players";
  for (const seat of [1, 2, 3, 4]) {
    const team = seat % 2 ? "13" : "24";
    const li = document.createElement("li");
    li.dataset.seat = seat;
    li.textContent = `${seatName(seat)}: ${rankLabel(r.team_levels_after[team])}`;
    pl.appendChild(li);
  }
  body.appendChild(pl);
  h("p", r.final_winner ? t("result.again_new") : t("result.again_hint"), "again-hint");
}

// -- start, new game, pages -----------------------------------------------------------------

function renderStart() {
  const has = !!gameId();
  $("#btn-continue").disabled = !has;
  $("#start-note").textContent = has ? t("start.continue_hint") : t("start.none");
}

function showStartError(text) {
  $("#start-note").textContent = text;
  $("#start-note").className = "error";
}

function openNew() {
  const dlg = $("#newgame");
  const list = $("#presets");
  list.innerHTML = "";
  for (const p of ["site", "national", "huaian", "nanjing"]) {
    const lab = document.createElement("label");
    lab.className = "preset";
    lab.innerHTML = `<input type="radio" name="preset" value="${p}"><span class="pname"></span><span class="pdesc"></span>`;
    lab.querySelector("input").checked = p === "site";
    lab.querySelector(".pname").textContent = t(`preset.${p}.name`);
    lab.querySelector(".pdesc").textContent = t(`preset.${p}.desc`);
    list.appendChild(lab);
  }
  $("#new-confirm").hidden = !(S.game && S.game.to_act !== null && gameId());
  dlg.hidden = false;
  $("#btn-new-start").focus();
}

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
    for (const [cards, cap] of sec.ex || []) {
      const fig = document.createElement("figure");
      fig.className = "example";
      const level = (cap.match(/(?:레벨|level|打) ?([2-9TJQKA])/) || [])[1];
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
    for (const p of ["site", "national", "huaian", "nanjing"]) {
      const e = document.createElement("p");
      const b = strong(t(`preset.${p}.name`) + ": ");
      e.append(b, t(`preset.${p}.desc`));
      s.appendChild(e);
    }
    root.appendChild(s);
  }
}

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
    const tbl = document.createElement("table");
    tbl.className = "records";
    const head = document.createElement("tr");
    for (const c of ["hand", "level", "order", "winner", "levels", "why"]) {
      const th = document.createElement("th");
      th.textContent = t("records.col." + c);
      head.appendChild(th);
    }
    tbl.appendChild(head);
    for (const r of data.results) {
      const tr = document.createElement("tr");
      tr.className = "record";
      const cells = [
        String(r.hand),
        rankLabel(r.level),
        r.finish_order.map((s) => seatName(s)).join(" › "),
        t("team.short." + r.winner) + (r.final_winner ? " · " + t("result.final") : ""),
        `13: ${rankLabel(r.team_levels_before["13"])}→${rankLabel(r.team_levels_after["13"])} · 24: ${rankLabel(r.team_levels_before["24"])}→${rankLabel(r.team_levels_after["24"])}`,
        S.lang === "ko" ? r.why_ko : S.lang === "en" ? r.why_en : t("result.why.gain" + r.gain),
      ];
      for (const c of cells) {
        const td = document.createElement("td");
        td.textContent = c;
        tr.appendChild(td);
      }
      tbl.appendChild(tr);
    }
    const wrap = document.createElement("div");
    wrap.className = "table-scroll";
    wrap.appendChild(tbl);
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

// -- wiring ---------------------------------------------------------------------------------

async function setLang(lang) {
  S.lang = lang;
  localStorage.setItem(LS.lang, lang);
  S.cat = lang === "ko" ? S.ko : await loadCatalog(lang);
  await loadFonts(lang);
  refreshFonts();
  $("#lang").value = lang;
  translateStatic();
  go(S.view);
  if (S.game) render();
}

function wire() {
  $("#btn-play").addEventListener("click", onPlay);
  $("#btn-pass").addEventListener("click", onPass);
  $("#btn-hint").addEventListener("click", onHint);
  $("#btn-sort").addEventListener("click", onSort);
  $("#btn-return").addEventListener("click", onReturn);
  $("#btn-auto").addEventListener("click", () => setAuto(!S.auto));
  const sel = $("#auto-interval");
  for (const s of INTERVALS) {
    const o = document.createElement("option");
    o.value = String(s);
    o.textContent = s + "s";
    sel.appendChild(o);
  }
  sel.addEventListener("change", () => {
    S.interval = Number(sel.value);
    localStorage.setItem(LS.interval, sel.value);
    schedule();
  });
  $("#btn-again").addEventListener("click", onAgain);
  $("#btn-continue").addEventListener("click", onContinue);
  for (const b of document.querySelectorAll(".btn-new")) b.addEventListener("click", openNew);
  $("#btn-new-cancel").addEventListener("click", () => ($("#newgame").hidden = true));
  $("#btn-new-start").addEventListener("click", async () => {
    const p = document.querySelector("input[name=preset]:checked")?.value || "site";
    $("#newgame").hidden = true;
    try {
      await newGame(p);
    } catch (e) {
      showMessage(errorText(e), "error");
    }
  });
  $("#btn-log").addEventListener("click", () => $("#log").classList.toggle("open"));
  $("#lang").addEventListener("change", (e) => setLang(e.target.value));
  for (const a of document.querySelectorAll("[data-go]"))
    a.addEventListener("click", (e) => {
      e.preventDefault();
      const v = a.dataset.go;
      if (v === "game" && !S.game) return go("start");
      go(v);
    });
  document.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("select, input, textarea")) return;
    if (S.view !== "game" || !$("#newgame").hidden) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key.toLowerCase();
    if (k === "enter") {
      e.preventDefault();
      if (!$("#result").hidden) onAgain();
      else if (S.game?.phase === "return") onReturn();
      else onPlay();
    } else if (k === "p") onPass();
    else if (k === "h") onHint();
    else if (k === "s") onSort();
    else if (k === "r") onReturn();
    else if (k === "a") setAuto(!S.auto);
    else if (k === "escape") {
      S.selected.clear();
      renderHand();
      updateReadings();
    }
  });
  let rt = null;
  window.addEventListener("resize", () => {
    clearTimeout(rt);
    rt = setTimeout(renderHand, 100);
  });
}

function loadFonts(lang) {
  // The packaged fonts (or local ones): loaded before the text is shown, so that no text is
  // laid out with a font that lacks its glyphs.
  const sample = lang === "zh" ? "掼蛋出牌" : lang === "ko" ? "관단掼蛋" : "掼蛋";
  if (!document.fonts) return Promise.resolve();
  return Promise.race([
    document.fonts.load('16px "GD Sans"', sample).catch(() => {}),
    new Promise((r) => setTimeout(r, 1500)),
  ]);
}

function refreshFonts() {
  // A new family list: Chrome lays out again the text shaped before a font arrived.
  document.documentElement.classList.toggle("fonts-alt");
}

async function main() {
  const fonts = loadFonts(S.lang);
  S.ko = await loadCatalog("ko");
  S.cat = S.lang === "ko" ? S.ko : await loadCatalog(S.lang).catch(() => S.ko);
  await fonts;
  document.documentElement.classList.add("fonts-ready");
  document.documentElement.classList.remove("loading");
  document.fonts?.addEventListener("loadingdone", () => {
    refreshFonts();
    translateStatic();
    go(S.view);
    if (S.game) render();
  });
  wire();
  $("#lang").value = S.lang;
  translateStatic();
  const hash = location.hash.slice(1);
  go(["rules", "intro", "records"].includes(hash) ? hash : "start");
  window.__guandan = S; // for the tests and the curious
}

main();
