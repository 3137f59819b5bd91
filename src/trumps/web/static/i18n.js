// Translations: t("English text") looks the English msgid up in the catalog the server builds
// from its .po files (GET /i18n/{lang}.json); a missing catalog or entry falls back to the
// English text. Every msgid is a literal t("…") argument so that Babel's JavaScript
// extractor finds it: names of games, levels, suits… are literal tables below, never built.

import { load, save } from "./dom.js";

export const LANGS = [["en", "English"], ["fa", "فارسی"], ["pt", "Português"], ["fr", "Français"]];
const CODES = LANGS.map(([code]) => code);
const PERSIAN_DIGITS = "۰۱۲۳۴۵۶۷۸۹";

let current = "en";
let messages = {};
let plurals = new Intl.PluralRules("en");

export const lang = () => current;

/** The stored choice, else the first of the browser's languages we speak, else English. */
export function pickLang() {
  const stored = load("lang");
  if (CODES.includes(stored)) return stored;
  for (const tag of navigator.languages ?? [navigator.language ?? "en"]) {
    const code = String(tag).toLowerCase().slice(0, 2);
    if (CODES.includes(code)) return code;
  }
  return "en";
}

/** Load a language's catalog and set <html lang dir>; English needs no catalog. */
export async function setLang(code, remember = false) {
  if (!CODES.includes(code)) code = "en";
  let catalog = {};
  let dir = code === "fa" ? "rtl" : "ltr";
  if (code !== "en") {
    try {
      const res = await fetch(`/i18n/${code}.json`);
      if (res.ok) {
        const data = await res.json();
        catalog = data?.messages ?? {};
        if (data?.dir === "rtl" || data?.dir === "ltr") dir = data.dir;
      }
    } catch { /* no catalog yet: the English msgids are shown */ }
  }
  current = code;
  messages = catalog;
  plurals = new Intl.PluralRules(code);
  document.documentElement.lang = code;
  document.documentElement.dir = dir;
  if (remember) save("lang", code);
}

/** Persian digits for Persian, else the number as it is. Used for every number shown. */
export function num(value) {
  const text = String(value);
  return current === "fa" ? text.replace(/[0-9]/g, (d) => PERSIAN_DIGITS[Number(d)]) : text;
}

/** The translation of msgid with {placeholders} filled (numbers through num()); placeholders
 *  without a value stay, for fill() in dom.js to put nodes there. */
export function t(msgid, params) {
  let text = messages[msgid] || msgid;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (m, key) => {
      if (!(key in params)) return m;
      const v = params[key];
      return typeof v === "number" ? num(v) : String(v);
    });
  }
  return text;
}

/** Pick the singular or plural translation (both already t()'d) and fill {n}. */
export function plural(n, one, other) {
  const text = plurals.select(n) === "one" ? one : other;
  return text.replace("{n}", num(n));
}

// ------------------------------------------------------------------ names (literal tables)

// Each takes the server's own words (GET /api/catalog) as the fallback for a name the page
// does not know yet.

export function gameName(id, fallback = id) {
  return { kozyri: t("Svoi Kozyri"), twentyfive: t("Twenty-Five") }[id] ?? fallback;
}

/** A bot seat in the page's language: "medium bot", numbered as the server numbers the bots
 *  of one level at a table ("medium bot 2": the number ends the server's name). */
export function botName(seat) {
  const n = /\s(\d+)$/.exec(seat.name ?? "")?.[1];
  const name = t("{level} bot", { level: levelName(seat.bot) });
  return n ? `${name} ${num(Number(n))}` : name;
}

/** A person's name; one who chose none (the server sends null) is "Guest" in the page's
 *  language, never the word of the language that person came in. */
export function personName(name) {
  return name || t("Guest");
}

/** Items (strings or nodes) with the language's list separator between them ("، " in
 *  Persian): an array to spread into el() or put(). */
export function listed(items) {
  const sep = t(", ");
  return items.flatMap((x, i) => (i ? [sep, x] : [x]));
}

/** A name as a game's record stores it (in English, docs/records.md): the defaults a
 *  server or the page's own engine wrote for a person who chose no name ("Guest") and for
 *  a bot seat ("medium bot", "medium bot 2") in the page's language; a chosen name as it is. */
export function storedName(name) {
  if (name === "Guest") return t("Guest");
  const bot = /^(random|easy|medium|hard|expert) bot( \d+)?$/.exec(name ?? "");
  return bot ? botName({ bot: bot[1], name }) : name;
}

export function levelName(level, fallback = level) {
  return {
    random: t("random"), easy: t("easy"), medium: t("medium"), hard: t("hard"), expert: t("expert"),
  }[level] ?? fallback;
}

/** A preset's label; `info` is its catalog entry (doc, players, options), whose numbers the
 *  labels show rather than restating the game's. */
export function presetName(preset, info = null) {
  const players = info?.players;
  const target = info?.options?.target;
  const known = {
    // "seed" is the earlier name of "standard": tables and records may still carry it.
    standard: t("Standard"), seed: t("Standard"),
    pagat: players ? t("pagat.com: pick up any time, {n} players", { n: players }) : null,
    classic: t("Classic"), "as-written": t("As written"),
    "forty-five": target ? t("Forty-Five: first to {n}", { n: target }) : null,
  }[preset];
  return known ?? info?.doc ?? preset;
}

export function reasonName(reason) {
  return {
    out_of_cards: t("out of cards"), draw_rule: t("draw rule"), repetition: t("repetition"),
    max_plies: t("move limit"), target: t("target reached"), resigned: t("resignation"),
    timeout: t("time ran out"),
  }[reason] ?? reason;
}

export function suitName(suit) {
  return { S: t("spades"), H: t("hearts"), D: t("diamonds"), C: t("clubs") }[suit] ?? suit;
}

function rankName(rank) {
  return {
    A: t("ace"), K: t("king"), Q: t("queen"), J: t("jack"), T: t("ten"), 9: t("nine"),
    8: t("eight"), 7: t("seven"), 6: t("six"), 5: t("five"), 4: t("four"), 3: t("three"),
    2: t("two"),
  }[rank] ?? rank;
}

/** A card's rank as written beside its suit symbol in a sentence ("Q" of "Q♠"); number
 *  cards are written in the page's digits by the caller. A language without letters for
 *  the ranks writes their words (Persian: "بی‌بی♠"). */
export function rankMark(rank) {
  return {
    // i18n: the ace as written just before a suit symbol in a sentence (A♠): its letter, or the word in a language without one
    A: t("A"),
    // i18n: the king as written just before a suit symbol in a sentence (K♠): its letter, or the word in a language without one
    K: t("K"),
    // i18n: the queen as written just before a suit symbol in a sentence (Q♠): its letter, or the word in a language without one
    Q: t("Q"),
    // i18n: the jack as written just before a suit symbol in a sentence (J♠): its letter, or the word in a language without one
    J: t("J"),
  }[rank] ?? rank;
}

/** A card's spoken name: "ten of hearts" (screen readers, tooltips). */
export function cardName(code) {
  if (code === "JK") return t("joker");
  return t("{rank} of {suit}", { rank: rankName(code[0]), suit: suitName(code[1]) });
}

/** A translated line for an error code (the server's own message stays English). */
export function errorText(code) {
  return {
    bad_json: t("The server could not read a message."),
    unknown_type: t("The server did not understand a request."),
    bad_field: t("A request had a bad value."),
    too_large: t("A message was too large."),
    bad_version: t("This page is out of date: please reload it."),
    not_hello: t("The connection was not set up properly."),
    bad_token: t("Your saved session is no longer valid."),
    bad_rules: t("Those rules or seats are not possible for this game."),
    no_such_table: t("There is no such table."),
    table_full: t("That table has no open seat."),
    not_seated: t("You do not have a seat at that table."),
    not_your_turn: t("It is not your turn."),
    invalid_action: t("That is not a move."),
    illegal_action: t("That move is not allowed now."),
    stale_event: t("The table moved on before your move arrived."),
    game_over: t("That game is over."),
    rate_limited: t("Too many requests: please slow down."),
    hint_pending: t("Your hint is still being worked out."),
    internal_error: t("The server failed; nothing changed."),
    unavailable: t("The server cannot store games just now; nothing changed. Trying again shortly."),
    not_allowed: t("That is not possible at this table."),
    rated_no_hints: t("No hints in rated games."),
  }[code] ?? t("Something went wrong.");
}
