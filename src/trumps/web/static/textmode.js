// The text mode (issue 18 §4; docs/accessibility.md#text-mode): a setting that replaces the
// drawn table with a short list of facts (whose turn, your hand in words, the trick or
// pile, trumps, scores, cards per player), re-rendered on every change of the table, and
// one command input whose answers go to a live region ("play ten of hearts", "hand",
// "how many cards has bot 2", "last trick", "help"…; textcmd.js reads them).
//
// Everything said comes from what the page receives: the legal actions, the game's
// reasons for a card that may not be played (`why_not`, worded by why.js), the view. The
// events themselves are announced by announce.js, as in the drawn table.

import { el, load, put, save } from "./dom.js";
import { botName, cardName, lang, listed, num, personName, plural, suitName, t } from "./i18n.js";
import { sortHand } from "./cards.js";
import { outcomeNodes } from "./board.js";
import { hintTemplate, whyText } from "./why.js";
import { spoken } from "./announce.js";
import { normalize, parseCommand, vocabulary } from "./textcmd.js";

const KEEP = 20; // answers kept on screen (a transcript, as in the terminal)

export const textModeOn = () => load("textmode") === "on";
const applyMode = () => { document.documentElement.dataset.textmode = textModeOn() ? "on" : "off"; };
applyMode();

/** The header's setting (a checkbox, kept in localStorage); `onChange` redraws. */
export function textModeSetting(onChange) {
  const box = el("input", {
    type: "checkbox", id: "text-mode", testid: "text-mode", checked: textModeOn(),
    onchange: (e) => { save("textmode", e.target.checked ? "on" : null); applyMode(); onChange?.(); },
  });
  return el("label", { class: "check", for: "text-mode", title: t("The table as a list of facts and typed commands, for screen readers") },
    box, " ", t("Text mode"));
}

/** @type {import("./app.js").Context} */
let ctx = null; // app.js: {play, send, current, canAct}
let parts = null;
let vocabs = null;

/** Build the text table into the table's section `root` (after table.js built it). */
export function mountText(root, context) {
  ctx = context;
  vocabs = lang() === "en" ? [vocabulary((x) => x)] : [vocabulary(t), vocabulary((x) => x)];
  const input = el("input", {
    id: "text-command", testid: "text-command", autocomplete: "off", autocapitalize: "off", spellcheck: "false",
    "aria-describedby": "text-command-help",
  });
  parts = {
    facts: el("ul", { class: "text-facts", testid: "text-facts" }),
    input,
    answers: el("div", { class: "text-answers", testid: "text-answers", role: "log", "aria-live": "polite", tabindex: "0",
      "aria-label": t("Answers") }),
    hintSaid: null,
  };
  const form = el("form", { class: "text-form", onsubmit: (e) => { e.preventDefault(); submit(); } },
    el("label", { for: "text-command" }, t("Command")), input,
    el("p", { id: "text-command-help", class: "note" }, t("Type help for the list of commands.")));
  const panel = el("section", { class: "text-table", testid: "text-table", "aria-labelledby": "text-table-head" },
    el("h3", { id: "text-table-head" }, t("The table in words")), parts.facts, form, parts.answers);
  const head = root.querySelector(".t-head");
  if (head) head.after(panel);
  else root.prepend(panel);
}

/** On entering a table in text mode: the focus in the command input. */
export function textEntered() {
  if (textModeOn() && parts?.input.isConnected) parts.input.focus({ preventScroll: true });
}

/** Refresh the facts for table tb (after table.js drew it); say a hint that arrived. */
export function renderText(tb) {
  if (!parts || !tb || !textModeOn()) return;
  put(parts.facts, facts(tb).map(([key, text]) => el("li", { "data-fact": key }, text)));
  const h = tb.hint;
  if (h && !h.pending && h.event === tb.event && parts.hintSaid !== h) {
    parts.hintSaid = h;
    answer(hintTemplate(h.why).replace("{action}", actionWords(tb, h.action)));
  }
}

function answer(text) {
  if (!text) return;
  parts.answers.append(el("p", {}, text));
  while (parts.answers.childElementCount > KEEP) parts.answers.firstElementChild.remove();
  parts.answers.scrollTop = parts.answers.scrollHeight;
}

// ------------------------------------------------------------------ facts

/** A seat's name as the drawn table says it (table.js): the person's, the bot's, or "Seat n". */
function name(tb, s) {
  const info = tb.seats[s];
  if (info?.bot) return botName(info);
  if (info?.name || info?.taken) return personName(info.name); // no name chosen: "Guest"
  return t("Seat {n}", { n: s + 1 });
}
const myHand = (tb) => (tb.seat !== null && Array.isArray(tb.view.hands?.[tb.seat]) ? tb.view.hands[tb.seat] : []);
const handSize = (hand) => (Array.isArray(hand) ? hand.length : hand?.count ?? 0);
const tableNode = (selector) => document.querySelector("#table " + selector);
// Parts joined by spaces (no template literals here: Babel's extractor misreads t() in them).
const join = (...parts) => parts.filter(Boolean).join(" ");

function facts(tb) {
  const out = [["turn", turnFact(tb)]];
  if (tb.seat !== null) out.push(["hand", handFact(tb)]);
  const moves = movesFact(tb);
  if (moves) out.push(["moves", moves]);
  out.push(...centreFacts(tb));
  const score = scoreFact(tb);
  if (score) out.push(["score", score]);
  out.push(["counts", countsFact(tb)]);
  return out.filter(([, text]) => text);
}

/** Whose turn, and on mine what to do (the page's own prompt); the result at the end. */
function turnFact(tb) {
  if (tb.outcome) return spoken(el("p", {}, outcomeNodes(tb.outcome, (s) => name(tb, s), tb.seat)));
  const turn = spoken(tableNode("[data-testid='turn']"));
  return ctx.canAct(tb) ? join(turn, spoken(tableNode(".me-area .prompt"))) : turn;
}

/** "Your hand, 5 cards: Spades: king, nine. Hearts: ace." (by suit, as the hand is drawn). */
function handFact(tb) {
  const hand = myHand(tb);
  const head = plural(hand.length, t("Your hand, {n} card:"), t("Your hand, {n} cards:"));
  if (!hand.length) return head;
  const v = vocabs[0];
  const myTrump = tb.game === "kozyri" ? tb.view.trumps?.[tb.seat] : tb.view.trump;
  const groups = [];
  for (const c of sortHand(hand, myTrump)) {
    const suit = c === "JK" ? "JK" : c[1];
    if (groups.at(-1)?.suit !== suit) groups.push({ suit, ranks: [] });
    groups.at(-1).ranks.push(c === "JK" ? cardName(c) : v.ranks[c[0]]);
  }
  return [head, ...groups.map((g) => (g.suit === "JK" ? g.ranks.join(" ") + "."
    : t("{suit}: {ranks}.", { suit: suitName(g.suit), ranks: listed(g.ranks).join("") })))].join(" ");
}

/** What I may do now, each as words: "You can play: ten of hearts, take 3 cards." */
function movesFact(tb) {
  if (!ctx.canAct(tb) || !tb.legal.length) return "";
  const of = (head) => tb.legal.filter((a) => a.startsWith(head)).map((a) => cardName(a.slice(head.length)));
  const robs = of("rob ");
  const discards = of("discard ");
  const rest = tb.legal.filter((a) => !a.startsWith("rob ") && !a.startsWith("discard "));
  const said = [];
  if (rest.length) said.push(t("You can play: {cards}.", { cards: listed(rest.map((a) => actionWords(tb, a))).join("") }));
  if (robs.length) said.push(join(t("Rob the turn-up {card}, discarding:", { card: cardName(tb.view.turnup) }), listed(robs).join("") + "."));
  if (discards.length) said.push(join(t("Discard face down:"), listed(discards).join("") + "."));
  return said.join(" ");
}

/** An action in words: a card's name, "take 3 cards", "trumps: hearts", "rob, discarding …". */
function actionWords(tb, a) {
  if (a === "take") {
    const n = tb.view.take_count ?? null;
    return n === null ? t("Take from the pile") : plural(n, t("Take {n} card"), t("Take {n} cards"));
  }
  if (a.startsWith("trump ")) return t("Trumps: {suit}", { suit: suitName(a.slice(6)) });
  if (a.startsWith("rob ")) return t("Rob, discarding {card}", { card: cardName(a.slice(4)) });
  if (a.startsWith("discard ")) return t("Discard {card} face down", { card: cardName(a.slice(8)) });
  return cardName(a);
}

const laid = (tb, cards, first, n) => listed(cards.map((c, i) =>
  t("{card} ({name})", { card: cardName(c), name: name(tb, (first + i) % n) }))).join("");

/** The trick or the pile, and trumps. */
function centreFacts(tb) {
  const v = tb.view;
  const n = v.hands?.length ?? 0;
  if (!n) return [];
  if (tb.game === "kozyri") {
    const pile = v.pile ?? [];
    const out = [];
    if (pile.length) {
      out.push(["pile", join(plural(pile.length, t("Pile: {n} card"), t("Pile: {n} cards")) + ".", t("Top card: {card}.", { card: cardName(pile.at(-1)) }))]);
    } else if ((v.hands ?? []).some((h) => handSize(h) > 0)) {
      out.push(["pile", t("The pile is empty.")]);
    }
    if (v.owes_second && v.to_move !== null && v.to_move !== undefined && v.to_move !== tb.seat) {
      out.push(["second", t("{name} beat the top card and plays a second card.", { name: name(tb, v.to_move) })]);
    }
    const trumps = (Array.isArray(v.trumps) ? v.trumps : []).flatMap((s, i) => (s ? [[name(tb, i), suitName(s)].join(" ")] : []));
    if (trumps.length) {
      out.push(["trumps", t("Trumps: {list}.", { list: listed(trumps).join("") })]);
    } else {
      out.push(["trumps", t("Each player chooses a trump suit; then the cards are dealt.")]);
    }
    return out;
  }
  const out = [];
  const trick = v.trick ?? [];
  if (trick.length) out.push(["trick", t("The trick: {cards}.", { cards: laid(tb, trick, v.leader, n) })]);
  else if (tb.closed?.trick) out.push(["trick", t("{name} won the trick.", { name: name(tb, tb.closed.trick.winner) })]);
  else out.push(["trick", t("No card has been played to the trick.")]);
  if (v.turnup && v.trump) out.push(["trumps", t("Turn-up {card}, trumps {suit}.", { card: cardName(v.turnup), suit: suitName(v.trump) })]);
  else if (v.trump) out.push(["trumps", t("Trumps: {suit}", { suit: suitName(v.trump) })]);
  if (v.robbed) out.push(["robbed", t("{name} robbed the turn-up.", { name: name(tb, v.robbed.seat) })]);
  return out;
}

/** Twenty-Five: the points per seat or team. Svoi Kozyri: who is out, the hands lost. */
function scoreFact(tb) {
  const v = tb.view;
  if (tb.game === "twentyfive") {
    const scores = v.scores ?? [];
    const side = (i) => (Array.isArray(v.teams)
      ? t("Team {n}: {names}", { n: i + 1, names: listed(v.teams[i].map((s) => name(tb, s))).join("") })
      : name(tb, i));
    return scores.length ? t("Scores: {list}.", { list: listed(scores.map((p, i) => join(side(i), t("{n} points", { n: p })))).join("") }) : "";
  }
  const said = [];
  const out = v.out ?? [];
  if (out.length) said.push(t("Out of cards: {names}.", { names: listed(out.map((s) => name(tb, s))).join("") }));
  if ((v.rules?.match_losses ?? 1) > 1 && Array.isArray(v.losses)) {
    said.push(join(t("Hands lost (the match ends at {n}):", { n: v.rules.match_losses }), listed(v.losses.map((k, s) => join(name(tb, s), num(k)))).join("") + "."));
  }
  return said.join(" ");
}

function countsFact(tb) {
  const hands = tb.view.hands ?? [];
  if (!hands.length) return "";
  return t("Cards in hand: {list}.", { list: listed(hands.map((h, s) => join(name(tb, s), plural(handSize(h), t("{n} card"), t("{n} cards"))))).join("") });
}

/** The latest finished trick: this hand's, else the last of the hand before. */
function lastTrick(tb) {
  return (tb.view.tricks ?? []).at(-1) ?? tb.closed?.trick ?? (tb.hands ?? []).at(-1)?.tricks.at(-1) ?? null;
}

// ------------------------------------------------------------------ commands

function submit() {
  const text = parts.input.value;
  if (!text.trim()) return;
  parts.input.value = "";
  const tb = ctx.current();
  const cmd = parseCommand(text, vocabs);
  answer(tb ? reply(tb, cmd) : t("You are not at a table."));
}

/** The answer to command `cmd` at table tb (a move sent answers nothing: its event is
 *  announced when the table moves on). */
function reply(tb, cmd) {
  const get = (key) => facts(tb).filter(([k]) => k === key).map(([, text]) => text).join(" ");
  switch (cmd.kind) {
    case "empty": return "";
    case "help": return helpText();
    case "hand": return tb.seat === null ? t("You are watching: you hold no cards.") : [get("hand"), get("moves")].filter(Boolean).join(" ");
    case "table": return [get("turn"), get("trick"), get("pile"), get("second"), get("trumps"), get("robbed")].filter(Boolean).join(" ");
    case "score": return get("score") || (tb.game === "kozyri" ? get("counts") : t("No points yet."));
    case "counts": return get("counts");
    case "moves": return get("moves") || get("turn");
    case "last": return lastTrickText(tb);
    case "count": return countText(tb, cmd.name);
    case "hint": return askHint(tb);
    case "unknown":
      return t("“{text}” is not a command. Type {help} for the list.", { text: cmd.text, help: vocabs[0].words.help[0] });
    default: return playText(tb, cmd);
  }
}

function helpText() {
  const w = vocabs[0].words;
  const card = t("<card>");
  const commands = [
    join(w.play[0], card), w.take[0], join(w.rob[0], card), join(w.discard[0], card), join(w.trump[0], t("<suit>")),
    w.hand[0], w.table[0], w.score[0], w.last[0], w.moves[0], w.counts[0],
    vocabs[0].count[0].replace("{name}", t("<name>")), w.hint[0], w.help[0],
  ];
  return t("Type a card to play it ({example} or {code}), or a command: {commands}.",
    { example: cardName("TH"), code: "10h", commands: listed(commands).join("") });
}

function lastTrickText(tb) {
  if (tb.game !== "twentyfive") return t("Svoi Kozyri has no tricks.");
  const trick = lastTrick(tb);
  if (!trick) return t("No trick has been finished yet.");
  const n = tb.view.hands?.length ?? trick.cards.length;
  return join(t("The last trick:"), laid(tb, trick.cards, trick.leader, n) + ".", t("{name} won the trick.", { name: name(tb, trick.winner) }));
}

function countText(tb, typed) {
  const hands = tb.view.hands ?? [];
  const want = normalize(typed);
  const names = hands.map((_, s) => name(tb, s));
  let seats = names.map((x, s) => [normalize(x), s]).filter(([x]) => x === want).map(([, s]) => s);
  if (!seats.length) seats = names.map((x, s) => [normalize(x), s]).filter(([x]) => x.includes(want)).map(([, s]) => s);
  if (seats.length === 1) {
    const s = seats[0];
    return t("{name} has {cards}.", { name: names[s], cards: plural(handSize(hands[s]), t("{n} card"), t("{n} cards")) });
  }
  if (seats.length > 1) return t("Which player: {names}?", { names: listed(seats.map((s) => names[s])).join("") });
  return t("No player is called {name}. The players: {names}.", { name: typed, names: listed(names).join("") });
}


function askHint(tb) {
  if (!tb.seats.every((s) => s.seat === tb.seat || !!s.bot) || tb.seat === null) return t("Hints are for games against the computer only.");
  if (tb.rated) return t("No hints in rated games."); // the server refuses them (rated_no_hints)
  if (!ctx.canAct(tb)) return t("A hint is for your turn.");
  if (ctx.send({ type: "hint", table_id: tb.id })) tb.hint = { pending: true, event: tb.event };
  return ""; // the hint is said when it comes (renderText)
}

/** A move: sent when it is legal now, else the reason (the game's, from the server) and what
 *  can be played. */
function playText(tb, cmd) {
  const w = vocabs[0].words;
  if (cmd.kind !== "take" && (cmd.kind === "trump" ? !cmd.suit : !cmd.card)) {
    const robs = tb.legal.filter((a) => a.startsWith(cmd.kind + " "));
    if ((cmd.kind === "rob" || cmd.kind === "discard") && !cmd.bad && robs.length === 1 && ctx.canAct(tb)) return send(tb, robs[0]);
    if (cmd.kind === "trump") return t("“{text}” is not a suit: say {example}.", { text: cmd.bad, example: join(w.trump[0], suitName("H")) });
    if (cmd.bad) return t("“{text}” is not a card: say {example} or {code}.", { text: cmd.bad, example: cardName("TH"), code: "10h" });
    return t("Which card? Say {example}.", { example: join(w[cmd.kind][0], cardName("TH")) });
  }
  if (tb.seat === null) return t("You are watching: you cannot play at this table.");
  const action = cmd.kind === "play" ? cmd.card : cmd.kind === "take" ? "take"
    : cmd.kind === "trump" ? "trump " + cmd.suit : join(cmd.kind, cmd.card);
  if (tb.outcome) return t("That game is over.");
  if (tb.sent) return t("Sending your move…");
  if (tb.to_move !== tb.seat) return t("It is not your turn.");
  if (!ctx.canAct(tb)) return t("That move is not allowed now.");
  if (tb.legal.includes(action)) return send(tb, action);
  let why = whyText(tb.why_not?.[action]);
  if (!why && cmd.kind === "play" && !myHand(tb).includes(cmd.card)) why = whyText({ code: "not_in_hand", cards: [cmd.card] });
  return [why ?? t("That move is not allowed now."), movesFact(tb)].filter(Boolean).join(" ");
}

function send(tb, action) {
  ctx.play(tb, action);
  return "";
}
