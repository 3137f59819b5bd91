// A comfort some players ask for (off by default): when the only thing you may do is play
// one card, the page plays it for you, after a moment in which you see it is the one.

import { el, load, save } from "./dom.js";
import { t } from "./i18n.js";
import { isCard } from "./cards.js";

const WAIT_MS = 700; // long enough to see which card goes

export const autoPlayOn = () => load("autoplay") === "on";

/** The checkbox of the settings panel. */
export function autoPlaySetting() {
  const box = el("input", { type: "checkbox", id: "auto-play", testid: "auto-play", checked: autoPlayOn(),
    onchange: (e) => save("autoplay", e.target.checked ? "on" : null) });
  return el("label", { class: "check", for: "auto-play" }, box, " ", t("Play my only possible card by itself"));
}

/** After table tb was drawn: if the setting is on and one card is all I may play, play it
 *  (once for this moment of the game, and only if it is still so when the moment comes). */
export function autoPlay(tb, canAct, play) {
  if (!autoPlayOn() || !canAct(tb) || tb.legal.length !== 1 || !isCard(tb.legal[0])) return;
  if (tb.autoPlayed === tb.event) return;
  tb.autoPlayed = tb.event;
  const event = tb.event;
  const card = tb.legal[0];
  setTimeout(() => {
    if (tb.event === event && canAct(tb) && tb.legal.length === 1 && tb.legal[0] === card) play(tb, card);
  }, WAIT_MS);
}
