// The page's offline copy: every file it loads, cached when the page is first opened
// (bundle.bin holds the firmware and the stand-ins; tools/web/web_build.py writes the version
// below, a hash of the site), then served from the cache first, so the page starts with
// the network off.
const VERSION = "__VERSION__";
const CACHE = "pocket-dice-" + VERSION;
const PAGE = ["./", "pd.js", "micropython.mjs", "micropython.wasm", "files.json", "bundle.bin",
  "app.webmanifest", "icon-192.png", "icon-512.png", "link_radio.js", "link.json"];
// The link game's PeerJS and QR encoder (tools/web/web_link.py LAZY): fetched only when a
// link game first starts, and cached then, so a first visit does not pay for them and a
// later link game loads them from here (it needs the network anyway: the signalling).
const LAZY = ["peerjs.min.js", "qrcode.mjs"];

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // "no-cache": the browser's HTTP cache asks the server whether its copy (the one the
    // page just loaded) is current; an unchanged file costs a 304, not its bytes again,
    // and a stale copy is never kept under the new version.
    await cache.addAll(PAGE.map((u) => new Request(u, { cache: "no-cache" })));
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
    if (hit) return hit;
    const res = await fetch(event.request);
    const url = new URL(event.request.url);
    if (res.ok && url.origin === location.origin && LAZY.includes(url.pathname.split("/").pop())) {
      await cache.put(event.request, res.clone());
    }
    return res;
  })());
});
