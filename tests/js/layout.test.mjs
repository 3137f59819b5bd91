// seating.js and handdrag.js: where the seats sit around the table (mirrored right to left)
// and a hand in the player's own order.
import assert from "node:assert/strict";
import { test } from "node:test";

globalThis.document = { documentElement: { dir: "ltr" } };
const { seatAngle, seatPoint, towardSeat } = await import("../../src/trumps/web/static/seating.js");
const { arrange } = await import("../../src/trumps/web/static/handdrag.js");

test("I sit at the bottom; the others follow in the order of play, left, top, right", () => {
  document.documentElement.dir = "ltr";
  assert.deepEqual(seatPoint(4, 2, 2), { x: 50, y: 91 }); // me
  assert.deepEqual(seatPoint(4, 2, 3), { x: 9, y: 50 }); // next to play: on my left
  assert.deepEqual(seatPoint(4, 2, 0), { x: 50, y: 9 }); // across
  assert.deepEqual(seatPoint(4, 2, 1), { x: 91, y: 50 });
  assert.equal(seatAngle(3, null, 0), 0); // a spectator sees seat 0 at the bottom
});

test("right to left, the next player sits on the right", () => {
  document.documentElement.dir = "rtl";
  try {
    assert.deepEqual(seatPoint(4, 2, 3), { x: 91, y: 50 });
    assert.equal(towardSeat(2, 0, 1), "--dx:0;--dy:-1");
  } finally {
    document.documentElement.dir = "ltr";
  }
});

test("a hand in the player's order; cards that arrive later follow the card before them", () => {
  assert.deepEqual(arrange(["AS", "KS", "QH"], null), ["AS", "KS", "QH"]);
  assert.deepEqual(arrange(["AS", "KS", "QH"], ["QH", "AS", "KS"]), ["QH", "AS", "KS"]);
  // KS was played; 7S and 2C arrived: each goes after the card the sorting puts before it.
  assert.deepEqual(arrange(["AS", "7S", "QH", "2C"], ["QH", "AS", "KS"]), ["QH", "2C", "AS", "7S"]);
  assert.deepEqual(arrange(["9D"], ["QH"]), ["9D"]);
});
