// The page's checks in headless Chromium, for host_tests/test_web.py:
//
//   node web/test/check.mjs --url http://127.0.0.1:PORT/ --plans plans.json --out result.json
//       [--fresh http://127.0.0.1:PORT2/]
//
// plans.json (host_tests/web_plans.py) holds the unix-port tests' scenarios as inputs
// and frames; each is replayed on a phone's page (touch, 390 x 844) with its clock stepped
// by the test (?clock=step, as ui_rig's Rig steps the App): buttons pressed by touches on
// the on-screen buttons, shakes by a finger held on SHAKE, frames read back from the canvas.
// First (web/test/phone.mjs): a phone's first visit from --fresh URL (sound only from a
// tap, the install check, the full-screen control), and the layout at many sizes.
// Then, on the real clock: a shake made of synthetic devicemotion events rolls; a reload
// in the middle of a game offers CONTINUE, which restores it exactly; the page starts
// with the network off. Every console error, page error and failed request is reported.
import fs from "node:fs";
import { launch, watch } from "./browser.mjs";
import { PHONE, TOUCH, firstVisit, insecureVisit, layouts, muteVisit } from "./phone.mjs";

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith("--")) acc.push([a.slice(2), all[i + 1]]);
  return acc;
}, []));
const BASE = args.url;
const plans = JSON.parse(fs.readFileSync(args.plans, "utf8"));
const result = { plans: [], errors: [] };

// A phone: touch, a mobile viewport, the browser's default autoplay policy (no sound
// before a gesture). Taps and holds are touches (CDP's touch events), never clicks.
const { context, close } = await launch(PHONE, TOUCH);
const page = context.pages()[0] || await context.newPage();
watch(page, result.errors);
// No external resources: every request stays on the page's own server.
page.on("request", (r) => {
  const u = r.url();
  if (!u.startsWith(BASE) && !u.startsWith("data:") && !u.startsWith("blob:")) result.errors.push(`external request: ${u}`);
});
const touch = await context.newCDPSession(page);

async function open(query) {
  await page.goto(BASE + query);
  await page.evaluate(() => window.pd.ready);
}

async function centers() {
  const out = {};
  for (const b of ["PREV", "NEXT", "OK", "BACK", "SHAKE"]) {
    const box = await page.locator(`[data-b="${b}"]`).boundingBox();
    out[b] = [box.x + box.width / 2, box.y + box.height / 2];
  }
  return out;
}

// A finger down on (x, y) / lifted.
async function fingerDown([x, y]) {
  await touch.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [{ x, y, id: 1 }] });
}

async function fingerUp() {
  await touch.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
}

// One plan: its ops in order; "boot" opens the page on a fresh save slot.
async function replay(name, ops, slotBase) {
  const t0 = Date.now();
  const rec = { name, snaps: 0, steps: 0, mismatches: [], boots: 0, ms: 0, end: null };
  let at = null;
  let held = null;  // the button the finger holds down
  for (const op of ops) {
    const [kind, a, b] = op;
    if (kind === "boot") {
      rec.boots++;
      await open(`?clock=step&seed=${a}&slot=${slotBase}-${rec.boots}-${Date.now()}`);
      at = await centers();
    } else if (kind === "step") {
      rec.steps += a;
      if (!await page.evaluate((n) => window.pd.step(n), a)) throw new Error(`${name}: the firmware stopped`);
    } else if (kind === "press" || (kind === "shake" && a === 1)) {
      const button = kind === "press" ? a : "SHAKE";
      if (held) throw new Error(`${name}: two buttons at once (${held}, ${button})`);
      await fingerDown(at[button]);
      held = button;
    } else if (kind === "release" || kind === "shake") {
      const button = kind === "release" ? a : "SHAKE";
      if (held !== button) throw new Error(`${name}: ${button} let go but ${held} held`);
      await fingerUp();
      held = null;
    } else if (kind === "snap") {
      rec.snaps++;
      const got = await page.evaluate(() => window.pd.frame());
      if (got !== b) rec.mismatches.push({ snap: a, want: b, got });
      if (rec.mismatches.length >= 3) break;
    }
  }
  rec.end = await page.evaluate(() => window.pd.state());
  rec.ms = Date.now() - t0;
  return rec;
}

try {
  // A phone's first visit (its own server, which counts the bytes), then the layouts.
  if (args.fresh) result.first = await firstVisit(args.fresh);
  result.layouts = await layouts(BASE);
  result.lan = await insecureVisit(BASE);
  result.mute = await muteVisit(BASE);

  for (const [name, plan] of Object.entries(plans)) {
    result.plans.push(await replay(name, plan.ops, name.replace(/\W/g, "")));
  }

  // ---- a reload in the middle of a game: CONTINUE restores it exactly ----------------
  // The whole Shake Up game's plan, replayed to a human's decision half way, then the
  // page is reloaded on the same saves (a power cut) and CONTINUE pressed.
  {
    const ops = plans["shakeup game"].ops;
    // The cut: half way, just before the human moves the cursor from where a view
    // opens (Continue opens a view with the cursor there too).
    let cut = Math.floor(ops.length / 2);
    const moves = (op) => op[0] === "press" && (op[1] === "NEXT" || op[1] === "PREV");
    while (cut < ops.length && !(moves(ops[cut]) && ops[cut - 1][0] === "step")) cut++;
    if (cut >= ops.length) throw new Error("no cursor move in the second half of the plan");
    const slot = `reload-${Date.now()}`;
    await open(`?clock=step&seed=${ops[0][1]}&slot=${slot}`);
    const at = await centers();
    for (const [kind, a] of ops.slice(1, cut)) {
      if (kind === "step") await page.evaluate((n) => window.pd.step(n), a);
      else if (kind === "press" || (kind === "shake" && a === 1)) await fingerDown(at[kind === "press" ? a : "SHAKE"]);
      else if (kind === "release" || kind === "shake") await fingerUp();
    }
    const before = await page.evaluate(() => window.pd.state());
    const frameBefore = await page.evaluate(() => window.pd.frame());
    await page.evaluate(() => window.pd.kept());
    await open(`?clock=step&seed=99&slot=${slot}`);
    await page.evaluate(() => window.pd.step(60));
    const menu = await page.evaluate(() => window.pd.state());
    const at2 = await centers();
    await fingerDown(at2.OK);
    await page.evaluate(() => window.pd.step(3));
    await fingerUp();
    await page.evaluate(() => window.pd.step(30));
    const after = await page.evaluate(() => window.pd.state());
    const frameAfter = await page.evaluate(() => window.pd.frame());
    result.reload = { before, menu, after, frameBefore, frameAfter };
  }

  // ---- a damaged save in the browser's storage: said once, set aside, nothing breaks ----
  {
    const slot = `damaged-${Date.now()}`;
    await page.evaluate(async (key) => {
      const db = await new Promise((resolve, reject) => {
        const req = indexedDB.open("pocket-dice", 1);
        req.onupgradeneeded = () => req.result.createObjectStore("slots");
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      await new Promise((resolve, reject) => {
        const tx = db.transaction("slots", "readwrite");
        // game.sav cut short (a header only), and a name that is no file of the store's.
        tx.objectStore("slots").put({ "game.sav": new Uint8Array([0x50, 0x44, 0x47, 1, 40, 0]),
          "../x": new Uint8Array([1]) }, key);
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    }, slot);
    await open(`?clock=step&seed=1&slot=${slot}`);
    await page.evaluate(() => window.pd.step(45));
    const menu = await page.evaluate(() => window.pd.state());
    await page.evaluate(() => window.pd.kept());
    result.damaged = { menu };
  }

  // ---- the real clock: a phone's shake, sound, the offline copy -----------------------
  {
    const slot = `motion-${Date.now()}`;
    await open(`?seed=7&slot=${slot}`);
    await page.waitForFunction(() => window.pd.screen() === "menu", null, { timeout: 15000 });
    // A laptop's keys this time: Enter is OK.
    const key = async (k) => {
      await page.keyboard.down(k);
      await page.waitForTimeout(60);
      await page.keyboard.up(k);
      await page.waitForTimeout(250);
    };
    await key("Enter");  // SHAKE UP
    const setup = await page.evaluate(() => window.pd.state());
    await key("Enter");  // START (the first time: you against a NORMAL CPU)
    // Wait for the human's roll (the roll-off's die), then shake the "phone".
    await page.waitForFunction(() => {
      const s = window.pd.state();
      return s.screen === "shakeup" && s.rolling && !s.tumbling && !s.cpus[s.player];
    }, null, { timeout: 20000, polling: 50 });
    const motion = await page.evaluate(async () => {
      const seen = { tumbled: false, notices: [], events: 0 };
      const before = window.pd.frame();
      const t0 = performance.now();
      await new Promise((resolve) => {
        const id = setInterval(() => {
          const t = performance.now() - t0;
          if (t > 900) { clearInterval(id); resolve(); return; }
          // ~60 Hz readings of a hand shaking the phone: the acceleration swings
          // through zero with every stroke.
          const a = 22 * Math.sin(t / 1000 * 2 * Math.PI * 4);
          window.dispatchEvent(new DeviceMotionEvent("devicemotion", {
            acceleration: { x: a, y: a / 3, z: 0 },
            accelerationIncludingGravity: { x: a, y: a / 3, z: 9.81 },
            rotationRate: { alpha: 0, beta: 0, gamma: 0 }, interval: 16,
          }));
          seen.events++;
          const s = window.pd.state();
          if (s.tumbling) seen.tumbled = true;
          if (s.notice && !seen.notices.includes(s.notice)) seen.notices.push(s.notice);
        }, 16);
      });
      // Still: the dice land once the shake has ended.
      for (let i = 0; i < 60; i++) {
        await new Promise((r) => setTimeout(r, 50));
        const s = window.pd.state();
        if (s.tumbling) seen.tumbled = true;
        if (s.notice && !seen.notices.includes(s.notice)) seen.notices.push(s.notice);
        if (seen.tumbled && !s.tumbling) break;
      }
      seen.after = window.pd.state();
      seen.changed = window.pd.frame() !== before;
      seen.tone = window.pd.stats.tones;
      seen.audio = window.pd.audio();
      return seen;
    });
    result.motion = motion;
    result.motion.setup = setup;
    // The offline copy: the service worker has cached the page; with the network off
    // a reload starts it again, and CONTINUE is offered (the saves are kept).
    await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((r) => navigator.serviceWorker.addEventListener("controllerchange", r, { once: true }));
      }
      return !!reg.active;
    });
    await page.evaluate(() => window.pd.kept());
    await context.setOffline(true);
    const t0 = Date.now();
    await page.reload();
    await page.evaluate(() => window.pd.ready);
    await page.waitForFunction(() => window.pd.screen() === "menu", null, { timeout: 15000 });
    result.offline = { ms: Date.now() - t0, state: await page.evaluate(() => window.pd.state()) };
    await context.setOffline(false);
  }
} catch (e) {
  result.fatal = String(e && e.stack || e);
} finally {
  fs.writeFileSync(args.out, JSON.stringify(result));
  await close();
}
