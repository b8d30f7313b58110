// The person's cards: their order (by strength, or in groups like the clients players know,
// 理牌: a column per rank, bombs and straight flushes together), which are selected, the
// tribute card received, and how they are laid out in the width of the screen. Clicks on them
// are wired by controls.js.

import { cardEl } from "./cards.js";
import { $ } from "./dom.js";
import { t } from "./i18n.js";
import { S } from "./state.js";

function handKeys(hand) {
  const seen = {};
  return hand.map((card) => {
    seen[card] = (seen[card] || 0) + 1;
    return { card, key: `${card}#${seen[card] - 1}` };
  });
}

/** The cards shown in the hand: with a result shown, what seat 1 held when the hand ended. */
function shownHand(g) {
  if (g.result && g.ended) return { hand: g.ended.remaining["1"] || [], groups: null, ended: true };
  return { hand: g.hand, groups: g.hand_groups, ended: false };
}

/** The hand as shown: [{card, key, group}], in the chosen sort. */
export function handOrder() {
  const g = S.game;
  if (!g) return [];
  const { hand, groups } = shownHand(g);
  const keyed = handKeys(hand); // keys follow the strength order, whatever is shown
  if (S.sort === "strength" || !groups) return keyed.map((k) => ({ ...k, group: 0 }));
  const pool = {};
  for (const k of keyed) (pool[k.card] ||= []).push(k);
  const out = [];
  groups.forEach((grp, gi) => {
    for (const c of grp) {
      const k = pool[c].shift();
      out.push({ ...k, group: gi });
    }
  });
  return out;
}

/** The selected cards in the order of the hand. */
export function selectedCards() {
  return handOrder().filter((c) => S.selected.has(c.key)).map((c) => c.card);
}

/** Select exactly these cards (notations; a card held twice is selected as often as named). */
export function selectCards(cards) {
  S.selected.clear();
  const order = handOrder();
  const used = new Set();
  for (const n of cards) {
    const c = order.find((x) => x.card === n && !used.has(x.key));
    if (c) {
      used.add(c.key);
      S.selected.add(c.key);
    }
  }
}

/** The cards seat 1 received in this hand's tribute (a gift, or the card returned to it). */
function receivedCards(g) {
  const tr = g.tribute;
  if (!tr || g.result) return [];
  return [...tr.gifts, ...tr.returns].filter((e) => e.to === 1 && e.card).map((e) => e.card);
}

function handWidth() {
  return Math.max(200, $("#hand-wrap").clientWidth - 8);
}

function cardWidth(W) {
  return W < 560 ? 44 : W < 900 ? 58 : 66;
}

/** Strength order: one or more rows of overlapping cards. */
function layoutRows(n) {
  const W = handWidth();
  const cw = cardWidth(W);
  const minStep = W < 560 ? 23 : 30;
  const maxStep = Math.round(cw * 0.62);
  let per = n;
  let stepW = maxStep;
  for (let rows = 1; rows <= 4; rows++) {
    per = Math.ceil(n / rows);
    stepW = per > 1 ? Math.min(maxStep, Math.floor((W - cw) / (per - 1))) : maxStep;
    if (stepW >= minStep) break;
  }
  return { cw, step: Math.max(stepW, minStep), per };
}

/** Groups: a column per group, columns side by side; a column is never split, and the
 * columns take a second row only when one row cannot hold them. */
function layoutColumns(groups) {
  const W = handWidth();
  const cw = cardWidth(W);
  const gap = 4;
  const minStep = W < 560 ? 22 : 28;
  let rows = 1;
  let stepX = cw + gap;
  for (; rows <= 3; rows++) {
    const per = Math.ceil(groups.length / rows);
    stepX = per > 1 ? Math.min(cw + gap, Math.floor((W - cw) / (per - 1))) : cw + gap;
    if (stepX >= minStep) break;
  }
  const tallest = Math.max(...groups.map((x) => x.length));
  const ch = Math.round(cw * 1.4);
  const maxCol = W < 560 ? 150 : 190; // the tallest column, in px
  const stepY = tallest > 1 ? Math.max(14, Math.min(Math.round(cw * 0.4), Math.floor((maxCol - ch) / (tallest - 1)))) : 0;
  return { cw, stepX, stepY, rows: Math.min(rows, 3) };
}

function cardFor(c, g, received, returning, returnable) {
  const e = cardEl(c.card, { wild: g.wild, key: c.key, t });
  e.setAttribute("role", "button");
  e.tabIndex = 0;
  const sel = S.selected.has(c.key);
  if (sel) e.classList.add("selected");
  e.setAttribute("aria-pressed", String(sel));
  if (returning) e.classList.add(returnable.has(c.card) ? "returnable" : "dim");
  const i = received.indexOf(c.card);
  if (i >= 0) {
    received.splice(i, 1);
    e.classList.add("received");
    e.title = t("hand.received");
  }
  return e;
}

export function renderHand() {
  const g = S.game;
  const el = $("#hand");
  el.innerHTML = "";
  el.className = "hand";
  el.removeAttribute("style");
  if (!g) return;
  const order = handOrder();
  const returning = g.phase === "return" && g.my_turn;
  const returnable = new Set(g.returnable);
  const received = receivedCards(g);
  const { ended } = shownHand(g);
  el.classList.toggle("ended", ended);
  if (S.sort === "groups" && !ended && order.length) {
    const groups = [];
    for (const c of order) (groups[c.group] ||= []).push(c);
    const cols = groups.filter(Boolean);
    const { cw, stepX, stepY, rows } = layoutColumns(cols.map((x) => x));
    el.classList.add("columns");
    el.style.setProperty("--cw", cw + "px");
    el.style.setProperty("--sx", stepX + "px");
    el.style.setProperty("--sy", stepY + "px");
    const per = Math.ceil(cols.length / rows);
    for (let r = 0; r < rows; r++) {
      const row = document.createElement("div");
      row.className = "col-row";
      for (const grp of cols.slice(r * per, (r + 1) * per)) {
        const col = document.createElement("div");
        col.className = "col";
        col.dataset.group = grp[0].group;
        for (const c of grp) col.appendChild(cardFor(c, g, received, returning, returnable));
        row.appendChild(col);
      }
      el.appendChild(row);
    }
    return;
  }
  const { cw, step, per } = layoutRows(order.length);
  el.style.setProperty("--cw", cw + "px");
  el.style.setProperty("--step", step + "px");
  el.style.width = Math.max(per, 1) * step + "px";
  el.style.paddingRight = cw - step + "px";
  for (const c of order) el.appendChild(cardFor(c, g, received, returning, returnable));
}
