// What a screen reader is told at the table: one polite live region, one announcement per
// event (the event's log lines — the move, who won the trick, a hand over and the next
// dealt — spoken with cards as words), then "Your turn" once per turn. The wording is the
// log's and the prompt's own (table.js builds them); here they are only read out, with the
// short card texts ("10♥") replaced by their names ("ten of hearts").
//
// Verbosity (a setting kept in localStorage): "brief" says the events and "Your turn.";
// "full" adds the scores after a trick or hand and, on your turn, the prompt and the cards
// you can play.

import { el, load, save } from "./dom.js";
import { cardName, listed, plural, t } from "./i18n.js";

export const VERBOSITIES = ["full", "brief"];
const KEEP = 4; // announcements kept in the region (older ones are dropped, not spoken)

export const verbosity = () => (load("verbosity") === "brief" ? "brief" : "full");
export const setVerbosity = (v) => save("verbosity", VERBOSITIES.includes(v) ? v : null);

/** The announcements' live region, built with the table's section. */
export function liveRegion() {
  return el("div", {
    class: "sr-only", testid: "announce", "aria-live": "polite", "aria-relevant": "additions", "aria-atomic": "false",
  });
}

/** The text a screen reader should say for `node`: card texts and suit symbols by their
 *  names, hidden parts (number badges) left out, spaces tidied. */
export function spoken(node) {
  if (!node) return "";
  const copy = node.cloneNode(true);
  for (const x of copy.querySelectorAll("[aria-hidden='true']")) x.remove();
  for (const x of copy.querySelectorAll(".card-text[title]")) x.replaceWith(x.title);
  for (const x of copy.querySelectorAll("[role='img'][aria-label]")) x.replaceWith(x.getAttribute("aria-label"));
  return copy.textContent.replace(/\s+/g, " ").trim();
}

const state = new WeakMap(); // table → {last: the last event announced, turn: the event whose turn was said, over}

/** Say what happened at table `tb` since the last call: `parts` are table.js's elements
 *  (log, prompt, result, hand), `region` the live region, `mine` whether I may act now. */
export function announce(tb, parts, region, { mine, seatLabel }) {
  let st = state.get(tb);
  const newest = tb.log.at(-1)?.number ?? 0;
  if (!st) { // a table first seen (opened, or after a reload): its past is in the log, not spoken
    st = { last: newest, turn: null, over: !!tb.outcome };
    state.set(tb, st);
  }
  const full = verbosity() === "full";
  const said = [];
  for (const e of tb.log) {
    if (e.number <= st.last) continue;
    const lines = [...parts.log.querySelectorAll(`li[data-event="${e.number}"]`)].map(spoken);
    if (!lines.length) continue;
    if (full && e.closed?.trick) lines.push(scoreLine(tb, e.closed.hand?.scores ?? tb.view.scores, seatLabel));
    said.push({ event: e.number, lines });
  }
  st.last = Math.max(st.last, newest);
  if (mine && st.turn !== tb.event) {
    st.turn = tb.event;
    const turn = [t("Your turn.")];
    if (full) turn.push(spoken(parts.prompt), playable(parts.hand));
    if (said.length) said.at(-1).lines.push(...turn);
    else said.push({ event: tb.event, lines: turn });
  }
  if (tb.outcome && !st.over) {
    st.over = true;
    const line = spoken(parts.result.querySelector(".outcome"));
    if (said.length) said.at(-1).lines.push(line);
    else said.push({ event: "over", lines: [line] });
  }
  for (const a of said) {
    const text = a.lines.filter(Boolean).join(" ");
    if (text) region.append(el("p", { "data-event": String(a.event) }, text));
  }
  while (region.childElementCount > KEEP) region.firstElementChild.remove();
}

/** "Scores: Olena 15, medium bot 1 10." from the scores the game gives (per seat or per team). */
function scoreLine(tb, scores, seatLabel) {
  if (!Array.isArray(scores)) return "";
  const teams = tb.view.teams;
  const side = (i) => (Array.isArray(teams)
    ? t("Team {n}: {names}", { n: i + 1, names: listed(teams[i].map((s) => seatLabel(tb, s))).join("") })
    : seatLabel(tb, i));
  return t("Scores: {list}.", { list: listed(scores.map((p, i) => `${side(i)} ${t("{n} points", { n: p })}`)).join("") });
}

/** "You can play: ten of hearts, ace of hearts." (or how many, when there are many). */
function playable(hand) {
  const cards = [...hand.querySelectorAll("button.hcard[data-legal='true']")].map((b) => b.dataset.card);
  if (!cards.length) return "";
  if (cards.length > 5) return plural(cards.length, t("{n} card can be played."), t("{n} cards can be played."));
  return t("You can play: {cards}.", { cards: listed(cards.map(cardName)).join("") });
}
