// An account's profile (GET /api/players/{id}), reached at #player/<id> from the
// leaderboards, the history and one's own account box: its rating in each family
// (provisional ones marked, with the number of rated games), the history of each rating
// drawn (ratingplot.js), its results by game, the people it met most, its latest games with
// what each did to its rating.

import { bdi, el, put } from "./dom.js";
import { gameName, levelName, listed, num, t } from "./i18n.js";
import { outcomeNodes } from "./board.js";
import { FAMILIES, changeNodes, familyName, profileLink, ratingNodes, when } from "./ratings.js";
import { ratingPlot } from "./ratingplot.js";

/** @type {import("./app.js").Context} */
let ctx = null; // app.js: {api, status, state}
let root = null;
let asked = 0;

export function mountProfile(node, context) {
  ctx = context;
  root = node;
}

/** Show player `id`'s profile. */
export async function loadProfile(id) {
  if (!root) return;
  put(root, el("section", { class: "box" }, el("p", { class: "note" }, t("Loading…"))));
  const mine = ++asked;
  let p;
  try {
    p = await ctx.api(`/api/players/${encodeURIComponent(id)}`);
  } catch (err) {
    if (mine !== asked) return;
    const text = err.status === 404 ? t("There is no such account. (Guests have no profile.)") : t("The profile could not be loaded.");
    put(root, el("section", { class: "box", testid: "profile-missing" }, el("h2", {}, t("Profile")), el("p", {}, text)));
    if (err.status !== 404) ctx.status(text, "error", err.message);
    return;
  }
  const families = FAMILIES.filter((f) => p.history.some((h) => h.family === f));
  const bots = Object.fromEntries(await Promise.all(families.map(async (f) => {
    try {
      return [f, (await ctx.api(`/api/leaderboard/${encodeURIComponent(f)}?limit=0`))?.bots ?? []];
    } catch {
      return [f, []]; // the reference lines are a help, not the point
    }
  })));
  if (mine === asked) renderProfile(p, families, bots);
}

function renderProfile(p, families, bots) {
  const me = String(p.player_id) === String(ctx.state.playerId); // (the welcome sends it as text)
  const head = el("h2", { testid: "profile-name", tabindex: "-1" }, bdi(p.name),
    me ? [" ", el("small", { class: "note" }, t("(you)"))] : null);
  put(root,
    el("section", { class: "box profile", testid: "profile-view", "data-player": p.player_id }, head,
      el("h3", {}, t("Ratings")), ratingsTable(p.ratings),
      el("h3", {}, t("Rating history")),
      families.length
        ? families.map((f, i) => ratingPlot(f, p.history.filter((h) => h.family === f), bots[f] ?? [],
          `${p.player_id}-${i}`, plotWidth()))
        : el("p", { class: "note" }, t("No rated games yet."))),
    el("div", { class: "profile-grid" },
      el("section", { class: "box" }, el("h3", {}, t("Results by game")), resultsTable(p.results)),
      el("section", { class: "box" }, el("h3", {}, t("Played against most")), headToHead(p.head_to_head))),
    el("section", { class: "box" }, el("h3", {}, t("Latest games")), latestGames(p.games, me)));
  // Opened from a link (the view it was in is gone): the keyboard goes on from the name.
  if (!document.activeElement || document.activeElement === document.body) head.focus({ preventScroll: true });
}

/** The width the plots get: the profile's box less its padding, at most 44rem. */
function plotWidth() {
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  return Math.min(root.clientWidth - 2.2 * rem, 44 * rem);
}

function ratingsTable(ratings) {
  const rows = FAMILIES.filter((f) => ratings[f]).map((f) => el("tr", { testid: "profile-rating", "data-family": f },
    el("th", { scope: "row" }, el("a", { href: `#leaderboard/${f}` }, familyName(f))),
    el("td", { class: "num", "data-rating": ratings[f].rating, "data-provisional": String(ratings[f].provisional) },
      ratingNodes(ratings[f].rating, ratings[f].provisional)),
    el("td", { class: "num" }, num(ratings[f].games)),
    // the bot whose fixed rating is nearest (the API's `like`)
    el("td", { "data-like": ratings[f].like ?? "" }, ratings[f].like ? t("{level} bot", { level: levelName(ratings[f].like) }) : "")));
  if (!rows.length) return el("p", { class: "note" }, t("No rated games yet."));
  return el("table", { class: "data-table", testid: "profile-ratings" },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Family")), el("th", { scope: "col", class: "num" }, t("Rating")),
      el("th", { scope: "col", class: "num" }, t("Rated games")), el("th", { scope: "col" }, t("Plays like")))),
    el("tbody", {}, rows),
    el("caption", { class: "note caption-below" }, t("A rating marked “?” is provisional: it has had too few rated games to be sure.")));
}

/** Won, drawn and lost counts as a table, by `label` of each key. */
function wdlTable(rows, head, testid) {
  return el("table", { class: "data-table", testid },
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, head), el("th", { scope: "col", class: "num" }, t("Won")),
      el("th", { scope: "col", class: "num" }, t("Drawn")), el("th", { scope: "col", class: "num" }, t("Lost")))),
    el("tbody", {}, rows.map(([label, r]) => el("tr", {}, el("th", { scope: "row" }, label),
      el("td", { class: "num" }, num(r.won)), el("td", { class: "num" }, num(r.drawn)), el("td", { class: "num" }, num(r.lost))))));
}

function resultsTable(results) {
  const games = Object.keys(results ?? {});
  if (!games.length) return el("p", { class: "note" }, t("No finished games yet."));
  return wdlTable(games.map((g) => [gameName(g), results[g]]), t("Game"), "profile-results");
}

function headToHead(rows) {
  if (!rows?.length) return el("p", { class: "note" }, t("No games against other people yet."));
  return wdlTable(rows.map((r) => [profileLink(r.player_id, r.name), r]), t("Opponent"), "profile-h2h");
}

function latestGames(games, me) {
  if (!games?.length) return el("p", { class: "note" }, t("No finished games yet."));
  return el("ul", { class: "plain rows", testid: "profile-games" }, games.map((g) => {
    const name = (s) => g.players?.[s] ?? t("Seat {n}", { n: s + 1 });
    const change = (g.rating_changes ?? []).find((c) => c.seat === g.seat);
    return el("li", { class: "row", testid: "profile-game", "data-game": g.id },
      el("div", {}, el("strong", {}, gameName(g.game)), " · ", listed(g.players.map((x) => bdi(x))),
        el("div", { class: "note" }, g.outcome ? outcomeNodes(g.outcome, name, me ? g.seat ?? null : null) : t("unfinished"),
          g.finished ? ` · ${when(g.finished)}` : "")),
      el("div", { class: "note", testid: "game-change" },
        change ? changeNodes(change) : g.rated ? t("Rated") : t("Casual")));
  }));
}
