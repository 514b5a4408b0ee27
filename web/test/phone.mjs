// The page as a phone's player meets it, for web/test/check.mjs (host_tests/test_web.py):
// the first visit on a fresh profile (sound, the app's install check, a touch tap), and
// the layout at the sizes of phones, tablets and laptops (every key in view, the panel's
// size, every label's contrast).
import { launch, watch } from "./browser.mjs";

export const PHONE = { width: 390, height: 844 };
export const TOUCH = { hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const GESTURES = ["pointerdown", "pointerup", "keydown", "click", "touchend", "mousedown"];

// Every AudioContext made and every resume(), with the event being handled at the time
// (window.event: none in a timer or a frame callback). The checks go by that, not by the
// context's state alone: Playwright's evaluate() counts as a gesture for the page, so
// after one a context made anywhere would run (without one, under the browser's
// default policy, a context made at load stays "suspended").
function audioSpy() {
  window.__audio = [];
  const AC = window.AudioContext;
  const note = (what) => window.__audio.push({ what, event: window.event ? window.event.type : null });
  window.AudioContext = class extends AC {
    constructor(...a) { note("new"); super(...a); }
  };
  const resume = AC.prototype.resume;
  AC.prototype.resume = function (...a) { note("resume"); return resume.apply(this, a); };
}

// The first visit of a phone on a fresh profile, from `url` (a server of its own, which
// counts the bytes): the page loads, its service worker takes its copy; no sound is made
// before a gesture; Chromium's install check; then a touch tap starts the sound, inside
// the tap.
export async function firstVisit(url) {
  const out = { errors: [] };
  const { context, close } = await launch(PHONE, TOUCH);
  try {
    const page = context.pages()[0] || await context.newPage();
    watch(page, out.errors);
    const logs = [];
    page.on("console", (m) => logs.push(m.text()));
    await page.addInitScript(audioSpy);
    await page.goto(url);
    await page.evaluate(() => window.pd.ready);
    await page.waitForFunction(() => window.pd.screen() === "menu", null, { timeout: 20000 });
    out.controlled = await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller) {
        await new Promise((r) => navigator.serviceWorker.addEventListener("controllerchange", r, { once: true }));
      }
      return !!navigator.serviceWorker.controller;
    });
    await page.waitForTimeout(1000);  // idle on the menu: nothing may sound yet
    out.before = await page.evaluate(() => ({ audio: window.pd.audio(), calls: window.__audio.slice(),
      said: window.pd.said(), hint: document.getElementById("shake-hint").textContent,
      status: document.getElementById("status").textContent }));
    const cdp = await context.newCDPSession(page);
    out.install = (await cdp.send("Page.getInstallabilityErrors")).installabilityErrors;
    const manifest = await cdp.send("Page.getAppManifest");
    out.manifestErrors = manifest.errors;
    // A touch tap on NEXT: the sound starts inside it.
    const box = await page.locator('[data-b="NEXT"]').boundingBox();
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForTimeout(400);
    out.after = await page.evaluate(() => ({ audio: window.pd.audio(), calls: window.__audio.slice(),
      said: window.pd.said() }));
    // The phone moves: the SHAKE key now offers the phone's shake.
    out.motionHint = await page.evaluate(() => {
      window.dispatchEvent(new DeviceMotionEvent("devicemotion", {
        acceleration: { x: 0.1, y: 0, z: 0 }, accelerationIncludingGravity: { x: 0.1, y: 0, z: 9.81 },
        rotationRate: { alpha: 0, beta: 0, gamma: 0 }, interval: 16 }));
      return document.getElementById("shake-hint").textContent;
    });
    // The full-screen control, tapped.
    const full = page.locator("#full");
    out.fullscreen = { shown: await full.isVisible() };
    if (out.fullscreen.shown) {
      const fb = await full.boundingBox();
      await page.touchscreen.tap(fb.x + fb.width / 2, fb.y + fb.height / 2);
      await page.waitForTimeout(300);
      out.fullscreen.on = await page.evaluate(() => !!document.fullscreenElement);
      out.fullscreen.label = await full.textContent();
    }
    out.audioWarnings = logs.filter((t) => /AudioContext/.test(t));
  } finally {
    await close();
  }
  return out;
}

// SOUND OFF, tapped, stays off after a reload: a tap then makes no sound at all.
export async function muteVisit(url) {
  const { context, close } = await launch(PHONE, TOUCH);
  try {
    const page = context.pages()[0] || await context.newPage();
    const tapOn = async (sel) => {
      const b = await page.locator(sel).boundingBox();
      await page.touchscreen.tap(b.x + b.width / 2, b.y + b.height / 2);
    };
    await page.goto(url + "?clock=step&slot=mute");
    await page.evaluate(() => window.pd.ready);
    await tapOn("#mute");
    const out = { muted: await page.evaluate(() => window.pd.muted()) };
    await page.reload();
    await page.evaluate(() => window.pd.ready);
    await tapOn('[data-b="NEXT"]');
    await page.waitForTimeout(300);
    return Object.assign(out, await page.evaluate(() => ({ reloaded: window.pd.muted(),
      label: document.getElementById("mute").textContent, audio: window.pd.audio() })));
  } finally {
    await close();
  }
}

// The page as a phone on the LAN gets it: plain http from an address that is not this
// computer's (a name the browser maps to 127.0.0.1: nothing leaves the machine). The
// browser makes it no secure context: no service worker, no motion; the page says so.
export async function insecureVisit(url) {
  const u = new URL(url);
  const { context, close } = await launch(PHONE, TOUCH, [`--host-resolver-rules=MAP phone.test ${u.hostname}`]);
  try {
    const page = context.pages()[0] || await context.newPage();
    await page.goto(`http://phone.test:${u.port}/?clock=step&slot=lan`);
    await page.evaluate(() => window.pd.ready);
    await page.evaluate(() => window.pd.step(60));
    const out = await page.evaluate(() => ({ secure: window.isSecureContext, worker: "serviceWorker" in navigator,
      screen: window.pd.screen(), status: document.getElementById("status").textContent,
      hint: document.getElementById("shake-hint").textContent }));
    // The note takes room under the panel: the keys stay in view on a phone on its side.
    await page.setViewportSize({ width: PHONE.height, height: PHONE.width });
    await page.waitForTimeout(50);
    out.layout = { touch: true, ...await page.evaluate(measure) };
    return out;
  } finally {
    await close();
  }
}

// Where every key and the panel are, and each label's contrast, on the page at its
// current size.
function measure() {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };
  const rgb = (c) => { const m = c.match(/[\d.]+/g).map(Number); return m.length > 3 ? m : [...m, 1]; };
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const labels = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.closest(".sr")) continue;
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    if (!r.width || !r.height || cs.visibility === "hidden") continue;
    let bg = null;
    let image = false;
    for (let a = el; a; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (s.backgroundImage !== "none") image = true;
      const c = rgb(s.backgroundColor);
      if (c[3] > 0) { bg = c; break; }
    }
    bg = bg || [255, 255, 255, 1];
    const [l1, l2] = [lum(rgb(cs.color)), lum(bg)].sort((x, y) => y - x);
    labels.push({ text: el.textContent.trim().slice(0, 40), color: cs.color, bg: `rgb(${bg.slice(0, 3)})`,
      image, opacity: cs.opacity, ratio: Math.round((l1 + 0.05) / (l2 + 0.05) * 100) / 100 });
  }
  const keys = {};
  for (const el of document.querySelectorAll(".pad button")) keys[el.dataset.b] = box(el);
  const se = document.scrollingElement;
  return { w: innerWidth, h: innerHeight, scrollW: se.scrollWidth, scrollH: se.scrollHeight,
    panel: box(document.getElementById("oled")), keys, labels };
}

// The page at each size: phones and tablets (touch), then laptops (a mouse and keys).
export async function layouts(url) {
  const out = [];
  const kinds = [
    [TOUCH, [[390, 844], [844, 390], [360, 640], [640, 360], [412, 915], [915, 412], [820, 1180], [1180, 820]]],
    [{}, [[1280, 800], [1366, 768], [1920, 1080], [800, 600]]],
  ];
  for (const [extra, sizes] of kinds) {
    const [w0, h0] = sizes[0];
    const { context, close } = await launch({ width: w0, height: h0 }, extra);
    try {
      const page = context.pages()[0] || await context.newPage();
      await page.goto(url + "?clock=step&seed=1&slot=layout");
      await page.evaluate(() => window.pd.ready);
      await page.evaluate(() => window.pd.step(60));
      for (const [w, h] of sizes) {
        await page.setViewportSize({ width: w, height: h });
        await page.waitForTimeout(50);
        out.push({ touch: !!extra.hasTouch, ...await page.evaluate(measure) });
      }
    } finally {
      await close();
    }
  }
  return out;
}
