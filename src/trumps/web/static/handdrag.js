// Arranging your own hand: drag a card (mouse, pen or finger) to another place in the hand.
// The arrangement is the player's, on top of the sorting setting (by suit or by rank): cards
// that arrive later (a pick-up, a new deal) go where the sorting would put them, next to the
// card they follow. A drag is a drag and never plays the card; a tap or click still does.

/** `sorted` (the hand as the setting sorts it) in the order `arranged` gives, the cards it
 *  does not name each put right after the card before it in `sorted`. */
export function arrange(sorted, arranged) {
  if (!arranged?.length) return sorted;
  const have = new Set(sorted);
  const out = arranged.filter((c) => have.has(c));
  const placed = new Set(out);
  let before = null;
  for (const c of sorted) {
    if (!placed.has(c)) {
      out.splice(before === null ? 0 : out.indexOf(before) + 1, 0, c);
      placed.add(c);
    }
    before = c;
  }
  return out;
}

const START = 8; // pixels a pointer moves before a press becomes a drag

/** Let the cards of `hand` (button.hcard[data-card]) be dragged; `moved(order)` gets the
 *  hand's new order of card codes when one is dropped somewhere else. */
export function dragToArrange(hand, moved) {
  let press = null;
  let dragged = false; // the click after a drag is not a play
  hand.addEventListener("pointerdown", (e) => {
    const card = e.target.closest?.("button.hcard[data-card]");
    if (!card || !e.isPrimary || e.button !== 0) return;
    press = { card, id: e.pointerId, x: e.clientX, y: e.clientY, moving: false };
  });
  hand.addEventListener("pointermove", (e) => {
    if (!press || e.pointerId !== press.id) return;
    const dx = e.clientX - press.x;
    const dy = e.clientY - press.y;
    if (!press.moving) {
      if (Math.hypot(dx, dy) < START) return;
      press.moving = true;
      press.card.setPointerCapture?.(e.pointerId);
      press.card.classList.add("dragging");
    }
    press.card.style.translate = `${dx}px ${dy}px`;
  });
  const end = (e, drop) => {
    if (!press || e.pointerId !== press.id) return;
    const { card, moving } = press;
    press = null;
    if (!moving) return;
    card.classList.remove("dragging");
    card.style.translate = "";
    dragged = true;
    setTimeout(() => { dragged = false; }, 0); // the click, if any, comes before this
    if (!drop) return;
    const order = dropOrder(hand, card, e.clientX, e.clientY);
    if (order) moved(order);
  };
  hand.addEventListener("pointerup", (e) => end(e, true));
  hand.addEventListener("pointercancel", (e) => end(e, false));
  hand.addEventListener("click", (e) => {
    if (dragged) {
      e.preventDefault();
      e.stopPropagation();
      dragged = false;
    }
  }, true);
}

/** The hand's order with `card` put where it was dropped: before or after the card nearest
 *  the drop point, by which half of it the point is over (the hand's direction counts);
 *  null when that is where it was. */
function dropOrder(hand, card, x, y) {
  const cards = [...hand.querySelectorAll("button.hcard[data-card]")];
  let near = null;
  let best = Infinity;
  for (const other of cards) {
    const r = other.getBoundingClientRect();
    // the visible part of an overlapped card is its leading edge: measure to the middle of
    // the box, rows first
    const d = Math.hypot(x - (r.left + r.width / 2), (y - (r.top + r.height / 2)) * 2);
    if (d < best) {
      best = d;
      near = { other, r };
    }
  }
  if (!near || near.other === card) return null;
  const rtl = getComputedStyle(hand).direction === "rtl";
  const after = (x > near.r.left + near.r.width / 2) !== rtl;
  const order = cards.map((c) => c.dataset.card).filter((c) => c !== card.dataset.card);
  order.splice(order.indexOf(near.other.dataset.card) + (after ? 1 : 0), 0, card.dataset.card);
  const before = cards.map((c) => c.dataset.card);
  return order.join() === before.join() ? null : order;
}
