// The page's words: the catalogs (catalogs/{ko,zh,en}.json, served by /api/catalogs), t(), and
// how seats, cards, plays and refusals are said. Korean is the fallback for a missing key.
// Also the fonts a language needs, loaded before its text is shown.

import { SUIT, rankLabel } from "./cards.js";

const LANG_KEY = "guandan.lang";

/** lang: the page's language; cat: its catalog; ko: the Korean catalog (the fallback). */
export const I18N = { lang: localStorage.getItem(LANG_KEY) || "ko", cat: {}, ko: {} };

async function loadCatalog(lang) {
  const r = await fetch(`/api/catalogs/${lang}`);
  return r.json();
}

/** The first load: the Korean catalog, and the saved language's if it is another. */
export async function loadCatalogs() {
  I18N.ko = await loadCatalog("ko");
  I18N.cat = I18N.lang === "ko" ? I18N.ko : await loadCatalog(I18N.lang).catch(() => I18N.ko);
}

/** Switch to `lang` (remembered in localStorage) once its catalog is here. */
export async function useLanguage(lang) {
  I18N.lang = lang;
  localStorage.setItem(LANG_KEY, lang);
  I18N.cat = lang === "ko" ? I18N.ko : await loadCatalog(lang);
}

export function t(key, p = {}) {
  let s = I18N.cat[key];
  if (s === undefined) s = I18N.ko[key];
  if (s === undefined) return key;
  if (typeof s !== "string") return s;
  return s.replace(/\{(\w+)\}/g, (_, k) => (p[k] === undefined ? "" : String(p[k])));
}

/** The page's fixed texts: data-i18n (text), data-i18n-title, data-i18n-aria-label. */
export function translateStatic(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
  for (const el of root.querySelectorAll("[data-i18n-aria-label]"))
    el.setAttribute("aria-label", t(el.dataset.i18nAriaLabel));
  document.documentElement.lang = I18N.lang;
  document.title = t("app.title") + " · Guandan";
}

// -- the game's things in words -------------------------------------------------------------

export function seatName(seat) {
  return t("seat." + seat);
}

export function cardText(n) {
  if (n === "BJ" || n === "LJ") return t("card." + n);
  return SUIT[n[0]] + rankLabel(n.slice(1));
}

export function playDesc(play) {
  if (!play) return "";
  let kind = t("kind." + play.kind, { n: play.cards.length });
  if (play.kind === "joker_bomb") return kind;
  let rank = play.rank;
  if (rank === "BJ" || rank === "LJ") rank = t("card." + rank);
  else rank = rankLabel(rank);
  return t("play.desc", { kind, rank });
}

/** A refusal of the server (an ApiError: code, params) in the page's language. */
export function errorText(e) {
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

// -- fonts ----------------------------------------------------------------------------------

export function loadFonts(lang) {
  // The packaged fonts (or local ones): loaded before the text is shown, so that no text is
  // laid out with a font that lacks its glyphs.
  const sample = lang === "zh" ? "掼蛋出牌" : lang === "ko" ? "관단掼蛋" : "掼蛋";
  if (!document.fonts) return Promise.resolve();
  return Promise.race([
    document.fonts.load('16px "GD Sans"', sample).catch(() => {}),
    new Promise((r) => setTimeout(r, 1500)),
  ]);
}

export function refreshFonts() {
  // A new family list: Chrome lays out again the text shaped before a font arrived.
  document.documentElement.classList.toggle("fonts-alt");
}
