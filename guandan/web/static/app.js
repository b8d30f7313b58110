// 관단 web game: the page. It shows what the server sends (what seat 1 may see) and sends the
// person's actions; every rule is decided by the engine on the server. This module wires the
// others together:
//
//   state.js     page state, the API calls, the game flow and pace, the saved game id
//   i18n.js      catalogs, t(), how seats, cards, plays and refusals are said; fonts
//   cards.js     card faces (HTML/CSS)
//   dom.js       two DOM helpers
//   table.js     levels, seats, the play to beat, passes, this hand's log
//   hand.js      the person's cards: order, selection, layout
//   controls.js  play / pass / hint / sort / auto-play, keyboard, message line, readings chooser
//   tribute.js   gifts, exemption, returning a card
//   result.js    the result screen after a hand
//   pages.js     which view is shown; start screen, new game, rules, intro, records
//   replay.js    the replay of a finished hand, every hand open
//   fx.js        motion of plays and tribute cards, sounds (WebAudio, off by default)
//   outside.js   seats left to outside programs: their addresses, waiting, news

import { $ } from "./dom.js";
import { renderControls, renderMessage, renderReadings, wireControls } from "./controls.js";
import { renderHand } from "./hand.js";
import {
  I18N, errorText, loadCatalogs, loadFonts, refreshFonts, translateStatic, useLanguage,
} from "./i18n.js";
import { go, newGame, onContinue, openNew } from "./pages.js";
import { onEvent, onGame, unlockSound } from "./fx.js";
import { renderOutside } from "./outside.js";
import { renderResult } from "./result.js";
import { S, nextHand, showMessage, subscribe } from "./state.js";
import { renderTable } from "./table.js";

function render() {
  if (!S.game) return;
  renderTable();
  renderHand();
  renderControls();
  renderMessage();
  renderReadings();
  renderResult();
  renderOutside();
}

async function setLang(lang) {
  await useLanguage(lang);
  await loadFonts(lang);
  refreshFonts();
  $("#lang").value = lang;
  translateStatic();
  go(S.view);
  if (S.game) render();
  renderMessage(); // a message shown before is said again in the new language
}

function wire() {
  wireControls();
  $("#btn-again").addEventListener("click", () => {
    S.resultFolded = false;
    nextHand();
  });
  $("#btn-result-view").addEventListener("click", () => {
    S.resultFolded = !S.resultFolded;
    renderResult();
  });
  $("#btn-sound").addEventListener("click", unlockSound);
  $("#btn-continue").addEventListener("click", onContinue);
  for (const b of document.querySelectorAll(".btn-new")) b.addEventListener("click", openNew);
  $("#btn-new-cancel").addEventListener("click", () => ($("#newgame").hidden = true));
  $("#btn-new-start").addEventListener("click", async () => {
    const p = document.querySelector("input[name=preset]:checked")?.value || "site";
    const d = document.querySelector("input[name=difficulty]:checked")?.value;
    const outside = [...document.querySelectorAll("input[name=outside]:checked")].map((x) => Number(x.value));
    $("#newgame").hidden = true;
    try {
      await newGame(p, d, outside);
    } catch (e) {
      showMessage(() => errorText(e), "error");
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
}

async function main() {
  const fonts = loadFonts(I18N.lang);
  await loadCatalogs();
  await fonts;
  document.documentElement.classList.add("fonts-ready");
  document.documentElement.classList.remove("loading");
  document.fonts?.addEventListener("loadingdone", () => {
    refreshFonts();
    translateStatic();
    go(S.view);
    if (S.game) render();
  });
  subscribe("game", render);
  subscribe("game", onGame);
  subscribe("event", onEvent);
  subscribe("message", renderMessage);
  wire();
  $("#lang").value = I18N.lang;
  translateStatic();
  const hash = location.hash.slice(1);
  go(["rules", "intro", "records"].includes(hash) ? hash : "start");
  window.__guandan = S; // for the tests and the curious
}

main();
