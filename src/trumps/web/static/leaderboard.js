// The leaderboards (GET /api/leaderboard/{family}), one per rating family, reached at
// #leaderboard/<family>: the accounts with a settled rating, best first, with the bots'
// fixed ratings of the family as reference lines among them ("hard bot 1720").

import { el, put } from "./dom.js";
import { levelName, num, t } from "./i18n.js";
import { FAMILIES, familyName, familyShort, profileLink, ratingNodes } from "./ratings.js";

const PAGE = 50;
/** @type {import("./app.js").Context} */
let ctx = null; // app.js: {api, status, state}
let parts = null;
let shown = { family: FAMILIES[0], offset: 0 };
let asked = 0; // the latest request: an older answer arriving late is dropped

export function mountLeaderboard(root, context) {
  ctx = context;
  parts = {
    // Links to each family's route, kept across loads (a keyboard user's focus stays on one).
    tabs: el("nav", { class: "family-tabs", "aria-label": t("Rating families") },
      FAMILIES.map((f) => el("a", { href: `#leaderboard/${f}`, testid: `board-tab-${f}`, "data-family": f }, familyShort(f)))),
    title: el("h3", { testid: "board-title" }),
    body: el("div", { testid: "board" }),
  };
  put(root, el("section", { class: "box" }, el("h2", {}, t("Ratings")), parts.tabs, parts.title, parts.body));
}

/** The family last shown (the header's Ratings button opens it again). */
export const boardFamily = () => shown.family;

/** Show `family`'s leaderboard from its `offset`-th player. */
export async function loadLeaderboard(family, offset = 0) {
  if (!parts) return;
  shown = { family: FAMILIES.includes(family) ? family : FAMILIES[0], offset };
  for (const tab of parts.tabs.children) {
    if (tab.dataset.family === shown.family) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  put(parts.title, familyName(shown.family));
  put(parts.body, el("p", { class: "note" }, t("Loading…")));
  const mine = ++asked;
  let board;
  try {
    board = await ctx.api(`/api/leaderboard/${encodeURIComponent(shown.family)}?limit=${PAGE}&offset=${offset}`);
  } catch (err) {
    if (mine !== asked) return;
    put(parts.body, el("p", { class: "note" }, t("The leaderboard could not be loaded.")));
    ctx.status(t("The leaderboard could not be loaded."), "error", err.message);
    return;
  }
  if (mine === asked) renderBoard(board);
}

function renderBoard(board) {
  const players = board.players ?? [];
  const last = players.length < PAGE;
  const rows = merged(players, board.bots ?? [], board.offset ?? 0, last);
  const about = el("p", { class: "note" },
    t("Accounts with at least {n} rated games and a settled rating, best first. Bots' ratings are fixed: a reference to measure yourself by.",
      { n: board.min_games }));
  if (!players.length && (board.offset ?? 0) === 0) {
    about.append(" ", el("strong", { testid: "board-empty" }, t("Nobody has a settled rating here yet.")));
  }
  const table = rows.length ? el("table", { class: "board-table", testid: "board-table" },
    el("caption", { class: "sr-only" }, familyName(shown.family)),
    el("thead", {}, el("tr", {},
      el("th", { scope: "col", class: "num" }, t("Rank")), el("th", { scope: "col" }, t("Player")),
      el("th", { scope: "col", class: "num" }, t("Rating")), el("th", { scope: "col", class: "num" }, t("Rated games")))),
    el("tbody", {}, rows)) : null;
  put(parts.body, about, table, pager(board.offset ?? 0, players.length, last));
}

/** The players' rows with the bots' reference rows among them, by rating (the bots of the
 *  ratings this page spans; the first page takes those above, the last those below). */
function merged(players, bots, offset, last) {
  const top = offset === 0 ? Infinity : players[0]?.rating ?? -Infinity;
  const bottom = last ? -Infinity : players.at(-1)?.rating ?? Infinity;
  const refs = bots.filter((b) => b.rating <= top && b.rating > bottom).sort((a, b) => b.rating - a.rating);
  const rows = [];
  let i = 0;
  for (const p of players) {
    while (i < refs.length && refs[i].rating > p.rating) rows.push(botRow(refs[i++]));
    rows.push(el("tr", { testid: "board-player", "data-player": p.player_id },
      el("td", { class: "num" }, num(p.rank)),
      el("th", { scope: "row" }, profileLink(p.player_id, p.name)),
      el("td", { class: "num", "data-rating": p.rating }, ratingNodes(p.rating, p.provisional)),
      el("td", { class: "num" }, num(p.games))));
  }
  while (i < refs.length) rows.push(botRow(refs[i++]));
  return rows;
}

function botRow(bot) {
  const name = t("{level} bot", { level: levelName(bot.level) });
  return el("tr", { class: "bot-ref", testid: "board-bot", "data-level": bot.level },
    el("td", { class: "num" }, el("span", { "aria-hidden": "true" }, "—")),
    el("th", { scope: "row" }, name, el("span", { class: "sr-only" }, ` (${t("fixed rating, for reference")})`)),
    el("td", { class: "num", "data-rating": bot.rating }, num(bot.rating)),
    el("td", {}));
}

function pager(offset, count, last) {
  if (offset === 0 && last) return null;
  const go = (at) => loadLeaderboard(shown.family, Math.max(0, at));
  return el("p", { class: "inline" },
    el("button", { type: "button", disabled: offset === 0, onclick: () => go(offset - PAGE) }, t("Previous")),
    el("button", { type: "button", disabled: last, onclick: () => go(offset + count) }, t("Next")));
}
