// Accessibility at the table, around table.js: the headings of its parts (visually hidden),
// the announcements' live region (announce.js), the focus kept in the hand at every
// re-render, the focusable game log, the keyboard help button, and the page's settings for
// announcements, light or dark, and a high-contrast theme (kept in localStorage).

import { el, load, save, select } from "./dom.js";
import { t } from "./i18n.js";
import { VERBOSITIES, announce, liveRegion, setVerbosity, verbosity } from "./announce.js";
import { keyHelpButton } from "./keyhelp.js";

export const THEMES = ["standard", "contrast"];
export const theme = () => (load("theme") === "contrast" ? "contrast" : "standard");

export function setTheme(name) {
  save("theme", name === "contrast" ? "contrast" : null);
  document.documentElement.dataset.theme = theme();
}
document.documentElement.dataset.theme = theme();

/** Light or dark: as the device says (the default), or the player's choice. */
export const SCHEMES = ["auto", "light", "dark"];
export const scheme = () => (SCHEMES.includes(load("scheme")) ? load("scheme") : "auto");

export function setScheme(name) {
  save("scheme", name === "light" || name === "dark" ? name : null);
  document.documentElement.dataset.scheme = scheme();
}
document.documentElement.dataset.scheme = scheme();

/** The header's settings: how much is announced, and the colour theme. */
export function a11ySettings() {
  const talk = select({ id: "verbosity", testid: "verbosity", "aria-label": t("Screen reader announcements") },
    [["full", t("full announcements")], ["brief", t("brief announcements")]], verbosity());
  talk.addEventListener("change", () => setVerbosity(VERBOSITIES.includes(talk.value) ? talk.value : null));
  const colours = select({ id: "theme", testid: "theme", "aria-label": t("Colours") },
    [["standard", t("standard colours")], ["contrast", t("high contrast")]], theme());
  colours.addEventListener("change", () => setTheme(colours.value));
  const look = select({ id: "scheme", testid: "scheme", "aria-label": t("Appearance") },
    [["auto", t("as the device")], ["light", t("light")], ["dark", t("dark")]], scheme());
  look.addEventListener("change", () => setScheme(look.value));
  return [look, talk, colours];
}

const hidden = (level, text, cls = "") => el(level, { class: `sr-only ${cls}`.trim() }, text);

let region = null;
let centreHead = null;

/** Add to table.js's freshly built section: headings, the live region, the log reachable by
 *  keyboard, the key help button. */
export function mountA11y(root, parts) {
  if (!region) { // once, outside the section that is rebuilt: a live region must stay in place
    region = liveRegion();
    (root.closest("main") ?? document.body).append(region);
  }
  parts.opponents.before(hidden("h3", t("Other players")));
  centreHead = hidden("h3", "");
  parts.centre.before(centreHead);
  parts.me.prepend(hidden("h3", t("Your hand")));
  parts.log.closest("details")?.before(hidden("h3", t("Game log")));
  parts.title.tabIndex = -1; // where the focus goes when the table has nothing else to offer
  for (const list of [parts.log, parts.chat]) list.tabIndex = 0; // they scroll: reach them by keyboard
  parts.lastTrick.parentElement?.append(keyHelpButton());
}

/** After each drawing of table tb: name the centre, head the scores, announce what
 *  happened, and put the focus back in the hand when it fell to the page's body. */
export function afterRender(tb, parts, { mine, seatLabel }) {
  if (centreHead) centreHead.textContent = tb.game === "kozyri" ? t("The pile") : t("The trick");
  const scores = parts.scores?.querySelector(".scores, .note") ?? parts.centre.querySelector(".twentyfive .scores, .twentyfive > .note");
  if (scores) scores.before(hidden("h3", t("Scores")));
  if (region) announce(tb, parts, region, { mine, seatLabel });
  const a = document.activeElement;
  // Moving the focus scrolls the page only for a keyboard user, and not before the first key
  // after opening the table (a touch user reading the log is not pulled back to the hand).
  const still = entered || !keyboard;
  if (!a || a === document.body || !a.isConnected || a === parts.title) focusHome(parts, { preventScroll: still });
}

/** The hand's card in the tab order, else the first action, the result's button, the title. */
export function focusHome(parts, options = {}) {
  if (!parts || parts.title.closest("section")?.hidden) return;
  const node = parts.hand.querySelector("button.hcard[tabindex='0']")
    ?? parts.words.querySelector("button:not(:disabled)")
    ?? (parts.result.hidden ? null : parts.result.querySelector("button"))
    ?? parts.title;
  node.focus(options);
}

/** The table was just opened: show it from its top, the focus in the hand. */
let entered = false; // the table was just opened, no key pressed since
let keyboard = false; // the last input was a key (not a pointer)
document.addEventListener("keydown", () => { entered = false; keyboard = true; }, true);
document.addEventListener("pointerdown", () => { keyboard = false; }, true);

export function enterTable(parts) {
  entered = true;
  focusHome(parts, { preventScroll: true });
  window.scrollTo(0, 0);
}
