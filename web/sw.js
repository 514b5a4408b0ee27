// The page's offline copy: every file it loads, cached when the page is first opened
// (bundle.bin holds the firmware and the stand-ins; tools/web/web_build.py writes the version
// below, a hash of the site),
// then served from the cache first, so the page starts with the network off.
const VERSION = "__VERSION__";
const CACHE = "pocket-dice-" + VERSION;
const PAGE = ["./", "index.html", "pd.js", "micropython.mjs", "micropython.wasm", "manifest.json", "bundle.bin"];
PAGE.push("link_radio.js", "link.json");  // the link game's (it needs the network: PeerJS loads then)

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(PAGE.map((u) => new Request(u, { cache: "reload" })));  // not the HTTP cache's
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("pocket-dice-") && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(event.request, { ignoreSearch: true });
    return hit || fetch(event.request);
  })());
});
