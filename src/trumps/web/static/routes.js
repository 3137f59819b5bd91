// What the page's address names: the first screen (/), a table (/?table=<id> where I sit,
// /?watch=<id> where I watch), and the sections in the hash: #lobby, #history,
// #leaderboard/<family> (a leaderboard) and #player/<id> (a profile). Following one, going
// Back or Forward to one, or reloading shows it (app.js).

import { FAMILIES } from "./ratings.js";

/** The sections whose hash carries an argument of their own (set by the route). */
export const ROUTED = ["leaderboard", "profile"];

/** {section, arg} of a hash, or null when it names no route. */
export function routeOf(hash) {
  const m = /^#(lobby|history|leaderboard|player)(?:\/([\w-]*))?$/.exec(hash ?? "");
  if (!m) return null;
  if (m[1] === "lobby" || m[1] === "history") return { section: m[1], arg: null };
  if (m[1] === "leaderboard") return { section: "leaderboard", arg: FAMILIES.includes(m[2]) ? m[2] : null };
  return /^[1-9]\d{0,9}$/.test(m[2] ?? "") ? { section: "profile", arg: Number(m[2]) } : null;
}

/** The hash of a section's route: "#leaderboard/kozyri-duel", "#player/12". */
export const hashOf = (section, arg) => (section === "leaderboard" ? `#leaderboard/${arg}` : `#player/${arg}`);

/** The table an address names: {id, watch} from ?table=<id> or ?watch=<id>, else null. */
export function tableOf(search) {
  const params = new URLSearchParams(search ?? "");
  const id = params.get("table") ?? params.get("watch");
  return id ? { id, watch: !params.has("table") } : null;
}

/** The address of a section: the table's for a table, the hash for the others. */
export function addressOf(section, table = null, hash = "") {
  if (section === "table" && table) return `?${table.seat === null ? "watch" : "table"}=${encodeURIComponent(table.id)}`;
  if (section === "lobby" || section === "history") return `#${section}`;
  return ROUTED.includes(section) ? hash : "";
}
