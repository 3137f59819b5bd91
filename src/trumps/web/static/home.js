// The first screen: the two games as large choices that start a game against the computer
// in one tap (at the level chosen in plain words), "Play a friend" (a private table and its
// invite link in one step), and the way on to the lobby. The games, their player counts and
// the bot levels come from the server's catalog (app.js loads it), as in the lobby.

import { el, load, put, save } from "./dom.js";
import { gameName, levelName, num, t } from "./i18n.js";
import { cardFace } from "./cards.js";
import { botPace } from "./trickview.js";
import { deviceOffer } from "./offline/keep.js";

/** @type {import("./app.js").Context} */
let ctx = null; // {send, catalog, show, state}

/** What a newcomer reads under each game's name (the rules help says the rest). */
function gameLine(id) {
  return {
    kozyri: t("A duel in which each player has a trump suit of their own: beat every card, or pick them all up."),
    twentyfive: t("Ireland's own game: five cards each, five points a trick, and the first to twenty-five wins."),
  }[id] ?? "";
}

/** A level in words a player uses ("beginner" for the bot that plays any legal card). */
export const levelWords = (level) => (level === "random" ? t("beginner") : levelName(level));

/** A few cards that stand for each game on its choice (drawn with the page's deck). */
const ART = { kozyri: ["AS", "7H", "6D", "9C"], twentyfive: ["5H", "JK", "AH", "AC"] };
// (pip cards: a court card's picture weighs 13–21 KB, and this is the first screen)

function loadChoices() {
  try {
    return { level: "medium", players: {}, ...JSON.parse(load("home") ?? "{}") };
  } catch {
    return { level: "medium", players: {} };
  }
}

/** Build the first screen into root (again after a language change). */
export function mountHome(root, context) {
  ctx = context;
  const games = ctx.catalog?.games ?? [];
  const levels = ctx.catalog?.levels ?? [];
  if (!games.length) {
    put(root, el("div", { class: "home" }, el("p", { class: "note", role: "alert" },
      t("The server did not send the list of games, so no table can be started yet.")),
    el("button", { type: "button", class: "primary", onclick: () => ctx.reloadCatalog() }, t("Try again"))));
    return;
  }
  const choices = loadChoices();
  if (!levels.some((l) => l.level === choices.level)) choices.level = levels[Math.floor(levels.length / 2)]?.level;
  const keep = () => save("home", JSON.stringify(choices));
  const playersOf = (g) => {
    const want = Number(choices.players[g.id]) || g.default_players;
    return Math.min(g.max_players, Math.max(g.min_players, want));
  };

  const levelButtons = levels.map((l) => el("button", {
    type: "button", class: "chip", role: "radio", testid: `home-level-${l.level}`, "data-level": l.level,
    "aria-checked": String(l.level === choices.level),
    onclick: () => {
      choices.level = l.level;
      keep();
      for (const b of levelButtons) b.setAttribute("aria-checked", String(b.dataset.level === l.level));
      for (const g of games) refreshGo(g);
    },
  }, levelWords(l.level)));

  const goLines = new Map();
  const refreshGo = (g) => put(goLines.get(g.id),
    t("{n} players · {level}", { n: num(playersOf(g)), level: levelWords(choices.level) }));

  const choice = (g) => {
    const go = el("span", { class: "game-go" });
    goLines.set(g.id, go);
    refreshGo(g);
    const players = el("select", { id: `home-players-${g.id}`, testid: `home-players-${g.id}`,
      "aria-label": t("Players") },
    Array.from({ length: g.max_players - g.min_players + 1 }, (_, i) => g.min_players + i)
      .map((n) => el("option", { value: n, selected: n === playersOf(g) }, num(n))));
    players.addEventListener("change", () => {
      choices.players[g.id] = Number(players.value);
      keep();
      refreshGo(g);
    });
    const play = () => ctx.send({ type: "play_computer", game: g.id, players: playersOf(g), level: choices.level,
      bot_pace: botPace(), rated: false });
    // A private table: me, one open seat for the friend, bots in any other seats.
    const friend = () => ctx.send({ type: "create_table", game: g.id, rules: g.default_preset,
      seats: ["human", "human", ...Array(Math.max(0, playersOf(g) - 2)).fill(choices.level)],
      private: true, bot_pace: botPace(), rated: false });
    return el("article", { class: "game-choice", "data-game": g.id },
      el("button", { type: "button", class: "game-play", testid: `home-play-${g.id}`, onclick: play,
        "aria-describedby": `home-line-${g.id}` },
      el("span", { class: "game-art", "aria-hidden": "true" }, (ART[g.id] ?? []).map((c) => cardFace(c))),
      el("span", { class: "game-name" }, gameName(g.id, g.title)),
      el("span", { class: "game-line", id: `home-line-${g.id}` }, gameLine(g.id)),
      el("span", { class: "game-cta" }, t("Play the computer")), go),
      el("div", { class: "game-more" },
        el("label", { class: "inline" }, t("Players"), players),
        // (a static site has nobody else to play: only the computer, docs/offline.md)
        ctx.catalog?.offline ? null : el("button", { type: "button", class: "ghost", testid: `home-friend-${g.id}`, onclick: friend }, t("Play a friend"))));
  };

  put(root, el("div", { class: "home", testid: "home-screen" },
    el("div", { class: "home-level", role: "radiogroup", "aria-label": t("Level") },
      el("span", { class: "label" }, t("Level")), levelButtons),
    el("div", { class: "home-games" }, games.map(choice)),
    ctx.catalog?.offline ? null : el("p", { class: "home-more" },
      el("button", { type: "button", class: "link", testid: "home-lobby", onclick: () => ctx.show("lobby") },
        t("Lobby: public tables, quick match and every rule"), " ", el("span", { class: "fwd", "aria-hidden": "true" }, "→"))),
    deviceOffer(ctx.catalog), awayLine()));
}

/** On a server's page loaded from the device's copy (no connection to the server): says
 *  so, and offers to try the server again. */
function awayLine() {
  if (!ctx.catalog?.offline || !ctx.catalog.device) return null;
  return el("p", { class: "home-device", testid: "device-away" },
    el("span", { class: "note" }, t("No connection to the server: you play the computer on this device.")), " ",
    el("button", { type: "button", class: "link", testid: "device-retry", onclick: () => location.reload() }, t("Try the server again")));
}
