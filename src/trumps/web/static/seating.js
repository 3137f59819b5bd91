// Where each seat sits around the table, as a player sees it: you at the bottom, the others
// around an ellipse in the order they play — left, across the top, right — and, in a
// right-to-left language, the same mirrored (the next player on the right). Pure geometry:
// board.js and trickview.js place the seats' plates and the trick's cards with it.
//
// An angle θ is measured from the bottom, turning the way play goes on screen; a point is
// given in percent of the round (the felt above your hand), its centre at (50, 50).

const RADIUS = 41; // percent of the round's width and height, from its centre to a seat

/** The angle of seat s at a table of n, seen from `me` (null: a spectator, seat 0 at the
 *  bottom). */
export function seatAngle(n, me, s) {
  const base = me === null || me === undefined ? 0 : me;
  const steps = (((s - base) % n) + n) % n;
  return (steps * 2 * Math.PI) / Math.max(1, n);
}

const rtl = () => document.documentElement.dir === "rtl";

/** The unit direction from the centre toward seat s, in screen coordinates (y down). */
export function seatDirection(n, me, s) {
  const a = seatAngle(n, me, s);
  const sideways = -Math.sin(a) * (rtl() ? -1 : 1);
  return { dx: round(sideways), dy: round(Math.cos(a)) };
}

/** Seat s's place on the round, in percent: {x, y}. */
export function seatPoint(n, me, s) {
  const { dx, dy } = seatDirection(n, me, s);
  return { x: round(50 + RADIUS * dx), y: round(50 + RADIUS * dy) };
}

/** The CSS custom properties that put an element toward seat s: --dx/--dy, the direction. */
export function towardSeat(n, me, s) {
  const { dx, dy } = seatDirection(n, me, s);
  return `--dx:${dx};--dy:${dy}`;
}

const round = (v) => Math.round(v * 1000) / 1000;

/** Keep every seat plate of `ring` inside it: a plate placed on the ellipse that would stick
 *  out (a tall plate at the top, a wide one at a side) is moved in, as little as needed. */
export function fitSeats(ring) {
  if (!ring || ring.offsetParent === null) return;
  const box = ring.getBoundingClientRect();
  for (const plate of ring.querySelectorAll(":scope .seat[data-x]")) {
    const w = plate.offsetWidth;
    const h = plate.offsetHeight;
    const x = (Number(plate.dataset.x) / 100) * box.width;
    const y = (Number(plate.dataset.y) / 100) * box.height;
    const left = Math.min(Math.max(0, x - w / 2), Math.max(0, box.width - w));
    const top = Math.min(Math.max(0, y - h / 2), Math.max(0, box.height - h));
    plate.style.setProperty("left", `${Math.round(left)}px`);
    plate.style.setProperty("top", `${Math.round(top)}px`);
  }
}
