// The picture of a position, shared by the live table and the replay: the seats around the
// table (names, hand sizes, trumps, scores, clocks) and its centre (the Svoi Kozyri pile, or
// the Twenty-Five turn-up, trick and scores). Views and positions are the dicts of docs/views.md and docs/positions.md.
//
// A model is {game, view, name(s) → text, info(s) → seat info or null, me (seat at the
// bottom or null), toMove, clock(s) → seconds or null, reveal (show every hand), fresh,
// held (the trick the latest move finished, from the event's `closed`: shown, with its
// winner, until the next card, also when the view already shows the next deal), over (the
// game has ended: the last trick stays whole, never gathered), round (the live table: seats
// placed around it and each trick card in front of its player, seating.js), from (the seat
// whose card just arrived)}.

import { bdi, el, fill } from "./dom.js";
import { cardBack, cardFace, cardText, suitSymbol } from "./cards.js";
import { lang, levelName, listed, num, plural, reasonName, t } from "./i18n.js";
import { trickNode as finishedTrick } from "./trickview.js";
import { seatPoint, towardSeat } from "./seating.js";

export const seatCount = (v) => (Array.isArray(v.hands) ? v.hands.length : 0);
const handSize = (hand) => (Array.isArray(hand) ? hand.length : hand?.count ?? 0);

/** Seats other than "me", in play order starting after me (everyone for a spectator). */
export function othersInOrder(n, me) {
  const start = me === null || me === undefined ? 0 : me + 1;
  const out = [];
  for (let i = 0; i < n; i++) {
    const s = (start + i) % n;
    if (s !== me) out.push(s);
  }
  return out;
}

export function formatClock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return num(`${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`);
}

export function clockNode(m, s) {
  const left = m.clock?.(s) ?? null;
  if (left === null) return null;
  return el("span", { class: `clock${left < 10 ? " low" : ""}`, "data-seat": s, role: "timer", "aria-label": t("time left") },
    formatClock(left));
}

/** Points per seat (or per team) in Twenty-Five: [label, points] pairs. */
function scoreRows(m) {
  const v = m.view;
  const scores = v.scores ?? [];
  if (Array.isArray(v.teams)) {
    return v.teams.map((team, i) => [fill(t("Team {n}: {names}"), { n: num(i + 1), names: listed(team.map((s) => bdi(m.name(s)))) }), scores[i] ?? 0, team]);
  }
  return scores.map((p, s) => [[bdi(m.name(s))], p, [s]]);
}

/** A name's initials for its avatar ("Olena Koval" → "OK", "medium bot 2" → "M2"). */
export function initials(name) {
  const words = String(name ?? "").trim().split(/\s+/).filter(Boolean);
  if (!words.length) return "?";
  const last = words.length > 1 ? words.at(-1) : "";
  const first = [...words[0]][0] ?? "?";
  const second = /^[0-9۰-۹]+$/.test(last) ? last : [...last][0] ?? "";
  return (first + second).toLocaleUpperCase();
}

/** A colour of its own for each name (the same name, the same colour on every screen). */
function hue(name) {
  let h = 7;
  for (const ch of String(name)) h = (h * 31 + ch.codePointAt(0)) % 360;
  return h;
}

/** The team seat s plays in (Twenty-Five with partners), or null. */
const teamOf = (v, s) => (Array.isArray(v.teams) ? v.teams.findIndex((team) => team.includes(s)) : -1);

/** One seat around the table: its plate (avatar, name, dealer mark, clock), marks (level,
 *  connection, trumps, points) and hand (a small fan of backs, or the cards known). */
export function seatBox(m, s) {
  const v = m.view;
  const info = m.info(s);
  const hand = v.hands?.[s];
  const count = handSize(hand);
  const toMove = m.toMove === s;
  const marks = [];
  // A bot's level, unless its name already says it ("medium bot").
  if (info?.bot && !m.name(s).startsWith(t("{level} bot", { level: levelName(info.bot) }))) {
    marks.push(el("span", { class: "badge", title: t("computer player") }, levelName(info.bot)));
  }
  if (info && !info.bot && info.taken && !info.connected && !info.left) marks.push(el("span", { class: "badge warn" }, t("offline")));
  if (info?.left) marks.push(el("span", { class: "badge warn" }, t("left: a bot plays the seat")));
  else if (info?.away) marks.push(el("span", { class: "badge warn" }, t("a bot plays for now")));
  if (info && !info.taken && !info.bot) marks.push(el("span", { class: "badge" }, t("waiting for a player")));
  const out = v.out ?? [];
  if (out.includes(s)) marks.push(el("span", { class: "badge good" }, t("out of cards")));
  if (m.game === "kozyri" && Array.isArray(v.trumps) && v.trumps[s]) {
    marks.push(el("span", { class: "trump-mark" }, fill(t("trumps {suit}"), { suit: suitSymbol(v.trumps[s]) })));
  }
  if (m.game === "twentyfive" && !Array.isArray(v.teams)) {
    marks.push(el("span", { class: "score" }, t("{n} points", { n: v.scores?.[s] ?? 0 })));
  }
  let cards;
  const countText = plural(count, t("{n} card"), t("{n} cards"));
  let countNode = el("span", { class: "count" }, countText);
  if (Array.isArray(hand) && (m.reveal || s === m.me)) {
    cards = el("div", { class: "mini-hand faces" }, hand.map((c) => cardFace(c, "mini")));
  } else if (m.round) {
    // the live table: the count as a small fan of backs and its number; the cards known
    // (a duel's whole hand, cards picked up) face up below
    const known = Array.isArray(hand) ? [] : hand?.known ?? [];
    countNode = el("span", { class: "count fan", title: countText },
      el("span", { class: "backs", "aria-hidden": "true" }, Array.from({ length: Math.min(count, 5) }, () => el("i"))),
      el("span", { "aria-hidden": "true" }, num(count)), el("span", { class: "sr-only" }, countText));
    cards = known.length ? el("div", { class: "mini-hand faces" }, known.map((c) => cardFace(c, "mini known"))) : null;
  } else {
    const known = Array.isArray(hand) ? [] : hand?.known ?? [];
    const backs = Math.min(Math.max(0, count - known.length), 10);
    cards = el("div", { class: "mini-hand", "aria-hidden": known.length ? null : "true" },
      Array.from({ length: backs }, () => cardBack("mini")), known.map((c) => cardFace(c, "mini known")));
  }
  const name = m.name(s);
  const team = teamOf(v, s);
  const dealer = v.dealer === s;
  const place = m.round ? seatPoint(m.view.hands?.length ?? 0, m.me, s) : null;
  return el("div", {
    class: `seat${toMove ? " to-move" : ""}${s === m.me ? " me" : ""}${team >= 0 ? ` team-${team}` : ""}`, "data-seat": s,
    "aria-current": toMove ? "true" : null,
    "data-x": place?.x, "data-y": place?.y, "data-top": place && place.y < 15 ? "true" : null, style: place ? `left:${place.x}%;top:${place.y}%` : null,
  },
  el("div", { class: "seat-head" },
    el("span", { class: "avatar", "aria-hidden": "true", style: `--hue:${hue(name)}` }, initials(name)),
    el("strong", { class: "seat-name" }, bdi(name)),
    dealer ? el("span", { class: "dealer", title: t("dealer") }, el("span", { "aria-hidden": "true" }, "D"),
      el("span", { class: "sr-only" }, t("dealer"))) : null,
    clockNode(m, s)),
  el("div", { class: "seat-marks" }, marks, countNode),
  cards);
}

/** Cards laid one over another (pile top, trick), each with an optional caption. */
function spread(items, cls) {
  return el("div", { class: `spread ${cls}` }, items.map(({ code, caption, fresh, from, seat, toward }) =>
    el("figure", { class: `laid${fresh ? " fresh" : ""}`, "data-seat": seat,
      style: [fresh ? `--from-y:${from}px` : "", toward ?? ""].filter(Boolean).join(";") || null },
    cardFace(code), caption ? el("figcaption", {}, caption) : null)));
}

function kozyriCentre(m) {
  const v = m.view;
  const pile = v.pile ?? [];
  const box = el("div", { class: "centre kozyri" });
  if (!pile.length && (v.hands ?? []).every((h) => handSize(h) === 0)) {
    box.append(el("p", { class: "note" }, t("Each player chooses a trump suit; then the cards are dealt.")));
    return box;
  }
  const shown = pile.slice(-5);
  const first = pile.length - shown.length;
  const fresh = m.fresh ?? 0; // how many of the top cards just arrived
  box.append(el("div", { class: "pile-area" },
    pile.length
      ? spread(shown.map((code, i) => {
        const isFresh = first + i >= pile.length - fresh;
        // on the live table a card played arrives from its player's seat
        const toward = isFresh && m.round && m.fromSeat !== null && m.fromSeat !== undefined
          ? towardSeat(seatCount(v), m.me, m.fromSeat) : null;
        return { code, fresh: isFresh, from: m.from ?? -120, toward };
      }), "pile")
      : el("div", { class: "pile-empty" }, t("The pile is empty.")),
    pile.length ? el("p", { class: "pile-count" }, plural(pile.length, t("Pile: {n} card"), t("Pile: {n} cards"))) : null,
    pickedUp(m)));
  if (pile.length > shown.length || m.reveal) {
    const all = el("details", { class: "whole-pile" },
      el("summary", {}, t("Show the whole pile")),
      el("p", { class: "note" }, t("Bottom first, top last.")),
      el("div", { class: "pile-list" }, pile.map((c) => cardFace(c, "mini"))));
    if (pile.length) box.append(all);
  }
  if (v.owes_second && v.to_move !== null && v.to_move !== undefined && v.to_move !== m.me) {
    box.append(el("p", { class: "note" }, fill(t("{name} beat the top card and plays a second card."), { name: bdi(m.name(v.to_move)) })));
  }
  const losses = v.losses;
  if ((v.rules?.match_losses ?? 1) > 1 && Array.isArray(losses)) {
    box.append(el("p", { class: "note" }, t("Hands lost (the match ends at {n}):", { n: v.rules.match_losses }), " ",
      losses.flatMap((k, s) => [s ? " · " : "", bdi(m.name(s)), ` ${num(k)}`])));
  }
  return box;
}

function twentyfiveCentre(m) {
  const v = m.view;
  const n = seatCount(v);
  const box = el("div", { class: "centre twentyfive" });
  // A robbed turn-up is in the robber's hand (their seat shows it as known): not by the stock.
  const turnup = el("div", { class: "turnup" },
    el("div", { class: "stock" }, cardBack(), v.turnup && !v.robbed ? cardFace(v.turnup, "turned") : null),
    el("p", {}, v.trump ? fill(t("Trumps: {suit}"), { suit: suitSymbol(v.trump) }) : ""),
    v.robbed ? el("p", { class: "note" }, fill(t("{name} robbed the turn-up."), { name: bdi(m.name(v.robbed.seat)) })) : null);
  const trick = v.trick ?? [];
  const last = (v.tricks ?? []).at(-1);
  let trickNode;
  if (trick.length) {
    const fresh = m.fresh ?? 0;
    trickNode = spread(trick.map((code, i) => {
      const s = (v.leader + i) % n;
      return { code, caption: bdi(m.name(s)), fresh: i >= trick.length - fresh, from: s === m.me ? 160 : -160,
        seat: s, toward: m.round ? towardSeat(n, m.me, s) : null };
    }), `trick${m.round ? " placed" : ""}`);
  } else if (m.held || last) {
    // Between tricks: the last one stays in view with its winner, then is gathered; at the
    // end of the game it stays as it is.
    trickNode = finishedTrick(m.held ?? last, n, m.name, m.me, { held: !!m.held && !m.over, placed: !!m.round });
  } else {
    trickNode = el("div", { class: "pile-empty" }, t("No cards played yet."));
  }
  if (m.round) {
    // the live table: the stock and turn-up in the middle of the trick, the scores above the table
    box.append(el("div", { class: "trick-area" }, turnup, trickNode));
  } else {
    box.append(turnup, el("div", { class: "trick-area" }, trickNode), scoresNode(m));
  }
  return box;
}

/** The Twenty-Five scores: a table of the teams' points, else the target (each seat shows
 *  its own points). */
export function scoresNode(m) {
  const v = m.view;
  const target = v.rules?.target;
  if (!Array.isArray(v.teams)) return el("p", { class: "note" }, target ? t("First to {n} points wins.", { n: target }) : "");
  return el("table", { class: "scores" },
    el("caption", {}, target ? t("Scores (first to {n})", { n: target }) : t("Scores")),
    el("tbody", {}, scoreRows(m).map(([label, points, seats]) =>
      el("tr", { class: seats.includes(m.me) ? "mine" : null }, el("th", { scope: "row" }, label), el("td", {}, num(points))))));
}

export function centreNode(m) {
  return m.game === "kozyri" ? kozyriCentre(m) : twentyfiveCentre(m);
}

/** The cards another player just picked up, leaving the pile for their seat (decoration:
 *  the log and the announcements say it in words). */
function pickedUp(m) {
  if (!m.taken || !m.round || m.taken.seat === m.me) return null;
  return el("div", { class: "taken", testid: "taken", "aria-hidden": "true",
    style: towardSeat(seatCount(m.view), m.me, m.taken.seat).replaceAll("--d", "--w") },
  m.taken.cards.map((code) => cardFace(code)));
}

/** What an action did, as nodes: "Olena played 10♥". */
export function actionNodes(name, action) {
  const who = bdi(name);
  if (!action) return fill(t("{name} moved."), { name: who });
  if (action === "take") return fill(t("{name} picked up from the pile."), { name: who });
  if (action.startsWith("trump ")) return fill(t("{name} chose {suit} as trumps."), { name: who, suit: suitSymbol(action.slice(6)) });
  if (action === "rob") return fill(t("{name} robbed the turn-up."), { name: who });
  if (action.startsWith("rob ")) {
    return fill(t("{name} robbed the turn-up, discarding {card}."), { name: who, card: cardText(action.slice(4)) });
  }
  // F17a: the dealer who turned up the joker discards face down; only they see the card.
  if (action === "discard") return fill(t("{name} took the turned-up joker and discarded a card."), { name: who });
  if (action.startsWith("discard ")) {
    return fill(t("{name} took the turned-up joker and discarded {card}."), { name: who, card: cardText(action.slice(8)) });
  }
  return fill(t("{name} played {card}."), { name: who, card: cardText(action) });
}

/** The outcome (docs/api.md, Outcome) as a sentence, from "me"'s point of view when seated. */
export function outcomeNodes(o, name, me) {
  const reason = el("span", { class: "reason" }, " ", t("({reason})", { reason: reasonName(o.reason) }));
  if (o.draw) return [t("The game is drawn."), reason];
  const mine = me !== null && me !== undefined;
  let head;
  if (mine && o.winners.includes(me)) head = t("You won!");
  else if (mine && o.losers.includes(me)) head = t("You lost.");
  if (o.winners.length > 1 && o.losers.length === 1) {
    // Svoi Kozyri with 3–4 players: one loser, everyone else wins (docs/api.md, Outcome).
    if (mine && o.losers[0] === me) return [head, reason];
    return [head ? `${head} ` : "", fill(t("{name} lost."), { name: bdi(name(o.losers[0])) }), reason];
  }
  return [head ? `${head} ` : "", fill(t("Winner: {names}."), { names: listNodes(o.winners.map(name)) }), reason];
}

function listNodes(names) {
  try {
    return new Intl.ListFormat(lang(), { type: "conjunction" }).formatToParts(names)
      .map((p) => (p.type === "element" ? bdi(p.value) : p.value));
  } catch {
    return names.flatMap((x, i) => (i ? [", ", bdi(x)] : [bdi(x)]));
  }
}
