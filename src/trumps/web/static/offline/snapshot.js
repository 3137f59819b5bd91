// Pyodide's memory once our engine is imported, kept on this device so that the next visit
// starts in a fifth of a second instead of two (issue 28, the repeat-visit budget).
//
// Booting Pyodide (compiling CPython's start-up, unpacking its standard library) and importing
// the engine take about 2.5 s in Chromium here; starting from a memory snapshot of the same
// state takes about 0.2 s. The snapshot is made by the first boot in the browser itself
// (nothing more crosses the network), gzipped (31 MB of memory, about 6 MB stored) and kept in
// IndexedDB under the SHA-256 of the engine it holds: a new engine is a new key, and the
// snapshot of the old one is dropped. Pyodide refuses a snapshot of another Pyodide build
// (its build id is inside); any failure to read, load or write one is a normal boot.
//
// Pyodide's snapshot API is marked experimental (`_makeSnapshot`, `_loadSnapshot`); the
// Pyodide version is pinned (trumps.web.offline), and a test boots from a snapshot.

import { inStore } from "./db.js";

/** The hex SHA-256 of `bytes`: the key the snapshot of that engine is kept under. */
export async function engineKey(bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function pipe(bytes, stream) {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(stream)).arrayBuffer());
}

/** The snapshot kept for `key`, or null (none, another engine's, or unreadable). */
export async function readSnapshot(key) {
  try {
    const found = await inStore("snapshot", "readonly", (store, done) => done(store.get("memory")));
    if (!found || found.key !== key) return null;
    return await pipe(found.gzip, new DecompressionStream("gzip"));
  } catch {
    return null;
  }
}

/** Keep `memory` (a snapshot of the engine `key`) in place of any other; whether it was
 * kept (no room, storage refused: the next visit boots the long way). */
export async function writeSnapshot(key, memory) {
  try {
    const gzip = await pipe(memory, new CompressionStream("gzip"));
    await inStore("snapshot", "readwrite", (store) => store.put({ key, gzip }, "memory"));
    return true;
  } catch {
    return false;
  }
}

/** Forget the kept snapshot (after one failed to load). */
export async function dropSnapshot() {
  try {
    await inStore("snapshot", "readwrite", (store) => store.delete("memory"));
  } catch { /* nothing to forget */ }
}
