// The games finished against the computer on this device (issue 28), kept in IndexedDB
// (db.js, store `games`, keyed by the record's id) so that the history lists them, the
// replay plays them and each downloads as its record. The worker answers the page's
// requests for them as the server answers GET /api/games?mine=1, /api/games/{id} and
// /api/games/{id}/replay (docs/api.md), the replay's positions made by the engine, and
// GET and POST /api/games/{id}/analysis (docs/analysis.md): the engine analyses a game
// when asked, one decision at a time, and the analysis is kept with the game.

import { inStore } from "./db.js";

/** Keep a finished game: {id, record, summary, analysis?} (LocalHost.take_finished_text). */
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
let making = null; // the analysis being made: {id, job (the engine's GameAnalysis), result}
const unkept = new Map(); // id -> an analysis made that the device could not keep (storage full)
const notFound = (message) => ({ status: 404, body: { error: "no_such_game", message } });

/** The answer to the page's `method` on `path` (/api/games…): {status, body}. The engine:
 * `replay(recordText)` (LocalHost.replay_text) and `analysis(recordText)` (a new
 * trumps.host.analysis.GameAnalysis, made a decision at a time here). */
export async function answer(path, method, engine) {
  const url = new URL(path, "http://device");
  if (url.pathname === "/api/games") {
    const limit = Math.min(PAGE_MAX, Math.max(1, Number.parseInt(url.searchParams.get("limit") ?? "20", 10) || 20));
    const offset = Math.max(0, Number.parseInt(url.searchParams.get("offset") ?? "0", 10) || 0);
    if (method !== "GET") return notAllowed(method, url.pathname);
    return { status: 200, body: { games: await listGames(offset, limit) } };
  }
  const m = url.pathname.match(/^\/api\/games\/(\d{1,16})(\/replay|\/analysis)?$/);
  if (!m) return { status: 404, body: { error: "not_found", message: `${url.pathname} is not kept on this device` } };
  const entry = await getGame(Number(m[1]));
  if (!entry) return notFound("no finished game has that id");
  if (m[2] === "/analysis") return analysisAnswer(entry, method, engine);
  if (method !== "GET") return notAllowed(method, url.pathname);
  return { status: 200, body: m[2] === "/replay" ? JSON.parse(engine.replay(JSON.stringify(entry.record))) : entry.record };
}

const notAllowed = (method, path) => ({ status: 405, body: { error: "not_allowed", message: `${method} ${path}` } });
const running = () => ({ status: 202, body: { status: "running", done: making.job.done, total: making.job.total } });

/** A kept game's analysis, as the server answers GET and POST …/analysis (docs/analysis.md):
 *  done (kept with the game), running (its progress), or asked for by a POST, one at a time. */
function analysisAnswer(entry, method, engine) {
  const done = entry.analysis ?? unkept.get(entry.id) ?? (making?.id === entry.id ? making.result : null);
  if (done) return { status: 200, body: { status: "done", analysis: done } };
  if (making?.id === entry.id) return running();
  if (method === "GET") return { status: 404, body: { error: "not_analysed", message: "nobody asked for this game's analysis yet" } };
  if (method !== "POST") return notAllowed(method, `/api/games/${entry.id}/analysis`);
  if (making) return { status: 429, body: { error: "analysis_limit", message: "your other analysis is still running: one at a time" } };
  making = { id: entry.id, job: engine.analysis(JSON.stringify(entry.record)), result: null };
  setTimeout(makeNext, 0);
  return running();
}

/** Judge the analysis's next decision, then let the worker answer what waits (a move, a
 *  bot's turn) before the one after; once all are judged, keep it with its game. */
async function makeNext() {
  const now = making;
  if (!now) return;
  let finished = false;
  try {
    finished = now.job.step();
    if (finished) {
      now.result = JSON.parse(now.job.result_text());
      try {
        const entry = await getGame(now.id);
        if (entry) await keepGame({ ...entry, analysis: now.result });
      } catch (e) { // (storage full: shown while this page lives)
        unkept.set(now.id, now.result);
        console.warn(`trumps: the analysis of game ${now.id} could not be kept: ${e?.message ?? e}`);
      }
    }
  } catch (e) {
    console.warn(`trumps: the analysis of game ${now.id} stopped: ${e?.message ?? e}`);
    finished = true; // (asked for again, it starts afresh)
  }
  if (!finished) {
    setTimeout(makeNext, 0);
    return;
  }
  if (making === now) making = null;
  try {
    now.job.destroy?.();
  } catch { /* the engine failed: nothing more to free */ }
}
