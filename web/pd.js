// Pocket Dice in a browser: the handheld's firmware, unmodified, on MicroPython's
// WebAssembly port (@micropython/micropython-webassembly-pyscript 1.28.0-6, the
// firmware's MicroPython: web/package.json pins it). This file is the page's half: it
// loads the port, writes the compiled firmware (tools/flashing/build.py's device layout), the
// simulator's stand-ins and the saved files into the port's filesystem, then runs
// web/webrun.py once a frame and turns its messages (tools/sim/simrun.py's stream) into
// the canvas, the buzzer's tone, the panel's text for screen readers and the saves kept
// in IndexedDB.
//
// Query options (for the tests and the bench; a player needs none):
//   ?clock=step   no clock: the frames run only when pd.step(n) asks (as ui_rig's Rig)
//   ?seed=N       dice from core.seeded.Seeded(N) instead of crypto.getRandomValues
//   ?slot=NAME    the saved files' slot in IndexedDB (default "main")
import { loadMicroPython } from "./micropython.mjs";

const FRAME_MS = 33;           // the firmware's frame (app.FRAME_MS)
const FAR_BEHIND_MS = 200;     // later than this, the schedule starts again from now
const TAP_FRAMES = 3;          // a button is held at least this many frames (debounce + poll)
const GAP_FRAMES = 2;          // and let go this many before a queued tap of it
const SHAKE_MIN_MS = 700;      // a click on SHAKE shakes this long (the detector needs ~250 ms)
const MOTION_MS2 = 10;         // a phone's acceleration (m/s^2, gravity removed) that shakes
const MOTION_QUIET_MS = 350;   // the shake ends once the phone has been still this long
const PIXEL_ON = [222, 240, 255];
const PIXEL_OFF = [6, 10, 16];
const BUTTONS = ["PREV", "NEXT", "OK", "BACK"];
const KEYS = {
  ArrowLeft: "PREV", ArrowUp: "PREV", a: "PREV", A: "PREV",
  ArrowRight: "NEXT", ArrowDown: "NEXT", d: "NEXT", D: "NEXT",
  Enter: "OK", " ": "OK", Escape: "BACK", Backspace: "BACK",
  s: "SHAKE", S: "SHAKE",
};

const params = new URLSearchParams(location.search);
const LOCKSTEP = params.get("clock") === "step";
const SEED = params.has("seed") ? parseInt(params.get("seed"), 10) : -1;
const SLOT = params.get("slot") || "main";

const statusEl = document.getElementById("status");
const canvas = document.getElementById("oled");
const ctx2d = canvas.getContext("2d", { willReadFrequently: LOCKSTEP });
const image = ctx2d.createImageData(128, 64);
const muteEl = document.getElementById("mute");
const fullEl = document.getElementById("full");
const saidEl = document.getElementById("said");
const shakeHintEl = document.getElementById("shake-hint");

let wr = null;           // the webrun module (Python)
let mp = null;
let now = 0;             // the firmware's clock: ms since its boot
let frames = 0;          // frames stepped since the page loaded
let boots = 0;
let asleep = false;
let stopped = false;
let screen = null;
let lastFrame = new Uint8Array(1024);
const stats = { t_menu: null, t_boot: null, t_port: null, t_files: null, t_start: null, t_first: null, steps: 0, step_ms: [], draws: 0, tones: 0 };

function say(text, error) {
  statusEl.textContent = text;
  statusEl.classList.toggle("err", !!error);
}

// ---- the saved files: the firmware's /data folder, kept in IndexedDB ----------------
// The store's own code writes /data (atomic renames, CRCs: firmware/system/store/); after
// every frame the folder is compared with what was kept, and a change is kept whole in
// one IndexedDB transaction: a reload or a closed tab is a power cut between frames.

const DB = "pocket-dice";
let db = null;
let keptSig = "";
let writing = null;
let again = false;
let keepFailed = false;

function idb() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore("slots");
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function idbGet(key) {
  return new Promise((resolve, reject) => {
    const req = db.transaction("slots").objectStore("slots").get(key);
    req.onsuccess = () => resolve(req.result || null);
    req.onerror = () => reject(req.error);
  });
}

function idbPut(key, value) {
  return new Promise((resolve, reject) => {
    const tx = db.transaction("slots", "readwrite");
    tx.objectStore("slots").put(value, key);
    tx.oncomplete = () => resolve();
    tx.onerror = tx.onabort = () => reject(tx.error);
  });
}

function dataFiles() {
  const FS = mp.FS;
  const out = [];
  for (const name of FS.readdir("/data")) {
    if (name === "." || name === "..") continue;
    const st = FS.stat("/data/" + name);
    if (FS.isFile(st.mode)) out.push([name, st]);
  }
  return out;
}

function dataSig(files) {
  // A save replaces its file by renaming a new one over it: a new inode each time.
  return files.map(([n, st]) => `${n}:${st.ino}:${st.size}:${+st.mtime}`).join("|");
}

function keepData() {
  if (!db) return;
  const files = dataFiles();
  const sig = dataSig(files);
  if (sig === keptSig) return;
  keptSig = sig;
  const snap = {};
  for (const [n] of files) snap[n] = mp.FS.readFile("/data/" + n);
  if (writing) { again = snap; return; }
  const put = (s) => {
    writing = idbPut(SLOT, s).catch((e) => {
      if (!keepFailed) say("This browser would not keep the saves (storage full or blocked).", true);
      keepFailed = true;
      console.warn("pocket dice: could not keep the saves:", e);
    })
      .then(() => {
        writing = null;
        if (again) { const n = again; again = null; put(n); }
      });
  };
  put(snap);
}

async function kept() {
  while (writing) await writing;
}

// ---- the panel ------------------------------------------------------------------------

function draw(frame) {
  const px = image.data;
  for (let y = 0; y < 64; y++) {
    const page = (y >> 3) * 128;
    const bit = 1 << (y & 7);
    for (let x = 0; x < 128; x++) {
      const c = frame[page + x] & bit ? PIXEL_ON : PIXEL_OFF;
      const i = (y * 128 + x) * 4;
      px[i] = c[0]; px[i + 1] = c[1]; px[i + 2] = c[2]; px[i + 3] = 255;
    }
  }
  ctx2d.putImageData(image, 0, 0);
  stats.draws++;
}

function panel(lit, contrast) {
  canvas.classList.toggle("off", !lit);
  // The panel's contrast as brightness (the device dims it when idle; 207 the default).
  const b = 0.45 + 0.55 * Math.min(1, contrast / 207);
  canvas.style.filter = contrast >= 207 ? "" : `brightness(${b.toFixed(2)})`;
}

// What the canvas shows, read back as the panel's bytes (MONO_VLSB): for the tests.
function canvasFrame() {
  const px = ctx2d.getImageData(0, 0, 128, 64).data;
  const out = new Uint8Array(1024);
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 128; x++) {
      const i = (y * 128 + x) * 4;
      if (px[i] === PIXEL_ON[0] && px[i + 1] === PIXEL_ON[1] && px[i + 2] === PIXEL_ON[2]) {
        out[(y >> 3) * 128 + x] |= 1 << (y & 7);
      } else if (px[i] !== PIXEL_OFF[0] || px[i + 1] !== PIXEL_OFF[1] || px[i + 2] !== PIXEL_OFF[2]) {
        throw new Error(`canvas pixel ${x},${y} is neither lit nor dark`);
      }
    }
  }
  return out;
}

// ---- the buzzer: a square wave at the PWM's frequency ----------------------------------
// The AudioContext is made, and resumed, only inside the player's tap or key (unlock()):
// a browser lets no sound start before one, and WebKit resumes a context only there.

let audio = null;
let osc = null;
let gain = null;
let tone = [0, 0];
let muted = localStorage.getItem("pd-muted") === "1";

function unlock() {
  if (muted) return;
  if (!audio) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return;
    audio = new AC();
    osc = audio.createOscillator();
    osc.type = "square";
    gain = audio.createGain();
    gain.gain.value = 0;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    sound();
  }
  // "suspended" before a gesture, "interrupted" on iOS after a call or the lock screen.
  if (audio.state !== "running" && audio.state !== "closed") audio.resume().catch(() => {});
}

function sound() {
  if (!audio) return;
  const [freq, duty] = tone;
  const t = audio.currentTime;
  if (!muted && duty > 0 && freq >= 20 && freq <= 20000) {
    osc.frequency.setValueAtTime(freq, t);
    gain.gain.setTargetAtTime(0.06, t, 0.002);
  } else {
    gain.gain.setTargetAtTime(0, t, 0.004);
  }
}

function setMuted(m) {
  muted = m;
  localStorage.setItem("pd-muted", m ? "1" : "0");
  muteEl.textContent = m ? "SOUND OFF" : "SOUND ON";
  muteEl.setAttribute("aria-pressed", m ? "true" : "false");
  sound();
}

// ---- full screen, and what this browser lets the page do ------------------------------

function toggleFull() {
  if (document.fullscreenElement) document.exitFullscreen().catch(() => {});
  else document.documentElement.requestFullscreen({ navigationUI: "hide" }).catch(() => {});
}

function showFull() {
  fullEl.textContent = document.fullscreenElement ? "EXIT FULL SCREEN" : "FULL SCREEN";
}

// The SHAKE button promises a shake of the phone only once the phone has sent motion;
// over plain http from another address the browser sends none (nor keeps an offline
// copy): the page says so and what to do (docs/browser.md).
let motionSeen = false;

function motionWorks() {
  if (motionSeen) return;
  motionSeen = true;
  shakeHintEl.textContent = "hold, or shake the phone";
}

function reachNote() {
  if (window.isSecureContext) return "";
  return "Plain http: no shake sensor, no offline copy here (a phone needs the page " +
    "over HTTPS, or on localhost). Hold SHAKE to roll.";
}

// ---- simrun's messages ------------------------------------------------------------------

const dec = new TextDecoder();

function handle(msg) {
  let i = 0;
  while (i < msg.length) {
    let nl = msg.indexOf(10, i);
    if (nl < 0) nl = msg.length;
    const line = dec.decode(msg.subarray(i, nl));
    i = nl + 1;
    const sp = line.indexOf(" ");
    const kind = sp < 0 ? line : line.slice(0, sp);
    const rest = sp < 0 ? "" : line.slice(sp + 1);
    if (kind === "F") {
      const n = parseInt(rest.split(" ")[2], 10);
      lastFrame = msg.slice(i, i + n);
      i += n;
      draw(lastFrame);
    } else if (kind === "S") {
      screen = rest;
      if (rest === "menu" && stats.t_menu === null) {
        stats.t_menu = performance.now();
        say(reachNote());
      }
    } else if (kind === "T") {
      tone = rest.split(" ").map(Number);
      if (tone[1] > 0) stats.tones++;
      sound();
    } else if (kind === "D") {
      const [lit, contrast] = rest.split(" ").map(Number);
      panel(lit, contrast);
    } else if (kind === "P") {
      if (saidEl.textContent !== rest) saidEl.textContent = rest;
    } else if (kind === "Z") {
      asleep = rest === "1";
      if (asleep) say("Asleep: press a button to wake it.");
    } else if (kind === "C") {
      console.warn("pocket dice: the firmware crashed and restarts:", rest);
    } else if (kind === "X") {
      fail("the firmware stopped: " + rest);
    }
  }
}

function fail(text) {
  stopped = true;
  say(text, true);
  console.error("pocket dice: " + text);
}

// One frame of the firmware at `now`, then what it said, then the saves.
function stepOnce() {
  const t0 = performance.now();
  try {
    wr.tick(now);
  } catch (e) {
    fail(e.message || String(e));
    return;
  }
  const b = wr.boots();
  if (b !== boots) {  // it restarted (a crash, a wake): its clock starts again at 0
    boots = b;
    now = 0;
  }
  frames++;
  stats.steps++;
  if (stats.t_first === null) stats.t_first = performance.now();
  const dt = performance.now() - t0;
  if (stats.step_ms.length < 100000) stats.step_ms.push(dt);
  releaseDue();
  keepData();
}

// ---- buttons: on screen, keys, and the shake -------------------------------------------
// A press reaches the firmware at once; a short tap is held TAP_FRAMES frames (the
// firmware debounces and polls once a frame), and taps of the same button that come
// faster than that are queued. With ?clock=step the test's own timing goes straight in.

const btn = {};
for (const b of BUTTONS) btn[b] = { sent: false, down: false, since: 0, queued: 0, ready: 0 };

function send(line) {
  if (wr && !stopped) wr.command(line);
}

function pressButton(b) {
  if (asleep) {  // the button wakes the chip: it is down while it boots
    send("p " + b);
    btn[b].sent = true;
    btn[b].since = frames;
    btn[b].down = true;
    asleep = false;
    say(reachNote());
    wr.wake();
    boots = wr.boots();
    now = clock = due = 0;
    return;
  }
  const s = btn[b];
  s.down = true;
  if (LOCKSTEP || (!s.sent && frames >= s.ready)) {
    s.sent = true;
    s.since = frames;
    send("p " + b);
  } else if (s.queued < 3) {
    s.queued++;
  }
}

function releaseButton(b) {
  const s = btn[b];
  s.down = false;
  if (LOCKSTEP) {
    s.sent = false;
    send("r " + b);
    return;
  }
  releaseDue();
}

function releaseDue() {
  if (LOCKSTEP) return;
  for (const b of BUTTONS) {
    const s = btn[b];
    if (s.sent && !s.down) {
      if (frames - s.since < TAP_FRAMES) continue;  // a short tap: held a moment longer
      s.sent = false;
      s.ready = frames + GAP_FRAMES;
      send("r " + b);
    } else if (!s.sent && s.queued && frames >= s.ready) {
      s.queued--;
      s.sent = true;
      s.since = frames;
      send("p " + b);
    }
  }
}

// Shaking: the SHAKE button or key (held), or the phone's motion. simrun's "s 1" makes
// the simulated accelerometer report vigorous motion until "s 0", which the firmware's
// own shake detector (hal/shake.py) turns into the roll.
const shakers = new Set();
let shaking = false;
let shakeT0 = 0;
let shakeOffTimer = 0;

function shakeOn(who) {
  shakers.add(who);
  clearTimeout(shakeOffTimer);
  if (!shaking) {
    shaking = true;
    shakeT0 = performance.now();
    send("s 1");
    document.querySelector('[data-b="SHAKE"]').classList.add("down");
  }
}

function shakeOff(who) {
  shakers.delete(who);
  if (!shaking || shakers.size) return;
  const left = LOCKSTEP ? 0 : SHAKE_MIN_MS - (performance.now() - shakeT0);
  const stop = () => {
    if (shakers.size) return;
    shaking = false;
    send("s 0");
    document.querySelector('[data-b="SHAKE"]').classList.remove("down");
  };
  if (left > 0) shakeOffTimer = setTimeout(stop, left);
  else stop();
}

// A phone's devicemotion comes ~60 times a second, the acceleration swinging through
// zero with every stroke: one shake from the first strong reading until the phone has
// been still MOTION_QUIET_MS, not one per reading (which the firmware would take for a
// broken sensor).
let lastMotion = 0;
let motionTimer = 0;

function onMotion(e) {
  let m = null;
  const a = e.acceleration;
  if (a && a.x !== null && a.x !== undefined) {
    m = Math.hypot(a.x || 0, a.y || 0, a.z || 0);
  } else {
    const g = e.accelerationIncludingGravity;
    if (g && g.x !== null && g.x !== undefined) m = Math.abs(Math.hypot(g.x || 0, g.y || 0, g.z || 0) - 9.81);
  }
  if (m === null) return;
  motionWorks();
  if (m < MOTION_MS2) return;
  lastMotion = performance.now();
  if (!shakers.has("motion")) {
    shakeOn("motion");
    const check = () => {
      if (performance.now() - lastMotion >= MOTION_QUIET_MS) shakeOff("motion");
      else motionTimer = setTimeout(check, 50);
    };
    clearTimeout(motionTimer);
    motionTimer = setTimeout(check, MOTION_QUIET_MS);
  }
}

let askedMotion = false;
let askingMotion = false;

function askMotion() {
  // iOS 13+: motion events only once the page has asked, in a tap. Asked again at the
  // next tap if the browser did not take this one as a gesture.
  const DME = window.DeviceMotionEvent;
  if (askedMotion || askingMotion || !DME || typeof DME.requestPermission !== "function") return;
  askingMotion = true;
  DME.requestPermission().then((r) => {
    askedMotion = true;
    if (r !== "granted") say("Motion not allowed: hold SHAKE to roll.");
  }).catch(() => {}).finally(() => { askingMotion = false; });
}

function wireInput() {
  for (const el of document.querySelectorAll(".pad button")) {
    const b = el.dataset.b;
    const down = (e) => {
      e.preventDefault();
      unlock();  // a mouse's press is a gesture (a touch's is its lift: below)
      if (el.hasPointerCapture && e.pointerId !== undefined) {
        try { el.setPointerCapture(e.pointerId); } catch (_) { /* synthetic */ }
      }
      if (b !== "SHAKE" && el.classList.contains("down")) return;  // (SHAKE: held on again)
      el.classList.add("down");
      if (b === "SHAKE") shakeOn("button");
      else pressButton(b);
    };
    const up = (e) => {
      if (!el.classList.contains("down")) return;
      e.preventDefault();
      if (b === "SHAKE") shakeOff("button");
      else {
        el.classList.remove("down");
        releaseButton(b);
      }
      if (b === "SHAKE" && !shaking) el.classList.remove("down");
    };
    el.addEventListener("pointerdown", down);
    el.addEventListener("pointerup", (e) => { unlock(); up(e); askMotion(); });
    el.addEventListener("pointercancel", up);
    el.addEventListener("lostpointercapture", up);
    el.addEventListener("contextmenu", (e) => e.preventDefault());
  }
  document.addEventListener("click", () => { unlock(); askMotion(); });
  window.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "m" || e.key === "M") {
      if (!e.repeat) { setMuted(!muted); unlock(); }
      return;
    }
    if ((e.key === "f" || e.key === "F") && document.fullscreenEnabled) {
      if (!e.repeat) toggleFull();
      return;
    }
    const b = KEYS[e.key];
    if (!b) return;
    e.preventDefault();
    if (e.repeat) return;  // held: the firmware sees it held (and repeats on its own)
    unlock();
    if (b === "SHAKE") shakeOn("key");
    else pressButton(b);
  });
  window.addEventListener("keyup", (e) => {
    const b = KEYS[e.key];
    if (!b) return;
    e.preventDefault();
    if (b === "SHAKE") shakeOff("key");
    else if (btn[b].down) releaseButton(b);
  });
  window.addEventListener("blur", () => {
    for (const b of BUTTONS) if (btn[b].down) releaseButton(b);
    for (const w of [...shakers]) shakeOff(w);
  });
  window.addEventListener("devicemotion", onMotion);
  muteEl.addEventListener("click", () => { setMuted(!muted); unlock(); });
  setMuted(muted);
  if (document.fullscreenEnabled) {
    fullEl.hidden = false;
    fullEl.addEventListener("click", toggleFull);
    document.addEventListener("fullscreenchange", showFull);
  }
  // A closed or hidden tab: keep what the last frame wrote.
  document.addEventListener("visibilitychange", () => { if (document.hidden) keepData(); });
}

// ---- the loop -------------------------------------------------------------------------
// The firmware's 30 frames a second on the page's clock (App.run's schedule: a late frame
// is caught up at once, far behind it starts again). While the tab is hidden the clock
// stands still: the game waits where it was.

let clock = 0;  // ms the page has run the firmware since its boot
let due = 0;
let lastTs = null;

function loop(ts) {
  if (stopped) return;
  if (lastTs !== null && !asleep) {
    clock += Math.min(ts - lastTs, 100);
    let n = 0;
    while (clock >= due && n < 2 && !stopped && !asleep) {
      const b = boots;
      now = due;  // the frame runs at its scheduled time
      stepOnce();
      if (boots !== b) { clock = due = 0; break; }  // a restart: its clock from 0
      due += FRAME_MS;
      n++;
    }
    if (clock - due > FAR_BEHIND_MS) due = clock;
  }
  lastTs = ts;
  requestAnimationFrame(loop);
}

// ---- start ---------------------------------------------------------------------------

async function fetchBytes(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`${url}: ${r.status}`);
  return new Uint8Array(await r.arrayBuffer());
}

function mkdirs(FS, path) {
  let p = "";
  for (const part of path.split("/").slice(1, -1)) {
    p += "/" + part;
    try { FS.mkdir(p); } catch (_) { /* exists */ }
  }
}

async function start() {
  const t0 = performance.now();
  if ("serviceWorker" in navigator && location.protocol !== "file:" && !LOCKSTEP) {
    navigator.serviceWorker.register("sw.js").catch((e) => console.warn("pocket dice: offline copy unavailable:", e));
  }
  // The port, the bundle and its list at once (index.html preloads the last two).
  const [port, [bundle, files], opened] = await Promise.all([
    loadMicroPython({
      heapsize: 2 * 1024 * 1024,
      stdout: (line) => console.log(line),
      stderr: (line) => console.error(line),
    }).then((m) => { stats.t_port = performance.now(); return m; }),
    Promise.all([fetch("files.json").then((r) => r.json()), fetchBytes("bundle.bin")]).then(([list, b]) => {
      stats.t_files = performance.now();
      return [list, list.files.map(([, path, offset, size]) => [path, b.subarray(offset, offset + size)])];
    }),
    idb().catch((e) => { console.warn("pocket dice: no IndexedDB, saves last until the tab closes:", e); return null; }),
  ]);
  mp = port;
  db = opened;
  const FS = mp.FS;
  for (const [path, data] of files) {
    mkdirs(FS, path);
    FS.writeFile(path, data);
  }
  FS.mkdir("/data");
  const saved = db ? await idbGet(SLOT).catch(() => null) : null;
  if (saved && typeof saved === "object") {
    // Only plain file names and bytes: anything else in the slot is not the store's.
    // A damaged file itself is the store's to find (CRC) and to set aside, as on the device.
    for (const name of Object.keys(saved)) {
      if (/^[\w.-]+$/.test(name) && saved[name] instanceof Uint8Array) FS.writeFile("/data/" + name, saved[name]);
    }
  }
  keptSig = dataSig(dataFiles());
  mp.registerJsModule("pdhost", { messages: handle });
  mp.runPython("import sys\nsys.path.insert(0, '/web')");
  wr = mp.pyimport("webrun");
  stats.t_boot = performance.now();
  wr.start(SEED);
  stats.t_start = performance.now();
  boots = wr.boots();
  wireInput();
  window.pd.version = bundle.version;
  if (LOCKSTEP) {
    now = 1000;  // as ui_rig's Rig: the first frame at 1000 ms
    stepOnce();
    now += FRAME_MS;
  } else {
    now = 0;  // the first frame at once, the next on the schedule
    stepOnce();
    due = FRAME_MS;
    requestAnimationFrame(loop);
  }
  console.info(`pocket dice ${bundle.version}: firmware loaded in ${Math.round(performance.now() - t0)} ms`);
}

// The tests' and the bench's handle on the page.
window.pd = {
  ready: null,
  stats,
  lockstep: LOCKSTEP,
  step(n = 1) {
    for (let i = 0; i < n && !stopped; i++) {
      stepOnce();
      now += FRAME_MS;
    }
    return !stopped;
  },
  state() { return JSON.parse(wr.state()); },
  frame() { return Array.from(canvasFrame(), (v) => v.toString(16).padStart(2, "0")).join(""); },
  screen() { return screen; },
  frames() { return frames; },
  kept,
  tone() { return tone.slice(); },
  audio() { return audio ? audio.state : "none"; },
  said() { return saidEl.textContent; },
  muted() { return muted; },
  stopped() { return stopped; },
};
window.pd.ready = start().catch((e) => {
  fail("could not start: " + (e.message || e));
  throw e;
});
