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

/** The catalog's string `key` with its {name} filled from `p`. In Korean, {name|이} also writes
 * the particle that fits the name's last sound (이/가, 을/를, 은/는, 과/와, 으로/로, 아/야). */
export function t(key, p = {}) {
  let s = I18N.cat[key];
  if (s === undefined) s = I18N.ko[key];
  if (s === undefined) return key;
  if (typeof s !== "string") return s;
  return s.replace(/\{(\w+)(?:\|([^}]+))?\}/g, (_, k, particle) => {
    const v = p[k] === undefined ? "" : String(p[k]);
    return particle ? withParticle(v, particle) : v;
  });
}

// -- Korean particles -------------------------------------------------------------------------

// How a digit or a Latin letter ends when read in Korean: its final consonant (받침), as the
// index of the jongseong (0: none, 8: ㄹ). 0 영, 1 일, 3 삼, 6 육, 7 칠, 8 팔, 10 십 …
const DIGIT_FINAL = [21, 8, 0, 16, 0, 0, 1, 8, 8, 0];
const LETTER_FINAL = { L: 8, M: 16, N: 4, R: 8 }; // 엘, 엠, 엔, 알; the others end in a vowel
const PAIRS = [["이", "가"], ["을", "를"], ["은", "는"], ["과", "와"], ["으로", "로"], ["아", "야"],
  ["이나", "나"], ["이에요", "예요"]];

/** The final consonant of the word as read aloud (0: none, 8: ㄹ …; null: cannot tell). A part
 * in brackets at the end is not read ("우리 팀 (1·3)" ends in 팀). */
export function finalConsonant(word) {
  let w = String(word).trim();
  for (;;) {
    // Full-width brackets as escapes: never shown, so not in the fonts (tests/web/test_fonts.py).
    const m = w.match(/^(.*\S)\s*[(\uFF08][^()\uFF08\uFF09]*[)\uFF09]$/);
    if (!m) break;
    w = m[1];
  }
  w = w.replace(/[\s.,:;!?'"’”)\]}…·]+$/u, "");
  if (!w) return null;
  if (w.endsWith("10")) return 17; // 십
  const ch = w[w.length - 1];
  const code = ch.charCodeAt(0);
  if (code >= 0xac00 && code <= 0xd7a3) return (code - 0xac00) % 28;
  if (ch >= "0" && ch <= "9") return DIGIT_FINAL[Number(ch)];
  const up = ch.toUpperCase();
  if (up >= "A" && up <= "Z") return LETTER_FINAL[up] ?? 0;
  return null;
}

/** `word` followed by the form of `particle` that fits it: withParticle("동료", "이") is
 * "동료가", withParticle("폭탄", "를") "폭탄을", withParticle("♠7", "으로") "♠7로". "나" with
 * 이/가 is "내가". */
export function withParticle(word, particle) {
  const pair = PAIRS.find((x) => x.includes(particle));
  if (!pair) return word + particle;
  if (pair[0] === "이" && word === "나") return "내가";
  const fin = finalConsonant(word);
  if (fin === null) return word + pair[0]; // unknown ending: the form after a consonant
  if (pair[0] === "으로") return word + (fin === 0 || fin === 8 ? "로" : "으로");
  return word + (fin === 0 ? pair[1] : pair[0]);
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
  // In a room, the people's names (I18N.names, by seat as this page shows it; room.js).
  const name = I18N.names?.[seat];
  return name || t("seat." + seat);
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

/** How a hint or the log names a play: a single by its card ("♠4"), others by rank and kind. */
export function playName(play) {
  if (!play) return "";
  if (play.kind === "single") return cardText(play.cards[0]);
  if (play.kind === "joker_bomb") return t("kind.joker_bomb");
  const rank = play.rank === "BJ" || play.rank === "LJ" ? t("card." + play.rank) : rankLabel(play.rank);
  if (play.kind === "bomb") return t("play.bomb", { rank, n: play.cards.length });
  return t("play.name", { kind: t("kind." + play.kind), rank });
}

/** A player's reason (the hint's `why`: a code and its values) as the page's sentence. */
export function reasonText(why) {
  const p = { ...why.params };
  if (p.play) p.play = playName(p.play);
  if (p.table) p.table = playName(p.table);
  if (p.other) p.other = playName(p.other);
  if (p.card) p.card = cardText(p.card);
  if (Array.isArray(p.cards)) p.cards = p.cards.map(cardText).join(" ");
  let code = why.code;
  if (code === "search_better" && !why.params.play) code = "search_better_pass";
  const key = "hint.why." + code;
  const s = t(key, p);
  return s === key ? "" : s;
}

/** The figures behind a reason (the search's samples and win share), or a note that the
 * choice follows the rules of thumb. */
export function reasonFigures(why) {
  const p = why?.params || {};
  return p.samples ? t("hint.figures", p) : t("hint.no_figures");
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
