// After a hand of Twenty-Five its summary holds the next hand until the player continues
// (docs/protocol.md#continue: at a paced table the bots wait for it). A setting lets the
// summary continue by itself after a few seconds, its Continue button counting down.

import { el, load, save } from "./dom.js";
import { num, t } from "./i18n.js";

export const PAUSES = [0, 5, 10, 20]; // seconds; 0: until Continue is pressed

export function pauseSeconds() {
  const v = Number(load("pause"));
  return PAUSES.includes(v) ? v : 0;
}

/** The settings panel's control. */
export function pauseControl() {
  const box = el("select", {
    id: "hand-pause", testid: "hand-pause",
    onchange: (e) => save("pause", Number(e.target.value) ? e.target.value : null),
  }, PAUSES.map((s) => el("option", { value: String(s) },
    s ? t("continue after {n} s", { n: num(s) }) : t("wait for Continue"))));
  box.value = String(pauseSeconds());
  return el("span", { class: "inline anim-setting" }, el("label", { for: "hand-pause" }, t("After a hand")), box);
}

// The summary counting down now: which one (table and hand), when it ends, and what
// pressing Continue does (from its latest drawing: the table draws it again on each event).
let counting = null;

/** Table tb drew the summary of hand `key` in `slot`, `close` being its Continue: with a
 *  pause set, count it down (once per summary) and continue when it ends. */
export function holdHand(slot, key, close) {
  const seconds = pauseSeconds();
  if (!seconds || !close) return stopCounting();
  if (counting?.key !== key) {
    stopCounting();
    counting = { key, slot, close, end: Date.now() + seconds * 1000, timer: setInterval(step, 250) };
  }
  Object.assign(counting, { slot, close });
  step();
}

/** No summary is shown (or it was closed): nothing to count. */
export function stopCounting() {
  if (counting) clearInterval(counting.timer);
  counting = null;
}

function step() {
  const button = counting?.slot.querySelector("[data-testid='summary-close']");
  if (!button) return stopCounting();
  const left = Math.max(0, Math.ceil((counting.end - Date.now()) / 1000));
  button.textContent = t("Continue ({n})", { n: num(left) });
  if (left === 0) {
    const { close } = counting;
    stopCounting();
    close();
  }
}
