// "How to play": each game's rules, short and plain (from docs/rules/kozyri.md and
// docs/rules/twentyfive.md, with their rule ids), in a dialog reachable from the header on
// every section; and a first-game walkthrough shown once at the first table (dismissed for
// good: remembered in localStorage). The rules are each game's own lines (Game.BRIEF in
// src/trumps/games/*/brief.py), which the catalog carries and `trumps play` shows too;
// they are msgids of the page's catalogs (trumps.web.i18n reads them there).

import { el, load, put, save } from "./dom.js";
import { gameName, listed, t } from "./i18n.js";

/** A game's rules in brief from the catalog: [rule ids, sentence in the page's language]. */
export function rules(catalog, game) {
  const brief = catalog?.games?.find((g) => g.id === game)?.brief ?? [];
  return brief.map(([ids, text]) => [ids, t(text)]);
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

function panel(catalog, game) {
  return el("div", { class: "rules", testid: `rules-${game}`, lang: null },
    el("h3", {}, gameName(game)),
    el("ol", {}, rules(catalog, game).map(([ids, text]) => el("li", {}, text, " ", ruleIds(ids)))));
}

/** A rule's ids ("F9, F10"): identifiers of docs/rules/*.md, kept as they are written there
 *  (Latin letter and digits, left to right) in every language; only the list separator is
 *  the language's. */
function ruleIds(ids) {
  return el("small", { class: "rule-id" }, listed(ids.split(", ").map((id) => el("bdi", { dir: "ltr" }, id))));
}

/** Open "How to play" on `game`'s rules (the other game a tab away), from `catalog`. */
export function openHelp(catalog, game = "kozyri") {
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
    put(body, panel(catalog, game));
  };
  fillBody();
  put(dialog,
    el("h2", { id: "help-title" }, t("How to play")), tabs, body,
    el("form", { method: "dialog" }, el("button", { type: "submit", testid: "help-close", autofocus: true }, t("Close"))));
  if (!dialog.open) dialog.showModal();
}

/** A button opening "How to play" (on `game()`'s rules when it names one); `catalog()`
 *  is the page's catalog, whose games carry their rules. */
export function helpButton(catalog, game = () => null) {
  // On a phone the button shows "?" (its name stays the words).
  return el("button", { type: "button", class: "ghost help-button", testid: "help-open", "aria-label": t("How to play"),
    onclick: () => openHelp(catalog(), game() ?? "kozyri") },
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
