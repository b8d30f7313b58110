// The person's controls: selecting cards, play / pass / return / hint / sort, auto-play and
// its interval, the keyboard; the message line beside the hand (refusals, hints) and the
// chooser between the readings of the selection when it can be played in several ways.

import { $ } from "./dom.js";
import { I18N, t, errorText, playDesc, reasonFigures, reasonText, seatName } from "./i18n.js";
import { renderHand, selectCards, selectedCards } from "./hand.js";
import { INTERVALS, LS, PACES, S, act, ask, nextHand, schedule, showMessage } from "./state.js";
import { renderTable } from "./table.js";
import { onReturn, returnTarget } from "./tribute.js";

export function renderControls() {
  const g = S.game;
  const mine = !!(g && g.my_turn);
  const returning = mine && g.phase === "return";
  $("#btn-play").disabled = !mine || returning;
  $("#btn-pass").disabled = !mine || returning || !g.can_pass;
  $("#btn-hint").disabled = !mine;
  $("#btn-return").hidden = !(g && g.phase === "return" && g.to_act === 1 && !g.result);
  $("#btn-return").disabled = !returning;
  $("#btn-sort").textContent = `${t("btn.sort")}: ${t("sort." + S.sort).split(" ")[0]}`;
  $("#btn-sort").dataset.mode = S.sort;
  const auto = $("#btn-auto");
  auto.setAttribute("aria-pressed", String(S.auto));
  auto.classList.toggle("on", S.auto);
  auto.textContent = `${t("btn.auto")}: ${S.auto ? t("auto.on") : t("auto.off")}`;
  const interval = $("#auto-interval");
  for (const o of interval.options) {
    const label = t("auto.seconds", { n: o.value });
    if (o.textContent !== label) o.textContent = label;
  }
  interval.value = String(S.interval);
  const pace = $("#ai-pace");
  for (const o of pace.options) {
    const label = t("pace." + o.value);
    if (o.textContent !== label) o.textContent = label;
  }
  pace.value = S.pace;
  for (const [id, on] of [["#btn-sound", S.sound], ["#btn-counter", S.counter]]) {
    const b = $(id);
    b.setAttribute("aria-pressed", String(on));
    b.classList.toggle("on", on);
    b.textContent = `${t(b.dataset.label)}: ${on ? t("auto.on") : t("auto.off")}`;
  }
  const status = $("#status");
  if (!g) return (status.textContent = "");
  if (g.result) status.textContent = t("result.title", { n: g.result.hand });
  else if (g.to_act === null) status.textContent = t("status.over");
  else if (g.phase === "return")
    status.textContent = g.to_act === 1
      ? t("status.return", { to: seatName(returnTarget(g)) })
      : t("status.wait_return", { seat: seatName(g.to_act) });
  else if (g.to_act === 1) status.textContent = g.table ? t("status.your_turn") : t("status.your_lead");
  else status.textContent = t("status.waiting", { seat: seatName(g.to_act) });
  status.classList.toggle("mine", g.to_act === 1);
}

export function renderMessage() {
  const el = $("#message");
  const m = S.message;
  el.innerHTML = "";
  const text = document.createElement("span");
  text.className = "msg-text";
  text.textContent = m ? m.make() : "";
  el.appendChild(text);
  if (m && m.more) {
    // The figures behind a hint: one click away, in a box over the table.
    const b = document.createElement("button");
    b.type = "button";
    b.className = "msg-more";
    b.id = "btn-more";
    b.setAttribute("aria-expanded", String(!!m.open));
    b.textContent = m.open ? t("hint.less") : t("hint.more");
    b.addEventListener("click", () => {
      m.open = !m.open;
      renderMessage();
    });
    el.appendChild(b);
    if (m.open) {
      const box = document.createElement("div");
      box.className = "msg-figures";
      box.id = "hint-figures";
      box.textContent = m.more();
      el.appendChild(box);
    }
  }
  el.className = m ? m.kind : "";
  el.setAttribute("role", m && m.kind === "error" ? "alert" : "status");
  const n = S.selected.size;
  $("#selcount").textContent = n ? t("status.selected", { n }) : "";
}

// -- selection and readings -----------------------------------------------------------------

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
        const r = await ask("readings", { cards });
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

export function renderReadings() {
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

// -- actions --------------------------------------------------------------------------------

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

async function onHint() {
  const g = S.game;
  if (!g) return;
  try {
    const h = await ask("hint");
    selectCards(h.cards);
    // One sentence in the page's words (made again after a language switch); the player's
    // own words only when it gives no reason code.
    const said = () => (h.why && reasonText(h.why)) || h.reason[I18N.lang] || h.reason.en;
    showMessage(() => `${t("hint.label")} · ${said()}`, "hint", () => reasonFigures(h.why));
    S.readings = null;
    renderHand();
    renderMessage();
    if (h.kind === "play") await updateReadings(h.play);
  } catch (e) {
    showMessage(() => errorText(e), "error");
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

function toggleSetting(name) {
  S[name] = !S[name];
  localStorage.setItem(LS[name], S[name] ? "on" : "off");
  renderControls();
  if (name === "counter" && S.game) renderTable();
}

// -- wiring ---------------------------------------------------------------------------------

export function wireControls() {
  const hand = $("#hand");
  hand.addEventListener("click", (e) => {
    const card = e.target.closest(".card");
    if (card) toggle(card.dataset.key);
  });
  hand.addEventListener("keydown", (ev) => {
    const card = ev.target.closest(".card");
    if (!card || ev.key !== " ") return;
    ev.preventDefault();
    ev.stopPropagation();
    const key = card.dataset.key;
    toggle(key);
    document.querySelector(`#hand .card[data-key="${key}"]`)?.focus();
  });
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
    o.textContent = t("auto.seconds", { n: s });
    sel.appendChild(o);
  }
  sel.addEventListener("change", () => {
    S.interval = Number(sel.value);
    localStorage.setItem(LS.interval, sel.value);
    schedule();
  });
  const pace = $("#ai-pace");
  for (const p of Object.keys(PACES)) {
    const o = document.createElement("option");
    o.value = p;
    o.textContent = t("pace." + p);
    pace.appendChild(o);
  }
  pace.addEventListener("change", () => {
    S.pace = pace.value;
    localStorage.setItem(LS.pace, pace.value);
    schedule();
  });
  $("#btn-sound").addEventListener("click", () => toggleSetting("sound"));
  $("#btn-counter").addEventListener("click", () => toggleSetting("counter"));
  const settings = $("#settings");
  $("#btn-settings").addEventListener("click", (e) => {
    e.stopPropagation();
    settings.hidden = !settings.hidden;
    $("#btn-settings").setAttribute("aria-expanded", String(!settings.hidden));
  });
  document.addEventListener("click", (e) => {
    if (!settings.hidden && !e.target.closest("#settings, #btn-settings")) {
      settings.hidden = true;
      $("#btn-settings").setAttribute("aria-expanded", "false");
    }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !settings.hidden) {
      settings.hidden = true;
      $("#btn-settings").setAttribute("aria-expanded", "false");
      return;
    }
    if (e.target.closest && e.target.closest("select, input, textarea")) return;
    if (S.view !== "game" || !$("#newgame").hidden) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key.toLowerCase();
    if (k === "enter") {
      e.preventDefault();
      if (!$("#result").hidden) {
        S.resultFolded = false;
        nextHand();
      }
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
