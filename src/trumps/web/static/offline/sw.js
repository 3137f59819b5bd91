// The service worker that keeps the page and its own engine on the device (issue 28), so
// that the page opens and plays the computer with no network. It serves two kinds of site:
//
// - a static site (`trumps site`): every file is kept and always served from the copy;
// - a server (`trumps serve --offline`), once the player agreed to keep it: the page's
//   versioned files, Pyodide and the engine are kept and served from the copy (their
//   addresses change whenever they do); the page itself, the catalog and the translations
//   are asked of the server first, as with no service worker, and the kept copy answers
//   only when the server cannot be reached (no answer within a few seconds, or a proxy's
//   502, 503 or 504 for it) — marked `x-trumps-kept`, which tells the page to play on the
//   device (app.js). The copy is the one kept when this version installed: never a later
//   page, which could name files this version does not keep.
//
// Whoever serves this file writes its list first, as `self.TRUMPS_PRECACHE = {...};`:
//   version  made from the files' contents: a new list is a new service worker (browsers
//            compare its bytes); it installs beside the old one, which keeps serving every
//            open tab (a game in progress is never cut), and takes over once they close;
//   files    every path kept;
//   fresh    the paths asked of the network first (none on a static site);
//   page     the path that stands for a navigation; pages: the navigated paths it stands
//            for (absent: every navigation, as on a static site);
//   lasting  path prefixes whose files never change under the same address: copied from
//            an older version's cache instead of downloaded again.
/** @typedef {{version: string, files: string[], fresh?: string[], page?: string, pages?: string[], lasting?: string[]}} Precache */
// (the worker's global, as TypeScript's checker knows it: tests/js)
const sw = /** @type {ServiceWorkerGlobalScope & {TRUMPS_PRECACHE?: Precache}} */ (/** @type {unknown} */ (self));
/** @type {Precache} */
const PRECACHE = sw.TRUMPS_PRECACHE ?? { version: "unbuilt", files: [] };

const PREFIX = "trumps-site-";
const CACHE = PREFIX + PRECACHE.version;
const FILES = new Set(PRECACHE.files);
const FRESH = new Set(PRECACHE.fresh ?? []);
const PAGE = PRECACHE.page ?? "/index.html";
const LASTING = PRECACHE.lasting ?? [];
const PARALLEL = 4; // downloads at once while keeping
const PATIENCE_MS = 6000; // how long the server may take to answer before the copy does
const AWAY = new Set([502, 503, 504]); // a proxy's answers for a server it cannot reach

/** Tell the pages of this origin how far the keeping is: {kind, done, total}. */
async function tell(message) {
  for (const client of await sw.clients.matchAll({ includeUncontrolled: true, type: "window" })) {
    client.postMessage(message);
  }
}

/** Keep `file` in `cache`: from an older version's cache where it cannot have changed,
 *  else from the network, not the browser's HTTP cache (an older copy would be kept under
 *  this version). */
async function keep(cache, file) {
  if (LASTING.some((prefix) => file.startsWith(prefix))) {
    const older = await caches.match(file);
    if (older) return cache.put(file, older);
  }
  const response = await fetch(new Request(file, { cache: "reload" }));
  if (!response.ok) throw new Error(`${file}: ${response.status}`);
  return cache.put(file, response);
}

sw.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const queue = [...PRECACHE.files];
    const total = queue.length;
    let done = 0;
    const worker = async () => {
      for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
        await keep(cache, file);
        done += 1;
        await tell({ kind: "trumps-keeping", done, total });
      }
    };
    try {
      await Promise.all(Array.from({ length: PARALLEL }, worker));
    } catch (err) {
      queue.length = 0; // the other downloads stop too
      await caches.delete(CACHE); // nothing half kept
      await tell({ kind: "trumps-keeping-failed", reason: String(err?.message ?? err) });
      throw err;
    }
  })());
});

sw.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await sw.clients.claim();
  })());
});

/** The server's answer; the copy kept at install, marked, when the server cannot be
 *  reached. */
async function networkFirst(request, path) {
  // (a navigation's request cannot be given a signal to abort it: it is raced instead)
  let timer = 0;
  const late = new Promise((resolve) => { timer = setTimeout(() => resolve(null), PATIENCE_MS); });
  const answer = fetch(request).catch(() => null); // null: no network, or no server
  const response = await Promise.race([answer, late]);
  clearTimeout(timer);
  if (response && !AWAY.has(response.status)) return response;
  const kept = await caches.match(path, { ignoreSearch: true, cacheName: CACHE });
  if (!kept) return response ?? (await answer) ?? Response.error(); // (nothing kept: wait on)
  const headers = new Headers(kept.headers);
  headers.set("x-trumps-kept", "1");
  return new Response(kept.body, { status: kept.status, statusText: kept.statusText, headers });
}

async function keptFirst(request, path) {
  const kept = await caches.match(path, { ignoreSearch: true, cacheName: CACHE });
  return kept ?? fetch(request);
}

sw.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== sw.location.origin) return;
  const navigation = request.mode === "navigate" && (!PRECACHE.pages || PRECACHE.pages.includes(url.pathname));
  const path = navigation ? PAGE : url.pathname;
  if (!FILES.has(path)) return; // not kept: the browser asks the network as it would
  event.respondWith(FRESH.has(path) ? networkFirst(request, path) : keptFirst(request, path));
});
