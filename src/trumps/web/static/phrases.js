// Quick phrases for the chat: a tap says one. Each goes as its short code ("gg"), the
// chat shorthand players know, and every page shows a line that is just a code in its
// reader's language ("Good game!", "بازی خوبی بود!"); anything else is shown as written.

import { el } from "./dom.js";
import { t } from "./i18n.js";

const PHRASES = {
  hi: () => t("Hello!"),
  gl: () => t("Good luck!"),
  wp: () => t("Well played!"),
  gg: () => t("Good game!"),
  ty: () => t("Thanks!"),
  oops: () => t("Oops!"),
};

/** A chat line's words: a quick phrase in the reader's language, else null. */
export function phraseText(text) {
  const code = String(text ?? "").trim().toLowerCase();
  return Object.hasOwn(PHRASES, code) ? PHRASES[code]() : null;
}

/** The row of quick-phrase buttons; say(code) sends one. */
export function phraseButtons(say) {
  return el("div", { class: "phrases", role: "group", "aria-label": t("Quick phrases") },
    Object.entries(PHRASES).map(([code, words]) => el("button", {
      type: "button", class: "ghost chip", testid: `phrase-${code}`, onclick: () => say(code),
    }, words())));
}
