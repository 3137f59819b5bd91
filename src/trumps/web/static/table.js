// The live table: opponents around, the centre, your hand at the bottom with the legal
// cards raised, prompts (beat or take, rob, the joker's discard, choose trumps), the turn and clocks, hints, the
// game log, chat and the result with a rematch (resultview.js).
//
// The section is built once (so that the aria-live log and chat only announce new lines)
// and its parts are refreshed on every change of the table.

import { bdi, el, fill, put, reducedMotion } from "./dom.js";
import { cardImage, cardText, isCard, sortHand, suitSymbol } from "./cards.js";
import { rulesLine } from "./rulesview.js";
import { botName, cardName, gameName, levelName, listed, num, personName, plural, suitName, t } from "./i18n.js";
import { centreNode, clockNode, formatClock, othersInOrder, scoresNode, seatBox } from "./board.js";
import { fitSeats } from "./seating.js";
import { clockLeft } from "./net.js";
import { hintTemplate, whyText } from "./why.js";
import { walkthrough } from "./help.js";
import { handOrder, layoutHand, markArrivals } from "./handview.js";
import { holdHand, stopCounting } from "./handpause.js";
import { arrange, dragToArrange } from "./handdrag.js";
import { handSummary, previousTrick, trickHold, trickNode } from "./trickview.js";
import { afterRender, enterTable, mountA11y } from "./a11y.js";
import { onHelpKey } from "./keyhelp.js";
import { renderResult } from "./resultview.js";
import { ratedBadge } from "./ratings.js";
import { soundButton } from "./sound.js";
import { phraseButtons } from "./phrases.js";
import { renderTakeback, takebackParts } from "./takebackview.js";
import { chatList, forgetLists, logList } from "./tablelog.js";

/** @type {import("./app.js").Context} */
let ctx = null; // app.js: {send, play, leave, rematch, status, current, …}
/** @type {Record<string, any>} */
let parts = null; // the section's persistent elements
const shown = new WeakMap(); // table → what was drawn last (to animate only new cards)
let started = false; // the resize listener and the clock ticker are set up once

export const canAct = (tb) => tb.seat !== null && !tb.outcome && !tb.sent && !tb.offline && !tb.replaced
  && tb.to_move === tb.seat;

/** A seat's display name: the person's or bot's name, else its level, else "open seat". */
function seatLabel(tb, s) {
  const info = tb.seats[s];
  if (info?.bot) return botName(info);
  if (info?.name || info?.taken) return personName(info.name); // no name chosen: "Guest"
  return t("Seat {n}", { n: s + 1 });
}

/** Every other seat is a bot: hints are allowed (the server checks too). */
const againstComputer = (tb) => tb.seat !== null && tb.seats.every((s) => s.seat === tb.seat || !!s.bot);

const inviteUrl = (id) => `${location.origin}/?table=${encodeURIComponent(id)}`;

/** Build the section's skeleton into `root`; call again after a language change. */
export function mountTable(root, context) {
  ctx = context;
  parts = {
    title: el("h2", { class: "t-title" }),
    turn: el("p", { class: "turn", testid: "turn" }),
    watchers: el("p", { class: "watchers note", testid: "spectators", hidden: true }),
    invite: el("input", { id: "invite-link", testid: "invite-link", readonly: true, class: "invite-input" }),
    opponents: el("div", { class: "opponents" }),
    centre: el("div", { class: "centre-wrap" }),
    meInfo: el("div", { class: "me-info" }),
    prompt: el("p", { class: "prompt" }),
    why: el("p", { class: "why-not", testid: "why-not", "aria-live": "polite" }),
    walk: el("div", { class: "walk-slot" }),
    words: el("div", { class: "word-actions" }),
    hand: el("div", { class: "hand", testid: "hand", role: "group", "aria-label": t("Your hand") }),
    hint: el("button", { type: "button", class: "ghost", testid: "hint", onclick: askHint }, t("Hint")),
    // where the Hint button would be at a rated game against the computer: why it is not
    noHints: el("span", { class: "no-hints note", testid: "no-hints", hidden: true }, t("No hints in rated games.")),
    hintOut: el("div", { class: "hint-out", "aria-live": "polite" }),
    result: el("div", { class: "result", testid: "result", role: "status", hidden: true }),
    resign: el("button", { type: "button", class: "ghost", testid: "resign", onclick: resign }, t("Resign")),
    lastTrick: el("button", { type: "button", class: "ghost", testid: "last-trick", "aria-expanded": "false", onclick: toggleLastTrick }, t("Last trick")),
    lastTrickOut: el("div", { class: "last-trick-out", testid: "last-trick-view", hidden: true }),
    leave: el("button", { type: "button", class: "ghost", testid: "leave", onclick: () => ctx.leave(ctx.current()) }),
    log: el("ol", { class: "log", testid: "log", "aria-label": t("Game log") }),
    chat: el("ul", { class: "log chat", "aria-live": "polite", "aria-relevant": "additions", "aria-label": t("Chat") }),
  };
  parts.takeback = takebackParts(ctx, (tb) => renderTable(tb));
  parts.inviteBox = el("div", { class: "invite layer", hidden: true },
    el("label", { for: "invite-link" }, t("Invite link")), parts.invite,
    el("button", { type: "button", onclick: copyInvite }, t("Copy")));
  parts.me = el("div", { class: "me-area" }, parts.meInfo, parts.prompt, parts.words, parts.hand);
  dragToArrange(parts.hand, (order) => { // the player's own order of the hand (handdrag.js)
    const tb = ctx.current();
    if (!tb) return;
    tb.arranged = order;
    renderTable(tb);
  });
  parts.scores = el("div", { class: "t-scores", testid: "table-scores" });
  parts.summary = el("div", { class: "summary-slot" });
  parts.side = el("div", { class: "t-side", id: "table-side" });
  parts.sideToggle = el("button", { type: "button", class: "ghost side-toggle", testid: "side-toggle",
    "aria-controls": "table-side", "aria-expanded": "false", onclick: toggleSide }, t("Log and chat"),
  el("span", { class: "unread", testid: "chat-unread", hidden: true }));
  const chatInput = el("input", { id: "chat-input", maxlength: 300, autocomplete: "off", required: true });
  const chatForm = el("form", { class: "inline", onsubmit: (e) => {
    e.preventDefault();
    const tb = ctx.current();
    const text = chatInput.value.trim();
    if (tb && text && ctx.send({ type: "chat", table_id: tb.id, text })) chatInput.value = "";
  } }, el("label", { for: "chat-input", class: "sr-only" }, t("Message")), chatInput,
  el("button", { type: "submit" }, t("Send")));
  put(parts.side,
    el("details", { class: "box", open: true }, el("summary", {}, t("Game log")), parts.log),
    el("details", { class: "box chat-box", ontoggle: () => noteChatSeen() }, el("summary", {}, t("Chat")), parts.chat,
      phraseButtons((code) => { const tb = ctx.current(); if (tb) ctx.send({ type: "chat", table_id: tb.id, text: code }); }),
      chatForm));
  // The round: the other seats around the table, the pile or trick in the middle, and the
  // layers that speak of the game (the first-game tips, the invite, a hand's summary, the
  // result) over it, so that nothing moves when one appears. Then my plate and hand.
  parts.round = el("div", { class: "round", testid: "round" },
    parts.opponents, parts.centre,
    el("div", { class: "layers upper" }, parts.walk),
    el("div", { class: "layers" }, parts.inviteBox, parts.takeback.layer, parts.summary, parts.lastTrickOut, parts.result));
  // What speaks of my next move, just above my hand: why a card cannot be played, the hint.
  parts.bubbles = el("div", { class: "bubbles" }, parts.why, parts.hintOut);
  put(root,
    el("div", { class: "t-head" },
      el("div", { class: "t-what" }, parts.title, parts.scores),
      el("div", { class: "t-now" }, parts.turn, parts.watchers),
      el("div", { class: "t-tools" }, parts.hint, parts.noHints, parts.takeback.button, parts.lastTrick, parts.resign, parts.leave,
        soundButton(), parts.sideToggle)),
    el("div", { class: "felt" }, parts.round, el("div", { class: "me-wrap" }, parts.bubbles, parts.me)),
    parts.side);
  parts.hand.addEventListener("keydown", onHandKey);
  mountA11y(root, parts); // headings, the announcements, the focus (a11y.js)
  if (!started) {
    started = true;
    window.addEventListener("resize", () => {
      layoutHand(parts?.hand);
      fitSeats(parts?.opponents);
    });
    setInterval(tick, 250);
  }
}

/** On a narrow screen the log and chat are a panel over the table, opened by a button. */
function toggleSide() {
  const open = !document.documentElement.classList.contains("side-open");
  document.documentElement.classList.toggle("side-open", open);
  parts.sideToggle.setAttribute("aria-expanded", String(open));
  if (open) noteChatSeen();
}

/** The chat lines the player has seen: those shown when the chat was last open. */
function noteChatSeen() {
  const tb = ctx?.current();
  const chatOpen = parts.chat.closest("details")?.open;
  const sideShown = document.documentElement.classList.contains("side-open") || getComputedStyle(parts.side).position !== "absolute";
  if (tb && chatOpen && sideShown) tb.chatSeen = tb.chatSeq;
  if (tb) renderUnread(tb);
}

function renderUnread(tb) {
  const unread = Math.max(0, (tb.chatSeq ?? 0) - (tb.chatSeen ?? 0));
  const badge = parts.sideToggle.querySelector(".unread");
  badge.hidden = unread === 0;
  badge.textContent = unread ? num(unread) : "";
  badge.setAttribute("aria-label", unread ? plural(unread, t("{n} unread message"), t("{n} unread messages")) : "");
}

// ------------------------------------------------------------------ rendering

/** Refresh everything shown for table tb. */
export function renderTable(tb) {
  if (!parts || !tb) return;
  const focused = /** @type {HTMLElement | null} */ (document.activeElement?.closest?.("[data-focus-key]"))?.dataset.focusKey ?? null;
  const role = tb.seat === null ? t("watching") : t("you are {name}", { name: seatLabel(tb, tb.seat) });
  put(parts.title, el("span", {}, gameName(tb.game)), " ", tb.rated ? [ratedBadge(), " "] : null, el("small", {}, bdi(role)),
    el("small", { class: "t-rules", testid: "table-rules" },
      rulesLine(ctx.catalog?.games?.find((g) => g.id === tb.game), tb.rules)));
  put(parts.turn, ...turnNodes(tb));
  parts.turn.classList.toggle("mine", canAct(tb) || (tb.seat === tb.to_move && tb.sent));
  // Hooks for tests and assistive tools: the event shown, and whether I may act now.
  parts.turn.dataset.mine = String(canAct(tb));
  const section = parts.turn.closest("[data-testid='table']");
  if (section) {
    section.dataset.event = String(tb.event);
    section.dataset.pace = tb.bot_pace; // a finished trick is held as the table's pace says
    section.style.setProperty("--trick-hold", `${trickHold(tb.bot_pace)}s`);
  }
  if (tb.seat !== null && !parts.walk.firstChild) {
    const box = walkthrough(); // a first game: shown until dismissed for good
    if (box) parts.walk.append(box);
  }
  const open = tb.seats.some((s) => !s.taken && !s.bot);
  // The invite link is for a player at a table that still has a seat to fill: not for
  // spectators, nor once every seat is taken.
  parts.inviteBox.hidden = tb.seat === null || !open || !!tb.outcome;
  renderWatchers(tb);
  parts.invite.value = inviteUrl(tb.id);

  const model = liveModel(tb);
  const n = tb.view.hands?.length ?? 0;
  put(parts.opponents, ...othersInOrder(n, tb.seat).map((s) => seatBox(model, s)));
  parts.opponents.dataset.count = String(Math.max(1, n - (tb.seat === null ? 0 : 1)));
  put(parts.centre, centreNode(model));
  put(parts.scores, tb.game === "twentyfive" ? scoresNode(model) : null);
  renderClosed(tb);

  parts.me.hidden = tb.seat === null;
  if (tb.seat !== null) renderMe(tb, model);
  renderHint(tb);
  renderTakeback(tb, parts.takeback, seatLabel, againstComputer);
  renderResult(tb, parts.result, ctx, (s) => seatLabel(tb, s));
  parts.resign.hidden = tb.seat === null || !!tb.outcome || tb.to_move === null;
  parts.leave.textContent = tb.seat === null ? t("Stop watching") : tb.outcome ? t("Back to the lobby") : t("Leave the table");
  renderLog(tb);
  renderChat(tb);
  noteChatSeen();
  layoutHand(parts.hand);
  fitSeats(parts.opponents);
  if (focused) restoreFocus(focused);
  afterRender(tb, parts, { mine: canAct(tb), seatLabel });
}

/** Who watches the table (the server names the first few and counts everyone). */
function renderWatchers(tb) {
  const { count = 0, names = [] } = tb.spectators ?? {};
  parts.watchers.hidden = count === 0;
  if (!count) return put(parts.watchers);
  const more = count - names.length;
  put(parts.watchers, plural(count, t("{n} person watching:"), t("{n} people watching:")), " ",
    ...listed(names.map((x) => bdi(personName(x)))), more > 0 ? [" ", t("+{n} more", { n: more })] : "");
}
/** The table was just opened (app.js): from its top, the focus in the hand. */
export const tableEntered = () => enterTable(parts);

/** Put the focus back where it was; a card just played is gone: then the hand's first card. */
function restoreFocus(key) {
  /** @type {HTMLElement | null} */
  let node = document.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
  if (!node && /^(card|action)-/.test(key)) node = parts.hand.querySelector("button[tabindex='0']");
  if (!node) return;
  if (node.classList.contains("hcard")) {
    for (const c of parts.hand.querySelectorAll("button.hcard")) c.tabIndex = c === node ? 0 : -1;
  }
  node.focus({ preventScroll: true }); // the table never scrolls: no layout needed to show it
}

function liveModel(tb) {
  const prev = shown.get(tb);
  const v = tb.view;
  // Count the cards that arrived since the last drawing, to slide in only those.
  let fresh = 0;
  let from = -120;
  let fromSeat = null;
  let taken = null;
  if (!reducedMotion() && prev && prev.event < tb.event) {
    const now = tb.game === "kozyri" ? v.pile ?? [] : v.trick ?? [];
    const before = prev.cards;
    if (now.length > before.length && before.every((c, i) => now[i] === c)) fresh = now.length - before.length;
    const last = tb.log.at(-1);
    if (last?.seat === tb.seat) from = 140;
    fromSeat = last?.seat ?? null;
    // Svoi Kozyri: the top of the pile just picked up by another player goes to their seat
    if (last?.action === "take" && last.seat !== tb.seat && now.length < before.length
      && now.every((c, i) => before[i] === c)) taken = { cards: before.slice(now.length).slice(-5), seat: last.seat };
  }
  shown.set(tb, { event: tb.event, cards: [...(tb.game === "kozyri" ? v.pile ?? [] : v.trick ?? [])] });
  return {
    game: tb.game, view: v, name: (s) => seatLabel(tb, s), info: (s) => tb.seats[s] ?? null,
    me: tb.seat, toMove: tb.outcome ? null : tb.to_move, clock: (s) => clockLeft(tb, s), reveal: false,
    fresh, from, fromSeat, taken, round: true,
    held: (v.trick ?? []).length ? null : tb.closed?.trick ?? null, over: !!tb.outcome,
  };
}

/** After a hand: its summary (until closed, or the next hand's first trick is done; at the
 *  end of the game it stays); the "last trick" button while a new trick is on the table. */
function renderClosed(tb) {
  const hand = tb.hands.at(-1);
  const current = hand && (tb.outcome || (tb.view.hand === hand.hand + 1 && !(tb.view.tricks ?? []).length));
  if (!(current && tb.summaryClosed !== hand)) {
    put(parts.summary);
    stopCounting();
  }
  if (current && tb.summaryClosed !== hand) {
    const close = tb.outcome ? null : () => {
      if (tb.summaryClosed === hand) return;
      tb.summaryClosed = hand;
      // the next hand's bots wait for this (docs/protocol.md#continue)
      if (tb.seat !== null) ctx.send({ type: "continue", table_id: tb.id, hand: hand.hand });
      renderTable(tb);
    };
    put(parts.summary, handSummary(tb, hand, (s) => seatLabel(tb, s), close));
    holdHand(parts.summary, `${tb.id} ${hand.hand}`, close); // the pause setting (handpause.js)
  }
  const previous = tb.game === "twentyfive" ? previousTrick(tb) : null;
  parts.lastTrick.hidden = !previous;
  if (!previous) tb.lastTrickOpen = false;
  parts.lastTrick.setAttribute("aria-expanded", String(!!tb.lastTrickOpen));
  parts.lastTrickOut.hidden = !tb.lastTrickOpen;
  if (tb.lastTrickOpen) {
    put(parts.lastTrickOut, trickNode(previous, tb.view.hands?.length ?? 0, (s) => seatLabel(tb, s), tb.seat));
  }
}

function toggleLastTrick() {
  const tb = ctx.current();
  if (!tb) return;
  tb.lastTrickOpen = !tb.lastTrickOpen;
  renderTable(tb);
}

function turnNodes(tb) {
  if (tb.outcome) return [t("The game is over.")];
  if (tb.replaced) return [t("This game is open in another tab.")];
  if (tb.offline) return [t("Offline: the table waits for the connection.")];
  if (tb.to_move === null || tb.to_move === undefined) return [t("Waiting for players to sit down…")];
  if (tb.to_move === tb.seat) return [tb.sent ? t("Sending your move…") : t("Your turn.")];
  return fill(t("{name} to move."), { name: bdi(seatLabel(tb, tb.to_move)) });
}

/** My strip: name, trumps, clock, the prompt, word actions (take, rob, trumps) and hand. */
function renderMe(tb, model) {
  const v = tb.view;
  const me = tb.seat;
  const myTrump = tb.game === "kozyri" ? v.trumps?.[me] : v.trump;
  put(parts.meInfo,
    el("strong", {}, bdi(seatLabel(tb, me))),
    tb.game === "kozyri" && myTrump ? el("span", { class: "trump-mark" }, fill(t("your trumps: {suit}"), { suit: suitSymbol(myTrump) })) : null,
    tb.game === "twentyfive" && !Array.isArray(v.teams) ? el("span", { class: "score" }, t("{n} points", { n: v.scores?.[me] ?? 0 })) : null,
    clockNode(model, me));
  parts.meInfo.classList.toggle("to-move", tb.to_move === me && !tb.outcome);
  parts.meInfo.dataset.seat = String(me);

  const hand = Array.isArray(v.hands?.[me]) ? v.hands[me] : [];
  const mine = canAct(tb);
  const index = new Map(shortcutOrder(tb).map((a, i) => [a, i]));
  const words = tb.legal.filter((a) => !hand.includes(a));
  put(parts.prompt, ...(mine ? promptNodes(tb, hand, words) : []));

  // Word actions: take (with the count it would pick up), choose trumps; robbing the
  // turn-up and the joker's discard (F17a) offer the cards to put away.
  const robs = words.filter((a) => a.startsWith("rob "));
  const discards = words.filter((a) => a.startsWith("discard "));
  put(parts.words, ...words.filter((a) => !robs.includes(a) && !discards.includes(a)).map((a) =>
    actionButton(tb, a, index.get(a), wordLabel(tb, a))));
  if (robs.length) {
    parts.words.append(el("div", { class: "rob-offer", role: "group", "aria-label": t("Rob the turn-up") },
      el("span", {}, fill(t("Rob the turn-up {card}, discarding:"), { card: cardText(v.turnup) })),
      robs.map((a) => actionButton(tb, a, index.get(a), [cardImage(a.slice(4))],
        t("Rob, discarding {card}", { card: cardName(a.slice(4)) })))));
  }
  if (discards.length) {
    const label = t("Discard a card face down (you took the turned-up joker)");
    parts.words.append(el("div", { class: "rob-offer", role: "group", testid: "discard-offer", "aria-label": label },
      el("span", {}, t("Discard face down:")), // the prompt above says why
      discards.map((a) => actionButton(tb, a, index.get(a), [cardImage(a.slice(8))],
        t("Discard {card} face down", { card: cardName(a.slice(8)) })))));
  }

  const sorted = arrange(sortHand(hand, myTrump, handOrder() === "rank"), tb.arranged);
  const firstFocus = sorted.find((c) => index.has(c)) ?? sorted[0];
  if (parts.why.dataset.event !== String(tb.event)) put(parts.why); // a reason lasts one turn
  put(parts.hand, sorted.map((c) => {
    const legal = index.has(c);
    const i = index.get(c);
    const why = legal && mine ? null : blockedText(tb, c);
    const explain = () => {
      if (!why) return;
      put(parts.why, why);
      parts.why.dataset.event = String(tb.event);
    };
    return el("button", {
      type: "button", class: `hcard${legal && mine ? " legal" : ""}${tb.hint?.action === c ? " hinted" : ""}`,
      testid: `card-${c}`, "data-legal": String(legal), "data-focus-key": `card-${c}`, "data-card": c,
      "aria-label": shortcutName(legal && mine ? i : null, cardName(c)), "aria-keyshortcuts": shortcutKeys(legal && mine ? i : null),
      "aria-disabled": legal && mine ? null : "true",
      "aria-description": why, tabindex: c === firstFocus ? "0" : "-1",
      title: why ? `${cardName(c)} — ${why}` : cardName(c),
      onclick: () => { if (legal) ctx.play(tb, c); else explain(); },
      // on another's turn a click says so; focus put back by a re-render (from nowhere) says nothing
      onfocus: (e) => { if (mine && e.relatedTarget) explain(); },
    }, cardImage(c), legal && mine && i < 9 ? el("kbd", { "aria-hidden": "true" }, num(i + 1)) : null);
  }));
  parts.hand.dataset.count = String(hand.length);
  parts.hand.classList.toggle("my-turn", mine);
  markArrivals(parts.hand, tb, hand);
}

/** Why card `c` of my hand cannot be played now: the game's reason (the server's
 *  `why_not`), else that it is not my turn; null when it can be played. */
function blockedText(tb, c) {
  if (tb.seat === null || tb.outcome) return null;
  if (tb.to_move !== tb.seat) return t("It is not your turn.");
  if (tb.sent) return null;
  return whyText(tb.why_not?.[c]) ?? t("That move is not allowed now.");
}

function wordLabel(tb, action) {
  if (action === "take") {
    const n = takeCount(tb);
    return n === null ? t("Take from the pile") : plural(n, t("Take {n} card"), t("Take {n} cards"));
  }
  if (action.startsWith("trump ")) {
    const suit = action.slice(6);
    const symbol = suitSymbol(suit);
    symbol.setAttribute("aria-hidden", "true"); // the suit's name follows it
    return [symbol, " ", suitName(suit)];
  }
  return action;
}

/** How many cards `take` would pick up now: the game says so in the view (K12). */
const takeCount = (tb) => tb.view.take_count ?? null;

function promptNodes(tb, hand, words) {
  const v = tb.view;
  const cards = tb.legal.filter((a) => hand.includes(a));
  if (words.some((a) => a.startsWith("trump "))) return [t("Choose your trump suit.")];
  if (tb.game === "kozyri") {
    const top = (v.pile ?? []).at(-1);
    if (v.owes_second) return [t("You beat it: now play a second card.")];
    if (!top) return [t("Lead any card.")];
    const n = takeCount(tb);
    if (n === null) return fill(t("Beat {card}."), { card: cardText(top) }); // the view has it whenever a card is to beat
    if (!cards.length) {
      return fill(plural(n, t("You cannot beat {card}: take {n} card."), t("You cannot beat {card}: take {n} cards.")), { card: cardText(top) });
    }
    if (words.includes("take")) {
      return fill(plural(n, t("Beat {card} or take {n} card."), t("Beat {card} or take {n} cards.")), { card: cardText(top) });
    }
    return fill(t("Beat {card}."), { card: cardText(top) });
  }
  if (words.some((a) => a.startsWith("discard "))) {
    return [t("The turned-up joker is yours: choose a card to discard face down.")];
  }
  if (words.some((a) => a.startsWith("rob "))) return [t("You may rob the turn-up before you play.")];
  if (!(v.trick ?? []).length) return [t("Lead a card.")];
  // What the game says of the cards held back (F13, F14): the suit to follow, or a trump.
  const reasons = Object.values(tb.why_not ?? {});
  const follow = reasons.find((w) => w?.code === "must_follow");
  if (follow?.suit) return [t("Follow {suit} or play a trump.", { suit: suitName(follow.suit) })];
  if (reasons.some((w) => w?.code === "must_play_trump" || w?.code === "renege_only_vs_lower")) {
    return [t("A trump was led: play a trump.")];
  }
  return [t("Play a card to the trick.")];
}

/** The legal actions in the order their number keys go: the hand's playable cards as they
 *  are drawn (in reading order), then the word actions. */
function shortcutOrder(tb) {
  const v = tb.view;
  const hand = Array.isArray(v.hands?.[tb.seat]) ? v.hands[tb.seat] : [];
  const myTrump = tb.game === "kozyri" ? v.trumps?.[tb.seat] : v.trump;
  const cards = arrange(sortHand(hand, myTrump, handOrder() === "rank"), tb.arranged).filter((c) => tb.legal.includes(c));
  return [...cards, ...tb.legal.filter((a) => !hand.includes(a))];
}

function actionButton(tb, action, i, label, aria) {
  const mine = canAct(tb);
  const key = mine ? i : null;
  const badge = key !== null && key < 9;
  // The name holds what the button shows: its words then its badge, read from the content
  // ("Take 3 cards 1"); a button whose content is a picture (a card to discard) is named
  // by `aria`, its badge after it. A card of the hand shows only its badge, which starts
  // its name (below).
  return el("button", {
    type: "button", class: "word", testid: `action-${action.replaceAll(" ", "-")}`,
    "data-focus-key": `action-${action}`, disabled: !mine, "aria-keyshortcuts": shortcutKeys(key),
    "aria-label": aria ? (badge ? `${aria} ${num(key + 1)}` : aria) : null,
    onclick: () => ctx.play(tb, action),
  }, label, badge ? [" ", el("kbd", {}, num(key + 1))] : null);
}

/** A button's accessible name with the number key its badge shows first ("1 eight of
 *  spades"), so that the name holds what is seen (WCAG 2.5.3: a speech user says "click
 *  1"); without a badge, the name alone. */
const shortcutName = (i, name) => (i !== null && i !== undefined && i < 9 ? `${num(i + 1)} ${name}` : name);

/** The keys that press a button with badge number i+1: the Latin digit and, in a language
 *  that writes other digits (Persian), that digit too (the page takes both). */
function shortcutKeys(i) {
  if (i === null || i === undefined || i >= 9) return null;
  const keys = [String(i + 1), num(i + 1)];
  return [...new Set(keys)].join(" ");
}

function renderHint(tb) {
  const playing = againstComputer(tb) && !tb.outcome && tb.to_move !== null;
  const show = playing && !tb.rated; // a rated game has none (the server: rated_no_hints)
  parts.hint.hidden = !show;
  parts.noHints.hidden = !(playing && tb.rated);
  parts.hint.disabled = !canAct(tb) || tb.hint?.pending;
  const h = tb.hint;
  if (!show || !h || h.pending || h.event !== tb.event) {
    put(parts.hintOut);
    return;
  }
  // The bot's reason in words (the engine's own note, `reasoning`, is for debugging only).
  const label = actionLabel(tb, h.action);
  put(parts.hintOut, el("p", { testid: "hint-text" }, fill(hintTemplate(h.why), { action: label })));
}

/** An action as short nodes: a card, "take 3 cards", a suit, "rob, discarding 7♣",
 *  "discard 7♣ face down". */
function actionLabel(tb, action) {
  if (isCard(action)) return cardText(action);
  if (action.startsWith("rob ")) return fill(t("Rob, discarding {card}"), { card: cardText(action.slice(4)) });
  if (action.startsWith("discard ")) return fill(t("Discard {card} face down"), { card: cardText(action.slice(8)) });
  return el("span", {}, wordLabel(tb, action));
}

const words = { seatLabel, actionLabel };
const renderLog = (tb) => logList(parts.log, tb, words);
const renderChat = (tb) => chatList(parts.chat, tb);

/** Forget what the log and chat show (after a language change). */
export function resetLists() {
  forgetLists(parts?.log, parts?.chat);
}

// ------------------------------------------------------------------ input

function askHint() {
  const tb = ctx.current();
  if (!tb || !canAct(tb)) return;
  if (ctx.send({ type: "hint", table_id: tb.id })) {
    tb.hint = { pending: true, event: tb.event };
    renderTable(tb);
  }
}

function resign() {
  const tb = ctx.current();
  if (tb && window.confirm(t("Resign this game?"))) ctx.send({ type: "resign", table_id: tb.id });
}

async function copyInvite() {
  try {
    await navigator.clipboard.writeText(parts.invite.value);
    ctx.status(t("Invite link copied."), "info");
  } catch {
    parts.invite.select(); // no clipboard permission: leave it selected for Ctrl+C
    ctx.status(t("Press Ctrl+C to copy the selected link."), "info");
  }
}

/** Arrow keys move focus across the hand the way they point (the hand is laid right to left
 *  in a right-to-left language), Home/End jump to its first and last card; Enter and Space
 *  press the focused card (a button does that by itself). */
function onHandKey(e) {
  const cards = [...parts.hand.querySelectorAll("button.hcard")];
  const i = cards.indexOf(document.activeElement);
  if (i < 0) return;
  const ahead = getComputedStyle(parts.hand).direction === "rtl" ? -1 : 1;
  const moves = { ArrowRight: ahead, ArrowLeft: -ahead, ArrowUp: -1, ArrowDown: 1 };
  if (e.shiftKey && (e.key === "ArrowRight" || e.key === "ArrowLeft")) return moveCard(e, cards, i, i + moves[e.key]);
  let next = null;
  if (e.key in moves) next = (i + moves[e.key] + cards.length) % cards.length;
  else if (e.key === "Home") next = 0;
  else if (e.key === "End") next = cards.length - 1;
  if (next === null) return;
  e.preventDefault();
  for (const [k, c] of cards.entries()) c.tabIndex = k === next ? 0 : -1;
  cards[next].focus();
}

/** Shift with an arrow: the card in focus moves one place in the hand (the player's own
 *  arrangement, as a drag makes it), the focus staying on it. */
function moveCard(e, cards, from, to) {
  const tb = ctx.current();
  if (!tb || to < 0 || to >= cards.length) return;
  e.preventDefault();
  const order = cards.map((c) => c.dataset.card);
  order.splice(to, 0, ...order.splice(from, 1));
  tb.arranged = order;
  renderTable(tb); // the focus comes back to the card (data-focus-key)
}

/** Number keys 1–9 play the n-th legal action (the small numbers on the buttons). */
export function onTableKey(e, tb) {
  if (onHelpKey(e)) return true; // "?": the list of keys (keyhelp.js)
  if (!/^[1-9]$/.test(e.key) && !/^[۱-۹]$/.test(e.key)) return false;
  const n = /^[1-9]$/.test(e.key) ? Number(e.key) : "۰۱۲۳۴۵۶۷۸۹".indexOf(e.key);
  const action = shortcutOrder(tb)[n - 1];
  if (!action || !canAct(tb)) return false;
  ctx.play(tb, action);
  return true;
}

/** The clocks count down locally between server updates. */
function tick() {
  const tb = ctx?.current();
  // (the section's name, not the layout: asking whether the table is laid out would lay
  // the page out four times a second)
  if (!tb || !parts || document.documentElement.dataset.section !== "table") return;
  for (const span of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#table .clock[data-seat]"))) {
    const left = clockLeft(tb, Number(span.dataset.seat));
    if (left === null) continue;
    span.textContent = formatClock(left);
    span.classList.toggle("low", left < 10);
  }
}
