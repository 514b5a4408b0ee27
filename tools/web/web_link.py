"""The link game's part of the browser page's site (tools/web/web_build.py calls sources()
and add()):

- in bundle.bin (sources()): py/radio.mpy, web/radio.py compiled, written in the port's
  filesystem over the device build's /fw/link/radio.mpy (after it: the page writes the
  bundle's files in order), so the firmware's link code runs unchanged over the page's
  radio; for the tests only (pilot=True), sim/link_pilot.mpy and sim/qstr_pools.mpy, the
  link tests' player at the buttons (`?pilot=`, tools/sim/link_pilot.py);
- page files (add()): link_radio.js (the page's WebRTC transport and room,
  web/link_radio.js), loaded with the page; link.json, where the signalling and ICE
  servers are: by default nothing is set, and PeerJS uses its public server and STUN
  servers; `make web` sets its local PeerServer and no STUN (one machine). The page's
  query overrides both (web/link_radio.js);
- LAZY: peerjs.min.js (PeerJS's browser build) and qrcode.mjs (the QR encoder), copied
  from web/node_modules (npm `peerjs`, `qrcode-generator`, pinned by
  web/package-lock.json): served from the site, never from a CDN, and fetched only when
  a link game first starts (the service worker caches them then, web/sw.js), so a first
  visit does not pay for them.
"""
import json
import os
import shutil

COPIED = (("peerjs.min.js", ("peerjs", "dist", "peerjs.min.js")),
          ("qrcode.mjs", ("qrcode-generator", "dist", "qrcode.mjs")))
PILOT_FILES = ("link_pilot.py", "qstr_pools.py")
PAGE = ("link_radio.js", "link.json")  # loaded with the page (web/sw.js caches them at once)
LAZY = tuple(name for name, _ in COPIED)  # loaded when LINK GAME first needs them


def sources(pilot=False):
    """The link's files in bundle.bin, each compiled by the build: [(source, name in the
    bundle, path in the port's filesystem)]."""
    out = [("tools/sim/" + fn, "sim/" + fn[:-3] + ".mpy", "/tools/sim/" + fn[:-3] + ".mpy")
           for fn in (PILOT_FILES if pilot else ())]
    return out + [("web/radio.py", "py/radio.mpy", "/fw/link/radio.mpy")]


def add(out, root, mods=None, peer=None, stun=None, turn=None):
    """Writes the link's page files (PAGE and LAZY) into the site out; mods: the
    node_modules to copy from (default web/node_modules)."""
    shutil.copyfile(os.path.join(root, "web", "link_radio.js"), os.path.join(out, "link_radio.js"))
    mods = mods or os.path.join(root, "web", "node_modules")
    for name, parts in COPIED:
        src = os.path.join(mods, *parts)
        if not os.path.isfile(src):
            raise FileNotFoundError("no %s: run `make web-deps` (npm ci in web/)" % os.path.relpath(src, root))
        shutil.copyfile(src, os.path.join(out, name))
    cfg = {}
    for k, v in (("peer", peer), ("stun", stun)):
        if v:
            cfg[k] = v
    if turn:  # URL[,USER,PASSWORD]
        parts = turn.split(",")
        cfg["turn"] = parts[0]
        if len(parts) == 3:
            cfg["turnuser"], cfg["turnpass"] = parts[1], parts[2]
        elif len(parts) != 1:
            raise ValueError("--turn is URL or URL,USER,PASSWORD, not %r" % turn)
    with open(os.path.join(out, "link.json"), "w") as f:
        json.dump(cfg, f)
        f.write("\n")
