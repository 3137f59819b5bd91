// textcmd.js: the text mode's typed commands, in English and with a second language's words.
import assert from "node:assert/strict";
import { test } from "node:test";

import { normalize, parseCard, parseCommand, parseSuit, vocabulary } from "../../src/trumps/web/static/textcmd.js";

const english = vocabulary((s) => s);
// A few French words, as a catalog would give them (the rest stay English).
const FRENCH = { "play, put": "jouer, poser", ten: "dix", hearts: "cœur", "{rank} of {suit}": "{rank} de {suit}", "take, pick up": "prendre" };
const french = vocabulary((s) => FRENCH[s] ?? s);

test("normalize: case, accents, Persian digits and marks, a closing full stop", () => {
  assert.equal(normalize("  Dix de Cœur. "), "dix de coeur");
  assert.equal(normalize("۱۰ دل"), "10 دل");
  assert.equal(normalize("كي"), "کی");
  assert.equal(normalize(null), "");
});

test("a card by its name, its code or its symbol", () => {
  for (const text of ["ten of hearts", "10 of hearts", "ten hearts", "TH", "th", "10h", "10♥", "the ten of heart"]) {
    assert.equal(parseCard(text, [english]), "TH", text);
  }
  assert.equal(parseCard("jk", [english]), "JK");
  assert.equal(parseCard("joker", [english]), "JK");
  assert.equal(parseCard("eleven of hearts", [english]), null);
  assert.equal(parseCard("dix de cœur", [french, english]), "TH");
});

test("a suit by its word, letter or symbol", () => {
  assert.equal(parseSuit("spades", [english]), "S");
  assert.equal(parseSuit("spade", [english]), "S");
  assert.equal(parseSuit("♦", [english]), "D");
  assert.equal(parseSuit("c", [english]), "C");
  assert.equal(parseSuit("stars", [english]), null);
});

test("commands: words, a card after or before its verb, counts, and what is not understood", () => {
  const both = [french, english];
  assert.deepEqual(parseCommand("play ten of hearts", both), { kind: "play", card: "TH" });
  assert.deepEqual(parseCommand("jouer dix de cœur", both), { kind: "play", card: "TH" });
  assert.deepEqual(parseCommand("dix de cœur jouer", both), { kind: "play", card: "TH" });
  assert.deepEqual(parseCommand("TH", both), { kind: "play", card: "TH" });
  assert.deepEqual(parseCommand("prendre", both), { kind: "take" });
  assert.deepEqual(parseCommand("Pick up.", both), { kind: "take" });
  assert.deepEqual(parseCommand("trump spades", both), { kind: "trump", suit: "S" });
  assert.deepEqual(parseCommand("rob", both), { kind: "rob", card: null });
  assert.deepEqual(parseCommand("play the moon", both), { kind: "play", card: null, bad: "the moon" });
  assert.deepEqual(parseCommand("how many cards has bot 2", both), { kind: "count", name: "bot 2" });
  assert.deepEqual(parseCommand("?", both), { kind: "help" });
  assert.deepEqual(parseCommand("   ", both), { kind: "empty" });
  assert.deepEqual(parseCommand("dance", both), { kind: "unknown", text: "dance" });
});
