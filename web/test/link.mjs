// Link games between pages in headless Chromium, each page in a browser context of its
// own (its own storage: a handheld each), for host_tests/test_web_link.py and the bench
// (tools/bench/web_link_bench.py), run by tools/web/link_run.py inside a network
// namespace with only loopback:
//
//   node web/test/link.mjs --url http://127.0.0.1:P/ --peer http://127.0.0.1:Q/ \
//       --scenario NAME --out report.json
//
// Each page has a player at its buttons (?pilot=: tools/sim/link_pilot.py) and reaches
// the host through the local PeerServer, with no STUN server (?stun=none). Scenarios:
//   game     a host and 3 guests play a whole live Frenzy game
//   closed   a host and 2 guests; one guest's page is closed in round 2: the host sees
//            it lost and gives its seat to a CPU (LOST 1); the game ends
//   dropseat a host and a guest; the guest's page is closed in round 2: the host drops
//            its seat (LOST 2) and plays on alone to the end (not in the tests: a
//            dropped seat that is the round's roller with the WILD up stops the round,
//            "WAIT: GREEN SETS THE WILD", a firmware matter seen here 2026-12-07)
//   restart  a host and a guest, 20 % of frames dropped; the guest's page reloads in
//            round 2 and the host's in round 4 (CONTINUE): the game ends; then which
//            of PeerJS and the QR encoder each page's offline copy holds
//   drop     a host and a guest, 20 % of every page's frames dropped by the transport
//   bench    a host and a guest for 3 rounds: connect time, round trips, bytes
// The report: each page's pilot log (round, seat, over, lost lines), its transport's
// counters, and every console error.
import fs from "node:fs";
import { chromium } from "playwright-core";
import { ARGS, CHROMIUM } from "./browser.mjs";

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith("--")) acc.push([a.slice(2), all[i + 1]]);
  return acc;
}, []));
const BASE = args.url;
const PEER = args.peer;
const SCENARIO = args.scenario || "game";
const LIMIT_MS = Number(args.limit || 900) * 1000;
const report = { scenario: SCENARIO, pages: {}, errors: [], warnings: [], events: [] };

// WebRTC between pages of one machine: Chromium offers loopback candidates only with
// this switch, and host candidates only to a context allowed the microphone.
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...ARGS,
  "--allow-loopback-in-peer-connection", "--disable-renderer-backgrounding",
  "--disable-background-timer-throttling", "--disable-backgrounding-occluded-windows"] });
const origin = new URL(BASE).origin;
const seen = {};  // every handheld by name, for the report

class Handheld {
  constructor(name) {
    this.name = name;
    this.page = null;
    this.context = null;
    this.lines = [];   // its pilot's log, kept across reloads
    this.stats = {};
    seen[name] = this;
  }

  async open(query) {
    if (!this.context) {
      this.context = await browser.newContext({ viewport: { width: 400, height: 800 } });
      await this.context.grantPermissions(["microphone"], { origin });
    }
    if (!this.page) {
      this.page = await this.context.newPage();
      const errs = report.errors;
      this.page.on("console", (m) => {
        if (m.type() === "error") errs.push(`${this.name}: ${m.text()}`);
        else if (m.type() === "warning" && !m.text().includes("AudioContext")) {
          report.warnings.push(`${this.name}: ${m.text()}`);  // a firmware restart says so here
        }
      });
      this.page.on("pageerror", (e) => errs.push(`${this.name}: pageerror: ${e.message}`));
      this.page.on("websocket", (w) => {  // the signalling: the local PeerServer only
        if (!w.url().startsWith(PEER.replace(/^http/, "ws"))) errs.push(`${this.name}: websocket to ${w.url()}`);
      });
      this.page.on("request", (r) => {
        const u = r.url();
        if (!u.startsWith(origin) && !u.startsWith("data:") && !u.startsWith("blob:")) errs.push(`${this.name}: external request: ${u}`);
      });
    }
    const q = new URLSearchParams({ slot: this.name, peer: PEER, stun: "none", ...query });
    await this.page.goto(BASE + "?" + q);  // a reload too: the page stops where it was
    await this.page.evaluate(() => window.pd.ready);
    return this;
  }

  async poll() {
    if (!this.page) return;
    try {
      const r = await this.page.evaluate(() => {
        const l = window.pdlink;
        const lines = l.log.splice(0);
        return { lines, stats: { ...l.stats, peers: l.peers().length, t_open: window.pd.stats.t_menu } };
      });
      this.lines.push(...r.lines);
      this.stats = r.stats;
    } catch (e) { /* a page reloading */ }
  }

  code() { return this.page.evaluate(() => window.pdlink.code); }
  round() {
    let r = 0;
    for (const l of this.lines) if (l.startsWith("round ")) r = parseInt(l.slice(6), 10);
    return r;
  }
  over() { return this.lines.find((l) => l.startsWith("over ")) || null; }

  async close() {
    if (this.page) {
      await this.poll();
      await this.page.close({ runBeforeUnload: false }).catch(() => {});
      this.page = null;
    }
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A host and its guests; typed: the first guest's page has no ?room= and its room code
// is typed into the page's box once its firmware shows JOIN's list.
async function table(guests, host, query = {}, typed = false) {
  const h = await new Handheld("host").open({ pilot: host, ...query });
  const room = await h.code();
  await hostBox(h, room);
  const gs = [];
  for (let i = 0; i < guests; i++) {
    const g = new Handheld(`guest${i + 1}`);
    if (i === 0 && typed) {
      await g.open({ pilot: "join", ...query });
      await g.page.waitForSelector(".room .join:not([hidden])", { timeout: 60000 });
      await g.page.fill(".room input[name=code]", room.toLowerCase());
      await g.page.click(".room .join button");
      report.events.push("guest1 typed the room code");
    } else {
      await g.open({ pilot: "join", room, ...query });
    }
    gs.push(g);
  }
  return { h, gs, all: [h, ...gs], room };
}

// What the host's page shows beside the panel while its lobby is up.
async function hostBox(h, room) {
  await h.page.waitForSelector(".room .host:not([hidden])", { timeout: 60000 });
  report.hostBox = await h.page.evaluate(() => {
    const b = document.querySelector(".room");
    return { code: b.querySelector(".code").textContent, href: b.querySelector(".url").href,
      svg: !!b.querySelector(".qr svg"), screen: window.pd.screen() };
  });
  report.hostBox.room = room;
}

// A page opened by the host's link (?room=, no pilot) goes into LINK GAME -> JOIN by
// itself and reaches the host; then it is closed (it never joins).
async function byLink(room) {
  const p = new Handheld("linked");
  await p.open({ room });
  await p.page.waitForFunction(() => window.pd.screen() === "link_scan" && window.pdlink.peers().length === 1,
    null, { timeout: 60000 });
  report.byLink = await p.page.evaluate(() => ({ screen: window.pd.screen(), peers: window.pdlink.peers().length }));
  await p.close();
}

// Polls every page until `done` or the limit; `each` may act on the way.
async function until(pages, done, each) {
  const t0 = Date.now();
  while (Date.now() - t0 < LIMIT_MS) {
    for (const p of pages) await p.poll();
    if (each) await each();
    if (done()) return true;
    await sleep(500);
  }
  report.events.push(`limit: rounds ${pages.map((p) => p.round()).join(",")}`);
  for (const p of pages) {  // where each page stood, for the failure's message
    if (!p.page) continue;
    report.pages_at_limit = report.pages_at_limit || {};
    report.pages_at_limit[p.name] = await p.page.evaluate(() => ({ state: window.pd.state(),
      frame: window.pd.frame(), stats: window.pdlink.stats, peers: window.pdlink.peers() })).catch((e) => String(e));
  }
  return false;
}

const allOver = (ps) => () => ps.every((p) => p.over() !== null);

// Which of the link's lazily loaded files (PeerJS, the QR encoder) each page's offline
// copy holds: the service worker caches them at their first use (web/sw.js).
async function cached(pages) {
  report.cached = {};
  for (const p of pages) {
    report.cached[p.name] = await p.page.evaluate(async () => {
      const have = new Set();
      for (const key of await caches.keys()) {
        const c = await caches.open(key);
        for (const f of ["peerjs.min.js", "qrcode.mjs"]) if (await c.match(f)) have.add(f);
      }
      return [...have].sort();
    });
  }
}

try {
  if (SCENARIO === "game") {
    const t = await table(3, "host:3:0:0");
    await until(t.all, allOver(t.all));
  } else if (SCENARIO === "closed") {
    const t = await table(2, "host:2:0:1", {}, true);
    let closed = false;
    await until(t.all, allOver([t.h, t.gs[0]]), async () => {
      if (!closed && t.gs[1].round() >= 2) {
        closed = true;
        report.events.push(`closed guest2 in round ${t.gs[1].round()}`);
        await t.gs[1].close();
      }
    });
  } else if (SCENARIO === "dropseat") {
    const t = await table(1, "host:1:0:2");
    let closed = false;
    await until(t.all, allOver([t.h]), async () => {
      if (!closed && t.gs[0].round() >= 2) {
        closed = true;
        report.events.push(`closed guest1 in round ${t.gs[0].round()}`);
        await t.gs[0].close();
      }
    });
  } else if (SCENARIO === "restart" || SCENARIO === "drop") {
    const t = await table(1, "host:1:0:0", { drop: "20" });
    if (SCENARIO === "drop") await byLink(t.room);
    let g = SCENARIO === "drop", h = SCENARIO === "drop";
    await until(t.all, allOver(t.all), async () => {
      if (!g && t.gs[0].round() >= 2) {
        g = true;
        report.events.push(`reloaded guest1 in round ${t.gs[0].round()}`);
        await t.gs[0].open({ pilot: "cont", room: t.room, drop: "20" });
      }
      if (g && !h && t.h.round() >= 4) {
        h = true;
        report.events.push(`reloaded host in round ${t.h.round()}`);
        await t.h.open({ pilot: "cont:1:0:0", drop: "20" });
      }
    });
    if (SCENARIO === "restart") await cached(t.all);
  } else if (SCENARIO === "bench") {
    const t0 = Date.now();
    const t = await table(1, "host:1:0:0");
    // the transport's counters as round 2 and round 5 begin (seen within 0.5 s)
    const at = {};
    await until(t.all, () => t.all.every((p) => p.round() >= 5), async () => {
      for (const r of [2, 5]) {
        if (!at[r] && t.h.round() >= r) at[r] = t.all.map((p) => ({ ...p.stats }));
      }
    });
    report.bench = { wall_ms: Date.now() - t0, rtt: [], at };
    for (const p of t.all) report.bench.rtt.push(...await p.page.evaluate(() => window.pdlink.rtt(60)));
  } else {
    throw new Error("no scenario " + SCENARIO);
  }
} catch (e) {
  report.fatal = String(e.stack || e);
} finally {
  for (const [k, p] of Object.entries(seen)) report.pages[k] = { lines: p.lines, stats: p.stats };
  fs.writeFileSync(args.out, JSON.stringify(report, null, 1));
  await browser.close();
}
