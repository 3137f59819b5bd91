// "How to play": each game's rules, short and plain (from docs/rules/kozyri.md and
// docs/rules/twentyfive.md, with their rule ids), in a dialog reachable from the header on
// every section; and a first-game walkthrough shown once at the first table (dismissed for
// good: remembered in localStorage). `trumps play` shows the same English text (`rules`,
// src/trumps/tui/rulestext.py; tests/web/test_browser_help.py keeps the two equal).

import { el, load, put, save } from "./dom.js";
import { gameName, listed, t } from "./i18n.js";

/** Each game's rules: [rule ids, sentence]; literal msgids. */
export function rules(game) {
  if (game === "twentyfive") {
    return [
      ["F4, F16", t("Five cards each; the suit of the turned-up card is trumps. Each trick you win is worth 5 points; the first to 25 wins at once.")],
      ["F6", t("The best trumps are the 5, then the J of trumps, then the A♥ (always a trump), then the ace of trumps.")],
      ["F7", t("Number cards run “highest in red, lowest in black”: in ♠ and ♣ the 2 beats the 10.")],
      ["F13", t("When a plain suit is led, play that suit or a trump (you may trump even when you could follow); with none of that suit, play anything.")],
      ["F14", t("When a trump is led you must play a trump; only the 5, the J and the A♥ may be kept back (reneged), and only against a lower trump.")],
      ["F9, F10", t("If you hold the ace of trumps you may rob: take the turned-up card and put one of yours face down, before you play to the first trick.")],
      ["F15", t("The highest trump wins the trick; with no trump in it, the highest card of the suit led.")],
    ];
  }
  return [
    ["K3", t("Before the deal everyone chooses a trump suit of their own; no two players share one.")],
    ["K5, K16", t("All 36 cards (6 to ace) are dealt. Get rid of all your cards: the last player holding cards loses.")],
    ["K7, K8", t("Lead any card onto the pile. The next player must beat the top card or pick up.")],
    ["K9", t("A card beats the top card if it is a higher card of the same suit, or one of your own trumps when the top card is not of your trump suit.")],
    ["K10", t("After you beat, play a second card of your choice on top: the next player faces that card.")],
    ["K11, K12", t("You pick up only when you cannot beat (default rules): 3 cards, 5 if the top card is of your trump suit, the whole pile if it is the ace of your trumps.")],
    ["K16", t("If the last player holds a single card that beats the top card, the hand is a draw.")],
  ];
}

/** The first-game walkthrough's steps; literal msgids. */
export function steps() {
  return [
    t("Raised cards can be played now: click or tap one, or press its number."),
    t("A dimmed card cannot be played now: click it to see why."),
    t("Stuck? The Hint button suggests a move and says why."),
    t("How to play, at the top of the page, has the rules of each game."),
  ];
}

let dialog = null;

function panel(game) {
  return el("div", { class: "rules", testid: `rules-${game}`, lang: null },
    el("h3", {}, gameName(game)),
    el("ol", {}, rules(game).map(([ids, text]) => el("li", {}, text, " ", ruleIds(ids)))));
}

/** A rule's ids ("F9, F10"): identifiers of docs/rules/*.md, kept as they are written there
 *  (Latin letter and digits, left to right) in every language; only the list separator is
 *  the language's. */
function ruleIds(ids) {
  return el("small", { class: "rule-id" }, listed(ids.split(", ").map((id) => el("bdi", { dir: "ltr" }, id))));
}

/** Open "How to play" on `game`'s rules (the other game a tab away). */
export function openHelp(game = "kozyri") {
  if (!dialog) {
    dialog = el("dialog", { class: "help", testid: "help", "aria-labelledby": "help-title" });
    document.body.append(dialog);
  }
  const body = el("div", { class: "help-body" });
  const tab = (g) => el("button", {
    type: "button", role: "tab", testid: `help-tab-${g}`, "aria-selected": String(g === game),
    onclick: () => { game = g; fillBody(); },
  }, gameName(g));
  const tabs = el("div", { role: "tablist", class: "inline" });
  const fillBody = () => {
    put(tabs, tab("kozyri"), tab("twentyfive"));
    put(body, panel(game));
  };
  fillBody();
  put(dialog,
    el("h2", { id: "help-title" }, t("How to play")), tabs, body,
    el("form", { method: "dialog" }, el("button", { type: "submit", testid: "help-close", autofocus: true }, t("Close"))));
  if (!dialog.open) dialog.showModal();
}

/** A button opening "How to play" (on `game()`'s rules when it names one). */
export function helpButton(game = () => null) {
  // On a phone the button shows "?" (its name stays the words).
  return el("button", { type: "button", class: "ghost help-button", testid: "help-open", "aria-label": t("How to play"),
    onclick: () => openHelp(game() ?? "kozyri") },
  el("span", { class: "icon", "aria-hidden": "true" }, "?"), el("span", { class: "label", "aria-hidden": "true" }, t("How to play")));
}

/** The walkthrough box for a first game, or null once dismissed. */
export function walkthrough(onDone) {
  if (load("walkthrough") === "done") return null;
  const box = el("aside", { class: "walkthrough", testid: "walkthrough", "aria-label": t("Your first game") },
    el("strong", {}, t("Your first game")),
    el("ol", {}, steps().map((s) => el("li", {}, s))),
    el("button", { type: "button", testid: "walkthrough-done", onclick: () => { save("walkthrough", "done"); box.remove(); onDone?.(); } }, t("Got it")));
  return box;
}
