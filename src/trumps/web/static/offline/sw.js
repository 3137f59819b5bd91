// The static site's service worker (issue 28): it keeps every file of the site — the page,
// its translations and catalog, Pyodide and the engine — so that the page and its games
// against the computer open with no network. `trumps site` writes it at the site's root
// beside precache.json, the list of those files and a version made from their contents.
//
// A new version is fetched and kept beside the old one; the old keeps serving every open
// tab (a game in progress is never cut), and the new one takes over once they are closed.

const PREFIX = "trumps-site-";

async function precacheList() {
  const res = await fetch("precache.json", { cache: "no-cache" });
  if (!res.ok) throw new Error(`precache.json answered ${res.status}`);
  return res.json();
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const list = await precacheList();
    const cache = await caches.open(PREFIX + list.version);
    await cache.addAll(list.files);
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const list = await precacheList().catch(() => null);
    const keep = list ? PREFIX + list.version : null;
    for (const name of await caches.keys()) {
      // Older versions go once this one serves; with no list (offline) nothing is dropped.
      if (keep && name.startsWith(PREFIX) && name !== keep && (await caches.has(keep))) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const url = new URL(request.url);
    const path = request.mode === "navigate" ? "/index.html" : url.pathname;
    const kept = await caches.match(path, { ignoreSearch: true });
    return kept ?? fetch(request);
  })());
});
