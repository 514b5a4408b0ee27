// The link game between pages: the firmware's radio (web/radio.py, in place of the
// device's ESP-NOW) over WebRTC data channels, with PeerJS's signalling; and, beside the
// panel, the room: the host's code, link and QR code, the guest's code box.
//
// Each page is a peer named "pocketdice-" + its room code (5 letters, from its radio
// address, which the page keeps in localStorage per save slot: a reload is the same
// handheld). A guest's page opens a channel to the host's page (unordered, unreliable,
// as the air is: the game's own acknowledgements do the rest); a frame to the broadcast
// address goes to every open channel. The first message each way on a channel is the
// sender's radio address ("mac " + 12 hex digits); then every message is one frame.
//
// Where the signalling server and ICE servers are: the build's link.json
// (tools/web/web_link.py: the public PeerJS server by default, `make web`'s own local
// one), then the query:
//   ?peer=URL      the PeerServer (http://127.0.0.1:9000/ or https://host/path/)
//   ?stun=URL,...  STUN servers ("none": none, as on one machine or one network)
//   ?turn=URL&turnuser=U&turnpass=P   a TURN relay (networks that block peer to peer;
//                  link.json's turnuser/turnpass likewise)
//   ?room=CODE     join that host's room (the host's link carries it)
//   ?drop=N        for the tests: N % of the frames this page sends are dropped
const PREFIX = "pocketdice-";
const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";  // no 0/O, 1/I
const CODE_LEN = 5;
const REDIAL_MS = 2000;   // a guest's page calls its host again this often while not connected
const REGISTER_MS = 3000; // and registers again after the server lost it
const BROADCAST = "ffffffffffff";

const params = new URLSearchParams(location.search);
const SLOT = params.get("slot") || "main";
const DROP = Math.max(0, Math.min(100, parseFloat(params.get("drop") || "0") || 0));

const hex = (u8) => Array.from(u8, (v) => v.toString(16).padStart(2, "0")).join("");
const unhex = (s) => Uint8Array.from(s.match(/../g).map((h) => parseInt(h, 16)));

// The page's radio address: 6 random bytes, locally administered, not multicast.
function address() {
  const key = "pd-mac-" + SLOT;
  let m = localStorage.getItem(key);
  if (!m || !/^[0-9a-f]{12}$/.test(m)) {
    const b = crypto.getRandomValues(new Uint8Array(6));
    b[0] = (b[0] & 0xfc) | 0x02;
    m = hex(b);
    localStorage.setItem(key, m);
  }
  return m;
}

function roomCode(mac) {
  let v = BigInt("0x" + mac);
  let s = "";
  for (let i = 0; i < CODE_LEN; i++) {
    s += ALPHABET[Number(v % 32n)];
    v /= 32n;
  }
  return s;
}

function cleanCode(s) {
  return (s || "").toUpperCase().replace(/[^A-Z0-9]/g, "").slice(0, CODE_LEN);
}

// The signalling and ICE servers: link.json, then the query. STUN by default is PeerJS's
// own default STUN server (peerjs.util.defaultConfig); a TURN relay only when one is
// given (PeerJS's default list also has its public TURN relays: not used).
async function loadConfig(util) {
  let cfg = {};
  try {
    const r = await fetch("link.json");
    if (r.ok) cfg = await r.json();
  } catch (_) { /* offline: no link game anyway */ }
  const opts = { debug: 0 };
  const peer = params.get("peer") || cfg.peer;
  if (peer) {
    const u = new URL(peer);
    opts.host = u.hostname;
    opts.port = parseInt(u.port || (u.protocol === "https:" ? "443" : "80"), 10);
    opts.path = u.pathname || "/";
    opts.secure = u.protocol === "https:";
  }
  const stun = (params.has("stun") ? params.get("stun") : cfg.stun) || "default";
  let ice = [];
  if (stun === "default") {
    ice = util.defaultConfig.iceServers.filter((s) => [].concat(s.urls).every((u) => u.startsWith("stun:")));
  } else if (stun !== "none") {
    ice = stun.split(",").filter((u) => u).map((u) => ({ urls: u }));
  }
  const turn = params.get("turn") || cfg.turn;
  if (turn) {
    ice.push({ urls: turn, username: params.get("turnuser") || cfg.turnuser || "",
      credential: params.get("turnpass") || cfg.turnpass || "" });
  }
  opts.config = { iceServers: ice };
  return opts;
}

// ---- the transport ----------------------------------------------------------------------

const mac = address();
const code = roomCode(mac);
const stats = { started: null, opened: null, connected: null, sent: 0, dropped: 0, got: 0, bytesOut: 0, bytesIn: 0, errors: [] };
let peer = null;
let up = false;         // the firmware's radio is on
let target = cleanCode(params.get("room") || localStorage.getItem("pd-room-" + SLOT) || "");
if (params.get("room")) localStorage.setItem("pd-room-" + SLOT, target);  // for CONTINUE
const byMac = new Map(); // radio address (hex) -> its open channel
const inbox = [];
let redial = 0;
let generation = 0;      // start()s: one transport at a time
let hosting = false;     // another page called this one: it is a host
const pongs = [];        // round trips (ms) of the bench's pings
let dropState = (parseInt(mac.slice(6), 16) | 1) >>> 0;  // xorshift32: the drop hook's coin

function coin() {
  let s = dropState;
  s ^= s << 13; s >>>= 0;
  s ^= s >>> 17;
  s ^= s << 5; s >>>= 0;
  dropState = s;
  return (s % 10000) / 100;
}

function wire(conn) {
  let their = null;
  conn.on("open", () => {
    conn.send("mac " + mac);
    if (stats.connected === null) stats.connected = performance.now();
    ui();
  });
  conn.on("data", (d) => {
    if (typeof d === "string") {
      if (d.startsWith("ping ")) { conn.send("pong " + d.slice(5)); return; }
      if (d.startsWith("pong ")) { pongs.push(performance.now() - parseFloat(d.slice(5))); return; }
      const m = /^mac ([0-9a-f]{12})$/.exec(d);
      if (m && m[1] !== BROADCAST) {
        their = m[1];
        const old = byMac.get(their);
        if (old && old !== conn) old.close();  // the same handheld again (a reload)
        byMac.set(their, conn);
        ui();
      }
      return;
    }
    if (!their || !up) return;
    const f = new Uint8Array(d);
    const b = new Uint8Array(6 + f.length);
    b.set(unhex(their), 0);
    b.set(f, 6);
    if (inbox.length < 64) inbox.push(b);  // as the device's ring buffer: full, it drops
    stats.got++;
    stats.bytesIn += f.length;
  });
  const gone = () => {
    if (their && byMac.get(their) === conn) byMac.delete(their);
    ui();
  };
  conn.on("close", gone);
  conn.on("error", gone);
}

// A guest's page calls its host; a host's (its lobby up, or called by guests) never
// calls the room it last joined.
function dial() {
  if (!peer || !peer.open || !target || target === code || hosting) return;
  if (window.pd && window.pd.screen && window.pd.screen() === "link_lobby") return;
  const id = PREFIX + target;
  for (const c of byMac.values()) if (c.peer === id && c.open) return;
  wire(peer.connect(id, { reliable: false, serialization: "raw" }));
}

async function start() {
  const gen = ++generation;
  const { Peer, util } = await loadPeerJS();
  const opts = await loadConfig(util);
  if (!up || gen !== generation) return;  // turned off (and maybe on again) meanwhile
  register(Peer, opts);
  // Every REDIAL_MS: a guest calls its host while it has no channel to it; a page the
  // server lost registers again (PeerJS gives up on a taken id or a lost server).
  let since = performance.now();
  redial = setInterval(() => {
    if (peer.destroyed) {
      if (performance.now() - since >= REGISTER_MS) { since = performance.now(); register(Peer, opts); }
    } else if (peer.disconnected) {
      if (performance.now() - since >= REGISTER_MS) { since = performance.now(); peer.reconnect(); }
    } else {
      since = performance.now();
      dial();
    }
  }, REDIAL_MS);
}

function register(Peer, opts) {
  peer = new Peer(PREFIX + code, opts);
  peer.on("open", () => {
    if (stats.opened === null) stats.opened = performance.now();
    dial();
    ui();
  });
  peer.on("connection", (c) => { hosting = true; wire(c); });
  peer.on("error", (e) => {
    if (stats.errors.length < 20) stats.errors.push(e.type || String(e));
    else stats.errors[19] = e.type || String(e);  // the last one, for the note
    ui();
  });
}

// PeerJS's browser build (peerjs.min.js, copied from web/node_modules by the build) sets
// window.peerjs; loaded when a link game first starts.
let peerjs = null;
function loadPeerJS() {
  if (!peerjs) {
    peerjs = new Promise((resolve, reject) => {
      const s = document.createElement("script");
      s.src = "peerjs.min.js";
      s.onload = () => resolve(window.peerjs);
      s.onerror = () => reject(new Error("peerjs.min.js did not load"));
      document.head.appendChild(s);
    });
  }
  return peerjs;
}

// The firmware's side (web/radio.py).
window.pdlink = {
  code,
  stats,
  pilot: params.get("pilot") || "",  // the tests' player at the buttons (web/webrun.py)
  log: [],                           // its lines
  open() {
    if (!up) {
      up = true;
      if (stats.started === null) stats.started = performance.now();
      inbox.length = 0;
      start().catch((e) => { stats.errors.push(String(e.message || e)); ui(); });
    }
    ui();
    return unhex(mac);
  },
  send(to, frame) {
    const t = hex(to);
    const conns = t === BROADCAST ? [...byMac.values()] : [byMac.get(t)];
    let ok = false;
    for (const c of conns) {
      if (!c || !c.open) continue;
      stats.sent++;
      if (DROP && coin() < DROP) { stats.dropped++; ok = true; continue; }
      try {
        c.send(frame.slice());  // a copy: the port may reuse the memory under it
        stats.bytesOut += frame.length;
        ok = true;
      } catch (_) { /* a closing channel: the game resends */ }
    }
    return ok;
  },
  recv() {
    return inbox.length ? inbox.shift() : null;
  },
  close() {
    up = false;
    generation++;
    clearInterval(redial);
    if (peer) peer.destroy();
    peer = null;
    byMac.clear();
    inbox.length = 0;
    ui();
  },
  join(c) {
    target = cleanCode(c);
    localStorage.setItem("pd-room-" + SLOT, target);
    dial();
    ui();
  },
  peers() { return [...byMac.keys()]; },
  // For the bench: n pings on each open channel, one every 30 ms (about a frame, as
  // the game's frames come), beside the game's own frames; their round trips in ms.
  async rtt(n) {
    pongs.length = 0;
    for (let i = 0; i < n; i++) {
      for (const c of byMac.values()) if (c.open) c.send("ping " + performance.now());
      await new Promise((r) => setTimeout(r, 30));
    }
    await new Promise((r) => setTimeout(r, 500));
    return pongs.slice();
  },
};

// ---- the room, beside the panel ------------------------------------------------------------

let box = null;
// PeerJS's errors in plain words (its PeerErrorType names).
const SAY = {
  "peer-unavailable": "No page has that room (yet): check the code.",
  "network": "The signalling server cannot be reached.",
  "server-error": "The signalling server cannot be reached.",
  "socket-error": "The signalling server cannot be reached.",
  "browser-incompatible": "This browser has no WebRTC: no link game here.",
  "webrtc": "The connection failed (a network that needs a TURN relay?).",
};
let drawn = false;  // the QR code

function link() {
  const u = new URL(location.href);
  for (const k of ["room", "slot", "pilot", "seed", "drop", "clock"]) u.searchParams.delete(k);
  u.searchParams.set("room", code);
  return u.href;
}

async function qr(el, text) {
  try {
    const { default: qrcode } = await import("./qrcode.mjs");
    const q = qrcode(0, "M");
    q.addData(text);
    q.make();
    el.innerHTML = q.createSvgTag({ cellSize: 4, margin: 2, scalable: true });
  } catch (e) {
    el.textContent = "";
  }
}

function build() {
  const css = document.createElement("style");
  css.textContent = `
    .room { grid-column: 1 / -1; margin: 0 4px; padding: 8px 10px; border: 1px solid var(--edge, #464a52); border-radius: 12px; font-size: 13px; }
    .room[hidden] { display: none; }
    .room .code { font: 700 20px/1.2 ui-monospace, monospace; letter-spacing: .15em; }
    .room .qr { width: 160px; height: 160px; background: #fff; border-radius: 6px; margin: 6px 0; }
    .room .qr svg { width: 100%; height: 100%; display: block; }
    .room input { font: 700 16px ui-monospace, monospace; letter-spacing: .15em; width: 7em; text-transform: uppercase; }
    .room a { color: inherit; word-break: break-all; }
    .room .note { color: var(--dim, #9aa2ad); font-size: 12px; }`;
  document.head.appendChild(css);
  box = document.createElement("section");
  box.className = "room";
  box.hidden = true;
  box.setAttribute("aria-label", "Link game room");
  box.innerHTML = `
    <div class="host" hidden>Room <span class="code"></span>: the others open this link, or scan the code, or type the room in JOIN.
      <div class="qr" role="img" aria-label="QR code of the link"></div>
      <a class="url"></a></div>
    <form class="join" hidden>Host's room: <input name="code" autocomplete="off" maxlength="${CODE_LEN}" aria-label="Room code">
      <button type="submit">JOIN</button></form>
    <div class="note" aria-live="polite"></div>`;
  const where = document.querySelector(".device") || document.body;
  const help = where.querySelector(".help");
  where.insertBefore(box, help);
  box.querySelector(".code").textContent = code;
  const url = link();
  const a = box.querySelector(".url");
  a.href = url;
  a.textContent = url;
  const form = box.querySelector(".join");
  form.code.value = target;
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    window.pdlink.join(form.code.value);
  });
  // The keys are the handheld's: typing a code is not a button press.
  form.code.addEventListener("keydown", (e) => e.stopPropagation());
  form.code.addEventListener("keyup", (e) => e.stopPropagation());
}

// What to show follows the firmware's screen (the host's lobby, a guest's list of
// hosts, the live round); polled, so the firmware knows nothing of it.
function ui() {
  if (!box) return;
  const scr = window.pd && window.pd.screen ? window.pd.screen() : null;
  box.hidden = !up;
  const host = box.querySelector(".host");
  host.hidden = !(up && (scr === "link_lobby" || (scr === "link_live" && hosting)));
  if (!host.hidden && !drawn) {  // the QR encoder loads when first needed
    drawn = true;
    qr(box.querySelector(".qr"), link());
  }
  box.querySelector(".join").hidden = !(up && scr === "link_scan");
  let note = "";
  if (up && !peer) note = "Starting the link\u2026";
  else if (up && !peer.open) note = "Reaching the signalling server\u2026";
  else if (up && scr === "link_scan" && target && !byMac.size) note = `Calling room ${target}\u2026`;
  if (up && stats.errors.length && !byMac.size) {
    const e = stats.errors[stats.errors.length - 1];
    note += (note ? " " : "") + (SAY[e] || `(${e})`);
  }
  box.querySelector(".note").textContent = note;
}

// A link with ?room=CODE opens the page into LINK GAME -> JOIN: the menu's keys pressed
// as a person would (not with a pilot at the buttons: the tests').
async function intoJoin() {
  await window.pd.ready;
  const pause = (ms) => new Promise((r) => setTimeout(r, ms));
  for (let i = 0; i < 40 && window.pd.screen() !== "menu"; i++) await pause(250);  // the splash
  for (let i = 0; i < 16; i++) {
    const st = window.pd.state();
    let key = null;
    if (st.screen === "menu") key = st.item === "LINK GAME" ? "Enter" : "ArrowRight";
    else if (st.screen === "link") key = st.item === "JOIN" ? "Enter" : "ArrowRight";
    else return;
    window.dispatchEvent(new KeyboardEvent("keydown", { key }));
    await pause(60);
    window.dispatchEvent(new KeyboardEvent("keyup", { key }));
    await pause(250);
  }
}

function boot() {
  build();
  setInterval(ui, 300);
  if (params.get("room") && !params.get("pilot")) intoJoin().catch(() => {});
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
else boot();
