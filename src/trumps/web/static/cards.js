// Cards as pictures (Adrian Kennard's CC0 SVG deck, see cards/LICENSE.md) and as short text.
//
// The two-colour deck is the default; the four-colour one (spades black, hearts red,
// diamonds blue, clubs green) helps colour-blind players and is a setting kept in
// localStorage. Card codes are those of docs/actions.md: rank AKQJT98765432 then suit SHDC, or JK.

import { bdi, el, load, save } from "./dom.js";
import { cardName, num, rankMark, suitName, t } from "./i18n.js";

const SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RANKS = "AKQJT98765432";
const SUIT_ORDER = "SHCD"; // alternate colours in a sorted hand

let fourColor = load("deck") === "4color";

export const isCard = (s) => typeof s === "string" && (s === "JK" || /^[AKQJT98765432][SHDC]$/.test(s));
export const deck4 = () => fourColor;

export function setDeck4(on) {
  fourColor = !!on;
  save("deck", fourColor ? "4color" : "2color");
  document.documentElement.classList.toggle("deck-4", fourColor);
}
setDeck4(fourColor);

// Relative to this module, so the files come from the same (versioned, cached) place.
const asset = (path) => new URL(path, import.meta.url).pathname;
const src = (code) => asset(`./cards/${fourColor ? "4color" : "2color"}/${code}.svg`);

/** The picture of a card, or of a card's back when code is null. Decorative: the element
 *  around it carries the spoken name. */
export function cardImage(code) {
  return el("img", {
    class: "card-img", src: code ? src(code) : asset("./cards/back.svg"), alt: "", draggable: "false",
    // The pictures' own size (viewBox 240×336): the card holds its shape before it loads.
    width: "240", height: "336",
  });
}

/** A face-up card that is not a button (pile, trick, known cards), labelled for screen
 *  readers and with a tooltip. */
export function cardFace(code, cls = "") {
  return el("span", { class: `card ${cls}`.trim(), role: "img", "aria-label": cardName(code), title: cardName(code),
    "data-card": code }, cardImage(code));
}

export const cardBack = (cls = "") => el("span", { class: `card back ${cls}`.trim(), "aria-hidden": "true" }, cardImage(null));

/** A suit symbol coloured like the deck, named for screen readers. */
export function suitSymbol(suit) {
  return el("span", { class: `suit suit-${suit}`, role: "img", "aria-label": suitName(suit), title: suitName(suit) },
    SYMBOLS[suit] ?? "?");
}

/** Short text for a card inside a sentence: "10♥", "Q♠" in a <bdi>, coloured by suit; the
 *  rank in the page's digits or its letter as the language writes it (a word in Persian,
 *  with a narrow space before the symbol). */
export function cardText(code) {
  if (code === "JK") return bdi(t("Joker"), "card-text joker");
  const rank = code[0] === "T" ? num(10) : /[0-9]/.test(code[0]) ? num(code[0]) : rankMark(code[0]);
  const gap = rank.length > 1 && !/[0-9۰-۹]/.test(rank) ? "\u202f" : ""; // a word, not a letter or a number
  const node = bdi(`${rank}${gap}${SYMBOLS[code[1]]}`, `card-text suit-${code[1]}`);
  node.title = cardName(code);
  return node;
}

/** A hand in display order: by suit (a given suit last, e.g. your trumps), then rank; or,
 *  `byRank`, by rank from the ace down (the joker first), suits in the same order. */
export function sortHand(cards, lastSuit = null, byRank = false) {
  const suitKey = (c) => (c === "JK" ? 9 : c[1] === lastSuit ? 8 : SUIT_ORDER.indexOf(c[1]));
  const rankKey = (c) => (c === "JK" ? -1 : RANKS.length - RANKS.indexOf(c[0]));
  const high = (c) => (c === "JK" ? -1 : RANKS.indexOf(c[0]));
  return [...cards].sort(byRank
    ? (a, b) => high(a) - high(b) || suitKey(a) - suitKey(b)
    : (a, b) => suitKey(a) - suitKey(b) || rankKey(a) - rankKey(b));
}
