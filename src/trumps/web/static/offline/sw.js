// The static site's service worker (issue 28): it keeps every file of the site — the page,
// its translations and catalog, Pyodide and the engine — so that the page and its games
// against the computer open with no network.
//
// `trumps site` writes the list of those files and a version made from their contents into
// the line below, so that a new site is a new service worker (browsers compare its bytes):
// it is installed beside the old one, which keeps serving every open tab (a game in
// progress is never cut), and takes over once they are closed, dropping the old copy.
const PRECACHE = { version: "unbuilt", files: [] }; // written by `trumps site`

const PREFIX = "trumps-site-";
const CACHE = PREFIX + PRECACHE.version;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // From the network, not the browser's HTTP cache: a copy from the last version would
    // otherwise be kept under this one.
    await cache.addAll(PRECACHE.files.map((file) => new Request(file, { cache: "reload" })));
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const path = request.mode === "navigate" ? "/index.html" : new URL(request.url).pathname;
    const kept = await (await caches.open(CACHE)).match(path, { ignoreSearch: true });
    return kept ?? fetch(request);
  })());
});
