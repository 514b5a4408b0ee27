#!/usr/bin/env python3
"""The browser page: build it into build/web/ (`make web-dist`), or build and serve it on
127.0.0.1 (`make web`).

    python tools/web/web_build.py [--out build/web] [--serve] [--port 8000]

The site is static: index.html at its root, web/pd.js and web/sw.js (the offline copy),
MicroPython's WebAssembly port (micropython.mjs and .wasm, from
web/node_modules/@micropython/micropython-webassembly-pyscript: `npm ci` in web/, pinned
by web/package-lock.json), and the files the page writes into the port's filesystem,
listed in manifest.json as [url, path, offset, size] and fetched at once as bundle.bin
(the same bytes, one file after the other):
- fw/: the firmware's compiled build for the DevKit profile, as tools/flashing/build.py makes it
  for the device (main.py and boot.py source, the rest .mpy, board.mpy), unmodified;
- sim/: the simulator's stand-ins the firmware runs on (tools/sim: machine.py and its
  panel and sensor models, simrun.py), compiled by mpy-cross, at /tools/sim;
- py/webrun.mpy: the page's Python half (web/webrun.py), compiled, at /web;
- the link game's files (tools/web/web_link.py: the page's radio, PeerJS, link.json).
The version (manifest.json, the service worker's cache name) is a hash of every file.
"""
import argparse
import hashlib
import http.server
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from paths import ROOT  # noqa: E402  (and the tools' folders on sys.path)
import build as fwbuild  # noqa: E402
import peer_server  # noqa: E402
import web_link  # noqa: E402

BOARD = "esp32_devkit"
PORT_PKG = os.path.join("web", "node_modules", "@micropython", "micropython-webassembly-pyscript")
PORT_FILES = ("micropython.mjs", "micropython.wasm")
PAGE_FILES = ("index.html", "pd.js")
SIM_FILES = ("machine.py", "oled_model.py", "accel_model.py", "simrun.py")
MIME = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
        ".mpy": "application/octet-stream", ".py": "text/plain", ".bin": "application/octet-stream",
        ".json": "application/json"}


class WebBuildError(Exception):
    pass


def port_dir(root=ROOT):
    d = os.path.join(root, PORT_PKG)
    if not all(os.path.isfile(os.path.join(d, f)) for f in PORT_FILES):
        raise WebBuildError("no MicroPython WebAssembly port in %s: run `make web-deps` "
                            "(npm ci in web/)" % os.path.relpath(d, root))
    return d


def _walk(top):
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        for fn in sorted(filenames):
            yield os.path.join(dirpath, fn)


def _compile(src, dst, name):
    res = subprocess.run(fwbuild.mpy_cross_cmd() + ["-O1", "-s", name, "-o", dst, src],
                         capture_output=True, text=True)
    if res.returncode:
        raise WebBuildError("mpy-cross failed on %s:\n%s%s" % (src, res.stdout, res.stderr))


def build(out, root=ROOT, board=BOARD, link=None):
    """Writes the site into out (emptied first); returns the manifest. link: web_link.add's
    servers (peer, stun, turn)."""
    pdir = port_dir(root)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    with tempfile.TemporaryDirectory() as tmp:
        fwbuild.build(board, tmp, firmware=os.path.join(root, "firmware"),
                      boards_dir=os.path.join(root, "boards"))
        shutil.copytree(os.path.join(tmp, board), os.path.join(out, "fw"))
    files = []
    for path in _walk(os.path.join(out, "fw")):
        rel = os.path.relpath(path, out).replace(os.sep, "/")
        files.append([rel, "/" + rel])
    # The host side, compiled too (the page starts sooner than compiling sources).
    os.makedirs(os.path.join(out, "sim"))
    for fn in SIM_FILES:
        mpy = fn[:-3] + ".mpy"
        _compile(os.path.join(root, "tools", "sim", fn), os.path.join(out, "sim", mpy),
                 "tools/sim/" + fn)
        files.append(["sim/" + mpy, "/tools/sim/" + mpy])
    os.makedirs(os.path.join(out, "py"))
    _compile(os.path.join(root, "web", "webrun.py"), os.path.join(out, "py", "webrun.mpy"),
             "web/webrun.py")
    files.append(["py/webrun.mpy", "/web/webrun.mpy"])
    files += web_link.add(out, root, _compile, **(link or {}))
    for fn in PORT_FILES:
        shutil.copyfile(os.path.join(pdir, fn), os.path.join(out, fn))
    for fn in PAGE_FILES:
        shutil.copyfile(os.path.join(root, "web", fn), os.path.join(out, fn))
    # One fetch for them all: bundle.bin is the files' bytes one after the other, each
    # [url, path, offset, size] in the manifest (the bytes as in the files, unmodified).
    entries = []
    offset = 0
    with open(os.path.join(out, "bundle.bin"), "wb") as b:
        for url, path in files:
            with open(os.path.join(out, url), "rb") as f:
                data = f.read()
            b.write(data)
            entries.append([url, path, offset, len(data)])
            offset += len(data)
    files = entries
    h = hashlib.sha256()
    for path in _walk(out):
        h.update(os.path.relpath(path, out).encode() + b"\0")
        with open(path, "rb") as f:
            h.update(f.read())
    with open(os.path.join(root, "web", "sw.js")) as f:
        sw = f.read()
    h.update(sw.encode())
    with open(os.path.join(pdir, "package.json")) as f:
        port_version = json.load(f)["version"]
    version = h.hexdigest()[:12]
    with open(os.path.join(out, "sw.js"), "w") as f:
        f.write(sw.replace("__VERSION__", version))
    manifest = {"version": version, "board": board, "port": port_version, "files": files}
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, separators=(",", ":"))
        f.write("\n")
    return manifest


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **MIME)

    def end_headers(self):
        # Always the files as they are now (a rebuilt site is seen at the next load).
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, fmt, *args):
        pass


def server(out, port=0, host="127.0.0.1"):
    """A static server of out on host:port (0: any free port), not yet serving."""
    def handler(*a, **kw):
        return Handler(*a, directory=out, **kw)
    return http.server.ThreadingHTTPServer((host, port), handler)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, "build", "web"))
    p.add_argument("--serve", action="store_true", help="serve the site on 127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--peer", help="the link game's PeerServer, e.g. https://host/path/ "
                   "(default: PeerJS's public one; with --serve a local one on 127.0.0.1)")
    p.add_argument("--stun", help="STUN servers, comma-separated, or none (default: PeerJS's)")
    p.add_argument("--turn", help="a TURN relay, turn:host:port[,user,password], for networks "
                   "that need one (docs/browser.md)")
    args = p.parse_args(argv)
    peers = []  # the local PeerServer, stopped however this ends (Ctrl-C in the build too)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        return _main(args, peers)
    except KeyboardInterrupt:
        return 130
    finally:
        for proc in peers:
            peer_server.stop(proc)


def _interrupt(signum, frame):
    raise KeyboardInterrupt  # SIGTERM as Ctrl-C: the PeerServer stopped on the way out


def _main(args, peers):
    link = {"peer": args.peer, "stun": args.stun, "turn": args.turn}
    try:
        if args.serve and not args.peer:  # one machine: a local PeerServer, no STUN
            proc, pport = peer_server.start(args.port + 1 if args.port else 0)
            peers.append(proc)
            link.update(peer="http://127.0.0.1:%d/" % pport, stun=args.stun or "none")
        m = build(os.path.abspath(args.out), link=link)
    except (WebBuildError, fwbuild.BuildError, peer_server.PeerServerError, OSError,
            ValueError) as e:
        print("web: %s" % e, file=sys.stderr)
        return 2
    print("web: %s (version %s, %d firmware files, MicroPython %s)" % (
        os.path.relpath(args.out), m["version"], sum(1 for f in m["files"] if f[0].startswith("fw/")),
        m["port"]), flush=True)
    if not args.serve:
        return 0
    try:
        srv = server(os.path.abspath(args.out), args.port)
    except OSError as e:
        print("web: cannot listen on 127.0.0.1:%d: %s (try WEB_PORT=...)" % (args.port, e),
              file=sys.stderr)
        return 2
    if peers:
        print("web: the link game's PeerServer on %s" % link["peer"], flush=True)
    print("web: play at http://127.0.0.1:%d/  (Ctrl-C stops)" % srv.server_address[1], flush=True)
    try:
        srv.serve_forever()
    finally:
        srv.server_close()
    return 0

if __name__ == "__main__":
    sys.exit(main())
