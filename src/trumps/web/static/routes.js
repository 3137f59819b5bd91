// The sections a link can name, in the URL's hash: #leaderboard/<family> (a leaderboard)
// and #player/<id> (a profile). Following one, or going Back to one, shows it (app.js);
// the other sections (lobby, table, history) have no hash of their own.

import { FAMILIES } from "./ratings.js";

/** The sections shown by a route. */
export const ROUTED = ["leaderboard", "profile"];

/** {section, arg} of a hash, or null when it names no route. */
export function routeOf(hash) {
  const m = /^#(leaderboard|player)(?:\/([\w-]*))?$/.exec(hash ?? "");
  if (!m) return null;
  if (m[1] === "leaderboard") return { section: "leaderboard", arg: FAMILIES.includes(m[2]) ? m[2] : null };
  return /^[1-9]\d{0,9}$/.test(m[2] ?? "") ? { section: "profile", arg: Number(m[2]) } : null;
}

/** The hash of a section's route: "#leaderboard/kozyri-duel", "#player/12". */
export const hashOf = (section, arg) => (section === "leaderboard" ? `#leaderboard/${arg}` : `#player/${arg}`);
