// The text mode's typed commands (textmode.js): text → a command object. Pure: the words
// come from vocabulary(t), built once with the page's t() (the translators own them, in
// the catalogs) and once with English, which is accepted in every language.
//
// Commands (docs/accessibility.md#text-mode), the terminal client's words as the model:
//   play <card> | <card>          {kind: "play", card: "TH"}   (card: words or a code)
//   take                          {kind: "take"}
//   rob [<card>] | discard [<card>] {kind: "rob"|"discard", card: code or null}
//   trump <suit>                  {kind: "trump", suit: "S"}
//   hand | table | score | last trick | moves | hint | help | cards   {kind: …}
//   how many cards has <name> | cards <name>   {kind: "count", name: "bot 2"}
// Anything else: {kind: "unknown", text}; a play word with no card that can be read:
// {kind: "play" (or rob, discard, trump), card: null, bad: "the words"}.
//
// A card is its name in the page's language or in English ("ten of hearts", "ده دل",
// "dix de cœur", "10 of hearts", "ten hearts") or its code as the terminal reads it ("TH",
// "th", "10h", "10♥", "JK").

const RANKS = "AKQJT98765432";
const SUITS = "SHDC";
const SYMBOLS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
const DIGITS = { T: "10", 9: "9", 8: "8", 7: "7", 6: "6", 5: "5", 4: "4", 3: "3", 2: "2" };
// English singulars, accepted too ("ten of heart", "trump spade").
const SINGULAR = { S: "spade", H: "heart", D: "diamond", C: "club" };

/** Text made comparable: lower case, accents and Arabic marks dropped, Persian and Arabic
 *  digits as Latin ones, Arabic yeh and kaf as Persian, joiners as spaces, one space
 *  between words, no closing full stop or question mark. */
export function normalize(text) {
  return String(text ?? "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f\u064b-\u065f\u0670]/g, "")
    .toLowerCase()
    .replace(/œ/g, "oe")
    .replace(/æ/g, "ae")
    .replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
    .replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660))
    .replace(/[يى]/g, "ی")
    .replace(/ك/g, "ک")
    .replace(/[\u200b-\u200f\ufe0f]/g, " ")
    .replace(/[’‘]/g, "'")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/\s*[.!?؟]+$/, "");
}

const words = (text) => text.split(/[,،]/).map(normalize).filter(Boolean);

/** The words of the text mode in one language, from that language's t(): command words
 *  (synonyms separated by commas in one msgid) and the card names' parts. */
export function vocabulary(t) {
  return {
    words: {
      // i18n: text mode command, typed by a player: words separated by commas (any one of them works); keep them short and lower case
      play: words(t("play, put")),
      // i18n: text mode command (pick up the pile in Svoi Kozyri): words separated by commas
      take: words(t("take, pick up")),
      // i18n: text mode command (rob the turn-up in Twenty-Five, followed by the card to discard): words separated by commas
      rob: words(t("rob")),
      // i18n: text mode command (discard a card face down, followed by the card): words separated by commas
      discard: words(t("discard")),
      // i18n: text mode command (choose trumps, followed by a suit): words separated by commas
      trump: words(t("trump, trumps")),
      // i18n: text mode command (say my cards): words separated by commas
      hand: words(t("hand, my hand")),
      // i18n: text mode command (say the trick or pile, trumps and whose turn): words separated by commas
      table: words(t("table, trick, pile")),
      // i18n: text mode command (say the scores): words separated by commas
      score: words(t("score, scores, points")),
      // i18n: text mode command (say the last finished trick): words separated by commas
      last: words(t("last trick, last")),
      // i18n: text mode command (say what I may play now): words separated by commas
      moves: words(t("moves, legal")),
      // i18n: text mode command (say how many cards each player holds): words separated by commas
      counts: words(t("cards, counts")),
      // i18n: text mode command (ask the computer for a hint): words separated by commas
      hint: words(t("hint")),
      // i18n: text mode command (list the commands): words separated by commas
      help: words(t("help, commands")),
    },
    // i18n: text mode command asking how many cards a player holds: patterns separated by commas, {name} is the player's name
    count: words(t("how many cards has {name}, how many cards does {name} have, cards {name}")),
    ranks: {
      A: t("ace"), K: t("king"), Q: t("queen"), J: t("jack"), T: t("ten"), 9: t("nine"),
      8: t("eight"), 7: t("seven"), 6: t("six"), 5: t("five"), 4: t("four"), 3: t("three"),
      2: t("two"),
    },
    suits: { S: t("spades"), H: t("hearts"), D: t("diamonds"), C: t("clubs") },
    of: t("{rank} of {suit}"),
    joker: t("joker"),
  };
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const cache = new WeakMap(); // vocabularies → their card names and patterns

/** Every way of naming each card and suit in `vocabs`, normalized: phrase → code. */
function tables(vocabs) {
  const key = vocabs[0];
  const known = cache.get(key);
  if (known && known.vocabs.length === vocabs.length && known.vocabs.every((v, i) => v === vocabs[i])) return known;
  const cards = new Map();
  const suits = new Map();
  for (const v of vocabs) {
    for (const s of SUITS) {
      const suitWords = [v.suits[s], SINGULAR[s]].map(normalize);
      for (const w of suitWords) suits.set(w, s);
      for (const r of RANKS) {
        for (const rank of [v.ranks[r], DIGITS[r]].filter(Boolean).map(normalize)) {
          for (const suit of suitWords) {
            cards.set(normalize(v.of.replace("{rank}", rank).replace("{suit}", suit)), r + s);
            cards.set(`${rank} ${suit}`, r + s);
          }
        }
      }
    }
    cards.set(normalize(v.joker), "JK");
  }
  cards.set("joker", "JK");
  const count = vocabs.flatMap((v) => v.count).map((p) => new RegExp(`^${escape(p).replace("\\{name\\}", "(.+)")}$`));
  const built = { vocabs: [...vocabs], cards, suits, count };
  cache.set(key, built);
  return built;
}

/** The card named by `text` (normalized), or null. */
export function parseCard(text, vocabs) {
  const s = normalize(text).replace(/^the /, "");
  const named = tables(vocabs).cards.get(s);
  if (named) return named;
  const code = /^(10|[2-9tjqka])\s*([shdc♠♥♦♣])$/.exec(s);
  if (code) {
    const rank = code[1] === "10" ? "T" : code[1].toUpperCase();
    return rank + (SYMBOLS[code[2]] ?? code[2].toUpperCase());
  }
  return s === "jk" ? "JK" : null;
}

/** The suit named by `text` (a word, a letter or a symbol), or null. */
export function parseSuit(text, vocabs) {
  const s = normalize(text);
  if (SYMBOLS[s]) return SYMBOLS[s];
  if (/^[shdc]$/.test(s)) return s.toUpperCase();
  return tables(vocabs).suits.get(s) ?? null;
}

const EXACT = ["help", "hand", "table", "score", "last", "moves", "counts", "hint", "take"];
const WITH_CARD = ["play", "rob", "discard", "trump"];

/** What `text` asks for; `vocabs` are vocabulary() results, the page's language first. */
export function parseCommand(text, vocabs) {
  const raw = String(text ?? "").trim();
  if (!raw) return { kind: "empty" };
  if (raw === "?" || raw === "؟") return { kind: "help" };
  const s = normalize(raw);
  for (const kind of EXACT) {
    if (vocabs.some((v) => v.words[kind].includes(s))) return { kind };
  }
  for (const pattern of tables(vocabs).count) {
    const m = pattern.exec(s);
    if (m) return { kind: "count", name: m[1].trim() };
  }
  // A command word first ("play ten of hearts") or last, as a Persian sentence puts its verb.
  for (const kind of WITH_CARD) {
    const heads = vocabs.flatMap((v) => v.words[kind]).sort((a, b) => b.length - a.length);
    for (const head of heads) {
      let rest = null;
      if (s === head) rest = "";
      else if (s.startsWith(`${head} `)) rest = s.slice(head.length + 1);
      else if (s.endsWith(` ${head}`)) rest = s.slice(0, -head.length - 1);
      if (rest === null) continue;
      if (kind === "trump") {
        const suit = rest ? parseSuit(rest, vocabs) : null;
        return suit || !rest ? { kind, suit } : { kind, suit: null, bad: rest };
      }
      const card = rest ? parseCard(rest, vocabs) : null;
      return card || !rest ? { kind, card } : { kind, card: null, bad: rest };
    }
  }
  const card = parseCard(s, vocabs);
  if (card) return { kind: "play", card };
  return { kind: "unknown", text: raw };
}
