// The tribute between two hands: the gifts (chosen by the engine), the exemption (the givers'
// big jokers shown), and the return of a card by the person when they received a gift.

import { cardRow } from "./cards.js";
import { t, seatName } from "./i18n.js";
import { selectedCards } from "./hand.js";
import { S, act, showMessage } from "./state.js";

/** The tribute in the centre of the table, until the first play of the hand. */
export function tributeBox(tr) {
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

/** The exemption as the first entry of the hand's log. */
export function exemptionLogItem(tr) {
  const li = document.createElement("li");
  li.className = "ev exempt";
  li.append(t("tribute.exempt"));
  for (const [seat, n] of Object.entries(tr.exempt_jokers)) {
    if (!n) continue;
    li.append(" " + t("tribute.exempt_holder", { seat: seatName(seat), n }));
    li.appendChild(cardRow(Array(n).fill("BJ"), { tiny: true, t }));
  }
  return li;
}

/** Who gave seat 1 its gift: the seat it returns a card to. */
export function returnTarget(g) {
  const gift = g.tribute?.gifts.find((x) => x.to === 1);
  return gift ? gift.seat : 0;
}

export function onReturn() {
  const cards = selectedCards();
  if (cards.length !== 1) return showMessage(() => t("err.select_one_return"), "error");
  act("return", { card: cards[0] });
}
