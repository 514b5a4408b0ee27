"""The link game's part of the browser page's site (tools/web/web_build.py calls add()):

- link_radio.js (the page's WebRTC transport and room, web/link_radio.js);
- peerjs.min.js (PeerJS's browser build) and qrcode.mjs (the QR encoder), copied from
  web/node_modules (npm `peerjs`, `qrcode-generator`, pinned by web/package-lock.json):
  served from the site, never from a CDN;
- py/radio.mpy: web/radio.py compiled, written in the port's filesystem over the device
  build's /fw/link/radio.mpy (after it: the page writes the bundle's files in order), so
  the firmware's link code runs unchanged over the page's radio;
- sim/link_pilot.mpy, sim/qstr_pools.mpy: the link tests' player at the buttons
  (`?pilot=`, tools/sim/link_pilot.py), loaded only when asked for;
- link.json: where the signalling and ICE servers are. By default nothing is set, and
  PeerJS uses its public server and STUN servers; `make web` sets its local PeerServer
  and no STUN (one machine). The page's query overrides both (web/link_radio.js).
"""
import json
import os
import shutil

COPIED = (("peerjs.min.js", ("peerjs", "dist", "peerjs.min.js")),
          ("qrcode.mjs", ("qrcode-generator", "dist", "qrcode.mjs")))
PILOT_FILES = ("link_pilot.py", "qstr_pools.py")


def add(out, root, compile_py, peer=None, stun=None, turn=None):
    """Writes the link's files into the site out; returns the bundle's new entries
    [url, path in the port's filesystem]. compile_py(src, dst, name) is mpy-cross."""
    shutil.copyfile(os.path.join(root, "web", "link_radio.js"), os.path.join(out, "link_radio.js"))
    mods = os.path.join(root, "web", "node_modules")
    for name, parts in COPIED:
        src = os.path.join(mods, *parts)
        if not os.path.isfile(src):
            raise FileNotFoundError("no %s: run `make web-deps` (npm ci in web/)" % os.path.relpath(src, root))
        shutil.copyfile(src, os.path.join(out, name))
    entries = []
    for fn in PILOT_FILES:
        mpy = fn[:-3] + ".mpy"
        compile_py(os.path.join(root, "tools", "sim", fn), os.path.join(out, "sim", mpy),
                   "tools/sim/" + fn)
        entries.append(["sim/" + mpy, "/tools/sim/" + mpy])
    compile_py(os.path.join(root, "web", "radio.py"), os.path.join(out, "py", "radio.mpy"),
               "web/radio.py")
    entries.append(["py/radio.mpy", "/fw/link/radio.mpy"])
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
    return entries
