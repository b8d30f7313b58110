// The person's cards: their order (by strength, or in groups of combinations), which are
// selected, and how they are laid out in the width of the screen. Clicks on them are wired by
// controls.js.

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

/** The hand as shown: [{card, key, group}], in the chosen sort. */
export function handOrder() {
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

export function renderHand() {
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
    el.appendChild(e);
  });
}
