// The table's sounds: your turn, a card played, a trick won, a pick-up and the game's end.
// They are made in the page with the Web Audio API (a few oscillators and filtered noise: no
// file to download), are silent until the player first touches the page (as browsers
// require), and have one switch, kept in the browser (the speaker button of the table).

import { el, load, save } from "./dom.js";
import { t } from "./i18n.js";
import { isCard } from "./cards.js";

let audio = null; // the AudioContext, made at the first touch
let noise = null; // one second of white noise, shared by the sounds that need it

/** Sounds on (the default) or muted. */
export const soundOn = () => load("sound") !== "off";

function setSound(on) {
  save("sound", on ? null : "off");
}

/** Open the audio at the player's first touch or key (a page may not make sound before). */
function unlock() {
  try {
    audio ??= new AudioContext();
    if (audio.state === "suspended") audio.resume().catch(() => {});
  } catch {
    audio = null; // no Web Audio here: the table stays silent
  }
}
for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, unlock, { capture: true });

function noiseBuffer() {
  if (noise) return noise;
  noise = audio.createBuffer(1, audio.sampleRate, audio.sampleRate);
  const data = noise.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  return noise;
}

/** A short tone: frequency (Hz), start offset and length (s), peak volume. */
function tone(freq, at, length, volume, type = "sine") {
  const now = audio.currentTime + at;
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  gain.gain.setValueAtTime(0.0001, now);
  gain.gain.exponentialRampToValueAtTime(volume, now + 0.012);
  gain.gain.exponentialRampToValueAtTime(0.0001, now + length);
  osc.connect(gain).connect(audio.destination);
  osc.start(now);
  osc.stop(now + length + 0.02);
}

/** A burst of filtered noise: a card's snap on the felt, or the rush of a sweep. */
function rush(at, length, volume, freq, q = 0.8) {
  const now = audio.currentTime + at;
  const src = audio.createBufferSource();
  src.buffer = noiseBuffer();
  const filter = audio.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = q;
  const gain = audio.createGain();
  gain.gain.setValueAtTime(0.0001, now);
  gain.gain.exponentialRampToValueAtTime(volume, now + Math.min(0.01, length / 4));
  gain.gain.exponentialRampToValueAtTime(0.0001, now + length);
  src.connect(filter).connect(gain).connect(audio.destination);
  src.start(now, Math.random() * 0.5);
  src.stop(now + length + 0.02);
}

const SOUNDS = {
  turn: () => { tone(784, 0, 0.22, 0.09); tone(1046, 0.11, 0.3, 0.08); },
  card: () => rush(0, 0.07, 0.35, 2600, 1.2),
  trick: () => rush(0, 0.28, 0.18, 1400, 0.6),
  pickup: () => { for (let i = 0; i < 4; i++) rush(i * 0.055, 0.06, 0.22, 2000 + i * 150, 1); },
  end: () => { tone(523, 0, 0.25, 0.08, "triangle"); tone(659, 0.12, 0.25, 0.08, "triangle"); tone(784, 0.24, 0.45, 0.09, "triangle"); },
};
export const SOUND_KINDS = Object.keys(SOUNDS);

/** Play one of the table's sounds (nothing when muted, before the first touch, or where the
 *  page has no audio). The page notes each moment's sound (data-sound-log, the last twelve)
 *  and counts those it made (data-sounds), for its tests. */
export function playSound(kind) {
  const root = document.documentElement;
  root.dataset.soundLog = [...(root.dataset.soundLog ?? "").split(" ").filter(Boolean), kind].slice(-12).join(" ");
  if (!soundOn() || !audio || audio.state !== "running" || !SOUNDS[kind]) return;
  try {
    SOUNDS[kind]();
    root.dataset.sounds = String(Number(root.dataset.sounds ?? 0) + 1);
  } catch { /* a sound that could not be made is no reason to stop the game */ }
}

const SVG = "http://www.w3.org/2000/svg";

/** A speaker, with waves when the sound is on and a cross when it is off. */
function speaker(on) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "icon");
  /** @type {Array<[string, Record<string, string>]>} */
  const shapes = [["path", { d: "M3 9h4l5-4v14l-5-4H3z", fill: "currentColor" }],
    ["path", { d: on ? "M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" : "M16 9l6 6M22 9l-6 6" }]];
  for (const [tag, attrs] of shapes) {
    const node = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries({ fill: "none", stroke: "currentColor", "stroke-width": "2", "stroke-linecap": "round", ...attrs })) node.setAttribute(k, v);
    svg.append(node);
  }
  return svg;
}

/** The table's speaker button: sound on or off, one press, kept in the browser. */
export function soundButton() {
  const button = el("button", { type: "button", class: "ghost sound-button", testid: "sound",
    "aria-label": t("Sound"), title: t("Sound") });
  const draw = () => {
    button.setAttribute("aria-pressed", String(soundOn()));
    button.replaceChildren(speaker(soundOn()));
  };
  button.addEventListener("click", () => {
    setSound(!soundOn());
    draw();
    if (soundOn()) playSound("card");
  });
  draw();
  return button;
}

/** The sounds of a table's event: a card played (a trick it closes sweeps after it), a
 *  pick-up. (Your turn and the end are told by app.js, which knows them.) */
export function eventSounds(m) {
  if ((m.kind !== "action" && m.kind !== "timeout") || !m.action) return [];
  if (m.action === "take") return ["pickup"];
  const card = isCard(m.action);
  return [...(card ? ["card"] : []), ...(m.closed?.trick ? ["trick"] : [])];
}
