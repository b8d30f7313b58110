// Card faces drawn with HTML/CSS: rank and suit, red and black, two distinct jokers, the wild
// hearts marked. Every card element carries its notation as data-card ("H7", "BJ"). The words
// on a face come from the catalogs, through the translate function every caller passes.

export const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = new Set(["H", "D"]);

export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

/** A card element. opts: {wild: "H7", small: bool, key: string, t: translate fn (required)} */
export function cardEl(notation, opts) {
  const { t } = opts;
  const el = document.createElement("div");
  el.className = "card";
  el.dataset.card = notation;
  if (opts.key) el.dataset.key = opts.key;
  if (opts.small) el.classList.add("small");
  if (notation === "BJ" || notation === "LJ") {
    el.classList.add("joker", notation === "BJ" ? "big" : "little");
    el.setAttribute("aria-label", t("card." + notation));
    el.innerHTML = '<span class="c-corner"></span><span class="c-mid"></span>';
    el.querySelector(".c-corner").textContent = t("card.face.joker");
    el.querySelector(".c-mid").textContent = t("card.face.joker_mid");
    return el;
  }
  const suit = notation[0];
  const rank = rankLabel(notation.slice(1));
  el.classList.add(RED.has(suit) ? "red" : "black");
  el.setAttribute("aria-label", SUIT[suit] + rank);
  el.innerHTML =
    '<span class="c-corner"><b></b><i></i></span><span class="c-mid"></span>';
  el.querySelector(".c-corner b").textContent = rank;
  el.querySelector(".c-corner i").textContent = SUIT[suit];
  el.querySelector(".c-mid").textContent = SUIT[suit];
  if (opts.wild && notation === opts.wild) {
    el.classList.add("wild");
    const w = document.createElement("span");
    w.className = "c-wild";
    w.textContent = t("card.face.wild");
    w.title = t("card.wild");
    el.appendChild(w);
  }
  return el;
}

/** A row of small cards for plays on the table, the log and the rules pages. */
export function cardRow(notations, opts) {
  const row = document.createElement("div");
  row.className = "card-row" + (opts.tiny ? " tiny" : "");
  for (const n of notations) row.appendChild(cardEl(n, { ...opts, small: true }));
  return row;
}
