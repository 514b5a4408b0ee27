// The page's offline copy: every file it loads, cached when the page is first opened
// (the list is manifest.json, which tools/web_build.py writes with the version below),
// then served from the cache first, so the page starts with the network off.
const VERSION = "__VERSION__";
const CACHE = "pocket-dice-" + VERSION;
const PAGE = ["./", "index.html", "pd.js", "micropython.mjs", "micropython.wasm", "manifest.json"];

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const manifest = await (await fetch("manifest.json", { cache: "no-store" })).json();
    const cache = await caches.open(CACHE);
    await cache.addAll(PAGE.concat(manifest.files.map((f) => f[0])));
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
