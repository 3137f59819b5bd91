// Your hand's layout and the card-size setting (small, normal, large; kept in localStorage
// and applied at once, to the cards on the felt as well: style.css, html[data-cards]). The hand always fits its row: cards overlap, shrink and wrap into
// up to three rows; large cards overlap more before they shrink. Each card's left part
// stays in view — its rank corner and its shortcut badge (style.css).

import { el, load, save } from "./dom.js";
import { t } from "./i18n.js";

/** The widest a card of the hand gets at each size, in CSS pixels. */
export const CARD_SIZES = { small: 70, normal: 100, large: 130 };
const MIN_CARD = 50; // narrower than this, the cards wrap into another row (up to three)
const SHOWN = 0.6; // the part of a card not covered by the next one
const SHOWN_LEAST = 0.34; // large cards overlap down to this, still showing corner and badge

/** The card-size setting: "small", "normal" or "large". */
export function cardSize() {
  const saved = load("cards");
  return Object.hasOwn(CARD_SIZES, saved ?? "") ? saved : "normal";
}

/** A card's width and the part of it that shows, for n cards in a row `width` pixels wide. */
export function handLayout(n, width, size = cardSize(), height = Infinity) {
  // On a phone a small or normal card is at most a sixth of the window's height, leaving
  // the round its room; large cards stay large.
  const most = Math.min(CARD_SIZES[size] ?? CARD_SIZES.normal, size === "large" ? Infinity : height / 6 / 1.4);
  let perRow = n;
  let cw = 0;
  for (let rows = 1; rows <= 3; rows++) {
    perRow = Math.ceil(n / rows);
    cw = width / (1 + (perRow - 1) * SHOWN);
    if (cw >= MIN_CARD) break;
  }
  let shown = SHOWN;
  if (size === "large" && perRow > 1 && cw < most) {
    cw = Math.min(most, width / (1 + (perRow - 1) * SHOWN_LEAST));
    shown = Math.min(SHOWN, (width - cw) / ((perRow - 1) * cw));
  }
  return { cw: Math.floor(Math.min(cw, most) * 0.995), shown };
}

/** Lay out the hand element (its data-count cards) at the chosen size; the cards on the
 *  felt (trick, pile, stock, turn-up) follow the same setting through html[data-cards]. */
export function layoutHand(hand) {
  const size = cardSize();
  document.documentElement.dataset.cards = size;
  if (!hand || hand.offsetParent === null) return;
  const phone = Math.min(window.innerWidth, window.innerHeight) < 600;
  const { cw, shown } = handLayout(Math.max(1, Number(hand.dataset.count) || 1), hand.clientWidth - 8, size,
    phone ? window.innerHeight : Infinity);
  hand.style.setProperty("--cw", `${cw}px`);
  hand.style.setProperty("--overlap", (1 - shown).toFixed(3));
  hand.dataset.size = size;
  stackRightToLeft(hand);
}

/** A hand laid right to left (Persian): each card lies under the one before it in its row,
 *  so that its rank corner (top left) shows, and each row over the one above it, so that a
 *  raised card's corner is not under the row above (--z, style.css). */
function stackRightToLeft(hand) {
  if (getComputedStyle(hand).direction !== "rtl") return;
  const cards = [...hand.querySelectorAll("button.hcard")];
  let row = 0;
  let top = null;
  cards.forEach((card, k) => {
    if (top !== null && card.offsetTop > top + 4) row += 1;
    top = card.offsetTop;
    card.style.setProperty("--z", String(row * 100 + cards.length - k));
  });
}

/** How the hand is sorted: "suit" (your trumps at one end) or "rank" (the ace down); kept. */
export const handOrder = () => (load("handorder") === "rank" ? "rank" : "suit");

/** The hand-order control of the settings panel. */
export function handOrderControl(onChange) {
  const box = el("select", {
    id: "hand-order", testid: "hand-order",
    onchange: (e) => { save("handorder", e.target.value === "rank" ? "rank" : null); onChange?.(); },
  }, [["suit", t("by suit, trumps at the end")], ["rank", t("by rank")]].map(([v, label]) =>
    el("option", { value: v }, label)));
  box.value = handOrder();
  return el("span", { class: "inline anim-setting" }, el("label", { for: "hand-order" }, t("Sort the hand")), box);
}

/** The card-size control for the table's tools, beside the animation speed. */
export function cardSizeControl(onChange) {
  const box = el("select", {
    id: "card-size", testid: "card-size",
    onchange: (e) => { save("cards", Object.hasOwn(CARD_SIZES, e.target.value) ? e.target.value : null); onChange?.(); },
  }, [["small", t("small cards")], ["normal", t("normal cards")], ["large", t("large cards")]].map(([v, label]) =>
    el("option", { value: v }, label)));
  box.value = cardSize();
  return el("span", { class: "inline anim-setting" }, el("label", { for: "card-size" }, t("Card size")), box);
}

/** At each table: the hand last drawn, and the cards still arriving in it (their order and
 *  when they came). The hand is drawn again at every event: an arriving card goes on from
 *  where it was (a negative delay), not from the start. */
const drawn = new WeakMap();
const STEP_MS = { normal: 45, fast: 20 }; // between one card and the next
const MOVE_MS = { normal: 340, fast: 180 }; // one card's way

/** Cards that came into the hand since it was last drawn (a deal, a pick-up, the robbed
 *  turn-up) arrive from the table one after another (style.css: .arrive); not at a table's
 *  first drawing (a reload shows the hand as it is), nor with the animations off (the
 *  setting, or reduced motion). */
export function markArrivals(handNode, tb, hand) {
  const buttons = [...handNode.querySelectorAll("button.hcard[data-card]")];
  const speed = document.documentElement.dataset.anim;
  const now = performance.now();
  const last = drawn.get(tb);
  const arriving = last?.arriving ?? new Map();
  if (last) {
    let order = 0;
    for (const b of buttons) if (!last.cards.has(b.dataset.card)) arriving.set(b.dataset.card, { order: order++, at: now });
  }
  drawn.set(tb, { cards: new Set(hand), arriving });
  if (!Object.hasOwn(STEP_MS, speed ?? "")) return arriving.clear();
  for (const b of buttons) {
    const a = arriving.get(b.dataset.card);
    if (!a) continue;
    const delay = a.order * STEP_MS[speed] - (now - a.at);
    if (delay + MOVE_MS[speed] <= 0) {
      arriving.delete(b.dataset.card);
      continue;
    }
    b.classList.add("arrive");
    b.style.setProperty("--i", String(a.order));
    b.style.animationDelay = `${Math.round(delay)}ms`;
    b.style.animationDuration = `${MOVE_MS[speed]}ms`;
  }
}
