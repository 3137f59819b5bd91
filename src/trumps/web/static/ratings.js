// Ratings in the page (docs/ratings.md): the names of the rating families, a rating with its
// provisional mark ("1537?", as Lichess writes it), a game's rating change, the "Rated"
// mark of a table, the Rated choice of the lobby's forms, a player's name linked to their
// profile, and the rating change of one of my finished games (GET /api/games?mine=1).

import { bdi, el, fill } from "./dom.js";
import { num, t } from "./i18n.js";

/** The rating families (trumps.ratings.FAMILIES), in the server's order. */
export const FAMILIES = ["kozyri-duel", "kozyri-multi", "twentyfive", "twentyfive-teams"];

/** A family's full name, as a heading. */
export function familyName(family) {
  return {
    "kozyri-duel": t("Svoi Kozyri, two players"),
    "kozyri-multi": t("Svoi Kozyri, three or more players"),
    twentyfive: t("Twenty-Five, everyone for themselves"),
    "twentyfive-teams": t("Twenty-Five in teams"),
  }[family] ?? family;
}

/** A family's short name, for tabs and table cells. */
export function familyShort(family) {
  return {
    "kozyri-duel": t("Svoi Kozyri duel"),
    "kozyri-multi": t("Svoi Kozyri, 3+"),
    twentyfive: t("Twenty-Five"),
    "twentyfive-teams": t("Twenty-Five teams"),
  }[family] ?? family;
}

/** A rating as nodes: its number in the page's digits and, when provisional, the mark that
 *  says so ("1537?") with the word beside it, wherever it is shown ("1537? provisional"); a
 *  screen reader hears "1537, provisional" (the word, not the sign). */
export function ratingNodes(rating, provisional = false) {
  if (!provisional) return [num(rating)];
  const why = t("provisional: few rated games yet");
  // i18n: a provisional rating, marked as Lichess marks it ("1537?"); keep {rating}
  const shown = t("{rating}?", { rating: num(rating) });
  return [el("span", { class: "provisional", "aria-hidden": "true", title: why }, shown, " ",
    // i18n: said beside a provisional rating ("1537? provisional"): few rated games yet
    el("small", { class: "provisional-word" }, t("provisional"))),
  el("span", { class: "sr-only" }, t("{rating}, provisional", { rating: num(rating) }))];
}

/** "+25", "−7", "±0" in the page's digits, kept left to right in a right-to-left page. */
export function signed(delta) {
  const sign = delta > 0 ? "+" : delta < 0 ? "−" : "±";
  return el("bdi", { dir: "ltr", class: delta > 0 ? "gain" : delta < 0 ? "loss" : null }, sign + num(Math.abs(delta)));
}

/** "Rating 1512 → 1537? (+25)": what a game did to a rating. */
export function changeNodes(change, provisional = false) {
  // i18n: a rating before and after a game, then the difference; in a right-to-left language the arrow points left (←)
  return fill(t("Rating {before} → {after} ({change})"), {
    before: el("span", { class: "r-before" }, num(change.before)),
    after: el("span", { class: "r-after" }, ratingNodes(change.after, provisional)),
    change: signed(change.after - change.before),
  });
}

/** My change in a row of GET /api/games?mine=1 (the row's `seat` is mine), or null. */
export const myChange = (row) => (row?.rating_changes ?? []).find((c) => c.seat === row.seat) ?? null;

/** The "Rated" mark of a table or game. */
export const ratedBadge = () => el("span", { class: "rated-mark", testid: "rated" }, t("Rated"));

/** A player's name linked to their profile (#player/ID). */
export const profileLink = (id, name) => el("a", { href: `#player/${id}`, testid: "profile-link" }, bdi(name));

/** The Rated choice of a form: a checkbox for an account; for a guest the same box, off and
 *  disabled, with the reason shown beside it. `note` (optional) is shown to an account.
 *  `node` holds the box (`check`) and the note (`note`), for a form that places them apart. */
export function ratedChoice(id, { account, checked = false, note = null }) {
  const noteId = `${id}-note`;
  const explain = account ? note : t("Rated games need an account: create one or log in under “You”.");
  const input = el("input", { id, testid: id, type: "checkbox", checked: !!account && checked, disabled: !account,
    "aria-describedby": explain ? noteId : null });
  const check = el("p", { class: "check" }, input, " ", el("label", { for: id }, t("Rated")));
  const said = explain ? el("p", { class: "note", id: noteId, testid: noteId }, explain) : null;
  const node = el("div", { class: "rated-choice" }, check, said);
  return { node, check, note: said, input, rated: () => !!account && input.checked };
}

/** When something was (seconds since 1970, or an ISO date), in the page's language. */
export function when(value) {
  const d = new Date(typeof value === "number" && value < 1e12 ? value * 1000 : value);
  if (Number.isNaN(d.getTime())) return String(value);
  try {
    return new Intl.DateTimeFormat(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" }).format(d);
  } catch {
    return d.toLocaleString();
  }
}

/** What finished game `recordId` did to my rating: {change, provisional} (change null when
 *  it moved nothing), from my games (GET /api/games?mine=1) and my profile (whether the
 *  rating is provisional). Rejects when it could not be loaded. */
export async function loadMyChange(ctx, recordId) {
  const [games, profile] = await Promise.all([
    ctx.api("/api/games?mine=1&limit=10", { auth: true }),
    ctx.api(`/api/players/${encodeURIComponent(ctx.state.playerId)}`).catch(() => null),
  ]);
  const row = (games?.games ?? []).find((g) => g.id === recordId);
  if (!row) throw new Error(`game ${recordId} is not among your latest games`);
  const change = myChange(row);
  // The family of the game, and whether its rating is still provisional (the latest point
  // of its history is this game, just played).
  const point = (profile?.history ?? []).findLast((h) => h.game_id === recordId);
  const rating = point ? profile.ratings?.[point.family] : null;
  return { change, provisional: !!rating?.provisional, family: point?.family ?? null };
}
