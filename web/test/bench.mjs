// The page's speed in headless Chromium, for tools/bench/web_bench.py (`make bench`):
//
//   node web/test/bench.mjs --url http://127.0.0.1:PORT/ --seconds 60 --loads 3 --out bench.json
//       [--fresh http://127.0.0.1:PORT2/]
//
// - a phone's first visit from --fresh (a server of its own, which counts the bytes:
//   tools/bench/web_bench.py), until the service worker has its copy (web/test/phone.mjs);
// - time to the menu from a cold load: a fresh browser profile (no cache, no offline
//   copy), from the navigation's start to the frame that shows the menu (the firmware's
//   splash included), `loads` times for each profile: a laptop (1280 x 800) and a phone
//   (390 x 844, touch, the CPU slowed 4x by Chromium's throttling);
// - frames per second over `seconds` of play on the real clock: Shake Up, you against a
//   HARD CPU, played through the on-screen buttons (OK, which also hurries the CPU, or
//   SHAKE held when the dice are yours to roll), with each firmware frame's time in the page (wr.tick and the
//   drawing, the saves).
import fs from "node:fs";
import { launch, watch } from "./browser.mjs";
import { PHONE, TOUCH, firstVisit } from "./phone.mjs";

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith("--")) acc.push([a.slice(2), all[i + 1]]);
  return acc;
}, []));
const BASE = args.url;
const SECONDS = Number(args.seconds || 60);
const LOADS = Number(args.loads || 3);
const out = { loads: [], errors: [] };

function pct(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p / 100 * s.length))] : null;
}

if (args.fresh) {
  const first = await firstVisit(args.fresh);
  out.errors.push(...first.errors);
}

const PROFILES = { laptop: [{ width: 1280, height: 800 }, {}, 1], phone: [PHONE, TOUCH, 4] };
for (const [profile, [viewport, extra, slow]] of Object.entries(PROFILES)) {
  for (let i = 0; i < LOADS; i++) {
    const { context, close } = await launch(viewport, extra);
    const page = context.pages()[0] || await context.newPage();
    watch(page, out.errors);
    if (slow > 1) await (await context.newCDPSession(page)).send("Emulation.setCPUThrottlingRate", { rate: slow });
    await page.goto(BASE + `?slot=bench-load-${i}`);
    await page.waitForFunction(() => window.pd && window.pd.stats.t_menu !== null, null, { timeout: 60000 });
    out.loads.push({ profile, ...await page.evaluate(() => ({
      menu_ms: window.pd.stats.t_menu,
      boot_ms: window.pd.stats.t_boot,
      load_ms: performance.getEntriesByType("navigation")[0].loadEventEnd,
    })) });
    await close();
  }
}

{
  const { context, close } = await launch({ width: 360, height: 740 });
  const page = context.pages()[0] || await context.newPage();
  watch(page, out.errors);
  await page.goto(BASE + "?slot=bench-play");
  await page.waitForFunction(() => window.pd && window.pd.screen() === "menu", null, { timeout: 30000 });
  const at = {};
  for (const b of ["PREV", "NEXT", "OK", "BACK", "SHAKE"]) {
    const box = await page.locator(`[data-b="${b}"]`).boundingBox();
    at[b] = [box.x + box.width / 2, box.y + box.height / 2];
  }
  const hold = async (b, ms) => {
    await page.mouse.move(...at[b]);
    await page.mouse.down();
    await page.waitForTimeout(ms);
    await page.mouse.up();
  };
  await hold("OK", 80);  // SHAKE UP
  await page.waitForTimeout(300);
  // The setup (its rows read from the panel's text line, pd.said()): GREEN's row, its
  // picker, on to CPU HARD, chosen; then START.
  const said = () => page.evaluate(() => window.pd.said());
  const press = async (b) => { await hold(b, 80); await page.waitForTimeout(250); };
  await press("PREV");
  await press("OK");
  for (let i = 0; i < 4 && !(await said()).includes("> CPU HARD"); i++) await press("NEXT");
  await press("OK");
  for (let i = 0; i < 8 && !(await said()).includes("> START"); i++) await press("NEXT");
  await press("OK");
  await page.waitForTimeout(300);
  const started = await page.evaluate(() => window.pd.state());
  const f0 = await page.evaluate(() => { window.pd.stats.step_ms.length = 0; return window.pd.frames(); });
  const t0 = Date.now();
  let presses = 0;
  let shakes = 0;
  let games = 0;
  while (Date.now() - t0 < SECONDS * 1000) {
    const s = await page.evaluate(() => window.pd.state());
    if (s.screen === "setup" && !(await said()).includes("> START")) {
      await hold("NEXT", 80);  // on to START
    } else if (s.screen === "menu" || s.screen === "setup") {
      await hold("OK", 80);  // a game ended: another (CONTINUE or the setup's START)
      games++;
    } else if (s.rolling && !s.tumbling && !s.cpus[s.player]) {
      await hold("SHAKE", 800);
      shakes++;
    } else {
      await hold("OK", 80);  // a human's choice, or OK hurries the CPU
      presses++;
    }
    await page.waitForTimeout(250);
  }
  const secs = (Date.now() - t0) / 1000;
  const res = await page.evaluate(() => ({ frames: window.pd.frames(), step_ms: window.pd.stats.step_ms.slice() }));
  const ms = res.step_ms;
  out.play = {
    seconds: secs, cpus: started.cpus, frames: res.frames - f0, fps: (res.frames - f0) / secs,
    presses, shakes, games,
    step_ms: { p50: pct(ms, 50), p95: pct(ms, 95), p99: pct(ms, 99), max: Math.max(...ms),
      over_33: ms.filter((x) => x > 33).length },
  };
  await close();
}
fs.writeFileSync(args.out, JSON.stringify(out));
