// The table's keyboard help: `?` (or the "Keyboard keys" button) opens a dialog listing every
// key the table uses — table.js's number keys (Persian digits too) and hand keys, the
// browser's Tab, Enter and Space, and this help itself. Escape closes it and the focus goes
// back where it was.

import { el, put } from "./dom.js";
import { t } from "./i18n.js";

let dialog = null;

/** [keys, what they do]; literal msgids. */
export function tableKeys() {
  return [
    [["1–9", "۱–۹"], t("Play the card or action with that number (the small numbers on the playable cards and buttons).")],
    [["←", "→", "↑", "↓"], t("Move between the cards of your hand.")],
    [["Home", "End"], t("Go to the first or the last card of your hand.")],
    [["Shift+←", "Shift+→"], t("Move the card in focus one place within your hand.")],
    [["Enter", "Space"], t("Play the card in focus, or press the button in focus; on a dimmed card, hear why it cannot be played.")],
    [["Tab", "Shift+Tab"], t("Move between your hand, the buttons, the game log and the chat.")],
    [["?"], t("Open this list of keys.")],
    [["Escape"], t("Close this list.")],
  ];
}

/** Open the list of keys (built each time, in the page's language). */
export function openKeyHelp() {
  if (!dialog) {
    dialog = el("dialog", { class: "help key-help", testid: "key-help", "aria-labelledby": "key-help-title" });
    document.body.append(dialog);
  }
  const close = el("button", { type: "button", testid: "key-help-close", onclick: () => dialog.close() }, t("Close"));
  put(dialog,
    el("h2", { id: "key-help-title" }, t("Keyboard keys")),
    el("table", { class: "key-table" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Keys")), el("th", { scope: "col" }, t("What they do")))),
      el("tbody", {}, tableKeys().map(([keys, what]) => el("tr", {},
        el("th", { scope: "row" }, keys.flatMap((k, i) => [i ? " " : null, el("kbd", { dir: "ltr" }, k)])),
        el("td", {}, what))))),
    el("div", { class: "inline" }, close));
  if (!dialog.open) dialog.showModal();
  close.focus();
}

/** The button that opens it, for the table's tools. */
export const keyHelpButton = () => el("button", {
  type: "button", class: "ghost", testid: "key-help-open", "aria-keyshortcuts": "?", onclick: openKeyHelp,
}, t("Keyboard keys"));

/** `?` (and the Persian keyboard's `؟`) opens the help; true when the key was used. */
export function onHelpKey(e) {
  if (e.key !== "?" && e.key !== "؟") return false;
  openKeyHelp();
  return true;
}
