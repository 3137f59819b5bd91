// The games finished against the computer on this device (issue 28), kept in IndexedDB
// (db.js, store `games`, keyed by the record's id) so that the history lists them, the
// replay plays them and each downloads as its record. The worker answers the page's
// requests for them as the server answers GET /api/games?mine=1, /api/games/{id} and
// /api/games/{id}/replay (docs/api.md), the replay's positions made by the engine.

import { inStore } from "./db.js";

/** Keep a finished game: {id, record, summary} (LocalHost.take_finished_text). */
export function keepGame(entry) {
  return inStore("games", "readwrite", (store) => store.put(entry, entry.id));
}

/** The kept game `id`, or undefined. */
export function getGame(id) {
  return inStore("games", "readonly", (store, done) => done(store.get(id)));
}

/** The summaries of the kept games, newest first, `limit` of them from `offset`. */
export function listGames(offset, limit) {
  return inStore("games", "readonly", (store) => new Promise((resolve, reject) => {
    const found = [];
    let skipped = false;
    const req = store.openCursor(null, "prev");
    req.onerror = () => reject(req.error);
    req.onsuccess = () => {
      const cursor = req.result;
      if (!cursor || found.length >= limit) return resolve(found);
      if (offset > 0 && !skipped) {
        skipped = true;
        return cursor.advance(offset);
      }
      found.push(cursor.value.summary);
      cursor.continue();
    };
  }));
}

const PAGE_MAX = 100;
const notFound = (message) => ({ status: 404, body: { error: "no_such_game", message } });

/** The answer to the page's `path` (a GET of /api/games…): {status, body}. `replay(record)`
 * is the engine's replay of a record (LocalHost.replay_text). */
export async function answer(path, replay) {
  const url = new URL(path, "http://device");
  if (url.pathname === "/api/games") {
    const limit = Math.min(PAGE_MAX, Math.max(1, Number.parseInt(url.searchParams.get("limit") ?? "20", 10) || 20));
    const offset = Math.max(0, Number.parseInt(url.searchParams.get("offset") ?? "0", 10) || 0);
    return { status: 200, body: { games: await listGames(offset, limit) } };
  }
  const m = url.pathname.match(/^\/api\/games\/(\d{1,16})(\/replay|\/analysis)?$/);
  if (!m) return { status: 404, body: { error: "not_found", message: `${url.pathname} is not kept on this device` } };
  const entry = await getGame(Number(m[1]));
  if (!entry) return notFound("no finished game has that id");
  if (m[2] === "/analysis") {
    return { status: 404, body: { error: "not_analysed", message: "games on this device are analysed on a server" } };
  }
  return { status: 200, body: m[2] === "/replay" ? JSON.parse(replay(JSON.stringify(entry.record))) : entry.record };
}
