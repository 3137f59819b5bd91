// The ends of tricks and hands in Twenty-Five, as the game tells them: each action event
// that finished a trick carries `closed` (docs/api.md#what-an-action-closed) — the trick's
// cards and winner, and for a hand's last trick the whole hand, since the view after it
// already shows the next deal. Here: the finished trick held on the table with its winner,
// the "last trick" view, the end-of-hand summary and the score history, and the log lines
// they add. The pace of bots' moves is the server's (docs/protocol.md#pacing); the page holds
// a finished trick only as long as that pace says (trickHold) and adds animations, whose
// speed is a setting (normal, fast, off; off under reduced motion).

import { bdi, el, fill, load, save } from "./dom.js";
import { cardFace, cardText, suitSymbol } from "./cards.js";
import { listed, num, plural, t } from "./i18n.js";
import { towardSeat } from "./seating.js";

export const ANIM_SPEEDS = ["normal", "fast", "off"];

/** The animation speed setting: "normal", "fast" or "off" (reduced motion means off). */
export function animSpeed() {
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return "off";
  const saved = load("anim");
  return ANIM_SPEEDS.includes(saved) ? saved : "normal";
}

/** The bot pace the page asks for in a new game (docs/protocol.md#pacing): the setting
 *  chosen fast or off shortens the server's pace too; reduced motion alone does not. */
export const botPace = () => (["fast", "off"].includes(load("anim")) ? "fast" : "normal");

export function setAnimSpeed(speed) {
  save("anim", ANIM_SPEEDS.includes(speed) ? speed : null);
  document.documentElement.dataset.anim = animSpeed();
}
document.documentElement.dataset.anim = animSpeed();

/** How long a finished trick stays in place before it is gathered, in seconds. The rule:
 *  the table's pace decides (docs/protocol.md#pacing, `bot_pace` in table_state) — normal
 *  holds, fast holds shorter, instant does not hold (a table of bots only is instant) —
 *  and the animation setting may only shorten it; the page never waits of its own. */
export const TRICK_HOLDS = { normal: 1.1, fast: 0.5, instant: 0 };
export function trickHold(pace) {
  const byPace = TRICK_HOLDS[pace] ?? TRICK_HOLDS.normal;
  return animSpeed() === "fast" ? Math.min(byPace, TRICK_HOLDS.fast) : byPace;
}

/** The animation speed control for the table's tools. */
export function animControl(onChange) {
  const box = el("select", {
    id: "anim-speed", testid: "anim-speed",
    onchange: (e) => { setAnimSpeed(e.target.value); onChange?.(); },
  }, [["normal", t("normal speed")], ["fast", t("faster")], ["off", t("no animation")]].map(([v, label]) =>
    el("option", { value: v }, label)));
  box.value = load("anim") ?? "normal";
  return el("span", { class: "inline anim-setting" }, el("label", { for: "anim-speed" }, t("Animation speed")), box);
}

/** A finished trick laid out: each card with its player, the winner named. `held`: it is
 *  gathered once held (the CSS does the timing, by the animation setting) — toward the
 *  winner's seat when `placed` (the live table: each card in front of its player), else
 *  up or down. */
export function trickNode(trick, n, name, me, { held = false, placed = false } = {}) {
  const towards = trick.winner === me ? "me" : "away";
  return el("div", {
    class: `last-trick${held ? " held" : ""}`, testid: held ? "trick-held" : "trick-view", "data-winner": trick.winner,
    style: placed ? towardSeat(n, me, trick.winner).replaceAll("--d", "--w") : null,
  },
  el("div", { class: `spread trick done gather-${towards}${placed ? " placed" : ""}` }, trick.cards.map((code, i) => {
    const s = (trick.leader + i) % n;
    return el("figure", { class: `laid${s === trick.winner ? " winning" : ""}`, "data-seat": s,
      style: placed ? towardSeat(n, me, s) : null },
    cardFace(code), el("figcaption", {}, bdi(name(s))));
  })),
  el("p", { class: "note winner", testid: "trick-winner" }, fill(t("{name} won the trick."), { name: bdi(name(trick.winner)) })));
}

/** Tricks won per seat in a finished hand (counted from its tricks, as the game gave them). */
function tricksBySeat(hand, n) {
  const won = Array(n).fill(0);
  for (const trick of hand.tricks) won[trick.winner] += 1;
  return won;
}

/** The side labels of a hand's scores: one per seat, or one per team. */
function sideNames(teams, name) {
  if (!Array.isArray(teams)) return null;
  return teams.map((team, i) => t("Team {n}: {names}", { n: i + 1, names: listed(team.map(name)).join("") }));
}

/** The end-of-hand summary: the turn-up and trumps, who robbed, each player's tricks, the
 *  points this hand and in all, and the history of the hands so far. */
export function handSummary(tb, hand, name, onClose) {
  const n = tb.view.hands?.length ?? hand.won.length;
  const bySeat = tricksBySeat(hand, n);
  const history = tb.hands ?? [];
  const at = history.indexOf(hand);
  const before = at > 0 ? history[at - 1].scores : hand.hand === 1 ? hand.scores.map(() => 0) : null;
  const sides = sideNames(tb.view.teams, name);
  const sideName = (i) => (sides ? sides[i] : name(i));
  const rows = hand.scores.map((total, i) => el("tr", {},
    el("th", { scope: "row" }, bdi(sideName(i))),
    sides ? null : el("td", {}, num(bySeat[i])),
    el("td", {}, before ? el("span", { dir: "ltr" }, num(`+${total - before[i]}`)) : "–"), // "+5", also in Persian
    el("td", {}, num(total))));
  const head = el("tr", {}, el("th", {}, sides ? t("Team") : t("Player")), sides ? null : el("th", {}, t("Tricks")),
    el("th", {}, t("This hand")), el("th", {}, t("Total")));
  const children = [
    el("h3", {}, t("Hand {n} is over", { n: hand.hand })),
    el("p", { class: "note" }, fill(t("Turn-up {card}, trumps {suit}."), { card: cardText(hand.turnup), suit: suitSymbol(hand.trump) }),
      hand.robbed === null || hand.robbed === undefined ? "" : [" ", fill(t("{name} robbed the turn-up."), { name: bdi(name(hand.robbed)) })]),
    el("table", { class: "scores hand-scores" }, el("thead", {}, head), el("tbody", {}, rows)),
  ];
  if (sides) {
    children.push(el("p", { class: "note" }, bySeat.flatMap((k, s) => [s ? " · " : "", bdi(name(s)), " ",
      plural(k, t("{n} trick"), t("{n} tricks"))])));
  }
  const finished = history.filter((h) => Array.isArray(h.scores));
  if (finished.length > 1) {
    children.push(el("details", { class: "score-history", testid: "score-history", open: true },
      el("summary", {}, t("Scores after each hand")),
      el("ol", {}, finished.map((h) => el("li", {}, fill(t("Hand {n}:"), { n: num(h.hand) }), " ",
        h.scores.map((p, i) => `${i ? " · " : ""}${sideName(i)} ${num(p)}`).join(""))))));
  }
  const last = hand.tricks.at(-1);
  if (last) children.push(el("p", { class: "note" }, t("The last trick:")), trickNode(last, n, name, tb.seat));
  if (onClose) children.push(el("button", { type: "button", class: "ghost", testid: "summary-close", onclick: onClose }, t("Continue")));
  return el("section", { class: "hand-summary box", testid: "hand-summary", "aria-label": t("Hand {n} is over", { n: hand.hand }) }, children);
}

/** The latest finished trick that is no longer on the table: this hand's, else the last of
 *  the previous hand; null when the table shows it anyway (no card of a new trick yet). */
export function previousTrick(tb) {
  const v = tb.view;
  if (!(v.trick ?? []).length) return null;
  return (v.tricks ?? []).at(-1) ?? (tb.hands ?? []).at(-1)?.tricks.at(-1) ?? null;
}

/** A Svoi Kozyri pick-up with how many cards it took (the view before it said so, K12), or
 *  null when the page did not see that view (a line from a snapshot). */
export function tookLine(e, name) {
  if (e.action !== "take" || e.took === null || e.took === undefined) return null;
  return fill(plural(e.took, t("{name} picked up {n} card."), t("{name} picked up {n} cards.")), { name: bdi(name) });
}

/** The log's extra lines for an event: who won the trick, the end of a hand, a new hand. */
export function logExtras(e, name) {
  const out = [];
  const closed = e.closed;
  if (closed?.trick) out.push(fill(t("{name} won the trick."), { name: bdi(name(closed.trick.winner)) }));
  if (closed?.hand) {
    out.push([t("Hand {n} is over.", { n: closed.hand.hand })]);
    if (e.next_hand) out.push([t("Hand {n} is dealt.", { n: e.next_hand })]);
  }
  return out;
}
