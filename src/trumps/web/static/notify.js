// "Your turn" while the page is in a background tab: a short sound and a browser
// notification, when the player asked for them (a setting, off by default).

import { load, save } from "./dom.js";
import { t } from "./i18n.js";

const wasMine = new Map(); // table id -> whether it was my turn at the last render
let audio = null;

export const alertsOn = () => load("alerts") === "1";

/** Turn the alerts on or off; on asks the browser for notifications (once). */
export function setAlerts(on) {
  save("alerts", on ? "1" : "0");
  if (on && typeof Notification !== "undefined" && Notification.permission === "default") {
    Notification.requestPermission().catch(() => {});
  }
}

/** After a table changed: tell the player if it has just become their turn there while
 *  they look elsewhere (another tab or window). */
export function noteTurn(tableId, mine, title) {
  const before = wasMine.get(tableId) ?? false;
  wasMine.set(tableId, mine);
  if (!mine || before || !alertsOn() || document.visibilityState !== "hidden") return;
  beep();
  if (typeof Notification !== "undefined" && Notification.permission === "granted") {
    try {
      const note = new Notification(t("Your turn"), { body: title, tag: `trumps-${tableId}` });
      note.onclick = () => { window.focus(); note.close(); };
    } catch { /* a browser that refuses notifications here: the sound was enough */ }
  }
}

function beep() {
  try {
    audio ??= new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.35);
  } catch { /* no sound here */ }
}
