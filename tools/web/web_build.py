#!/usr/bin/env python3
"""The browser page: build it into build/web/ (`make web-dist`), or build and serve it
(`make web`: on 127.0.0.1, or with --host 0.0.0.0 on the LAN too).

    python tools/web/web_build.py [--out build/web] [--serve] [--host 127.0.0.1] [--port 8000]
        [--port-dir DIR]

The site is static and holds only what the page loads: index.html at its root, web/pd.js
and web/sw.js (the offline copy), MicroPython's WebAssembly port (micropython.mjs and
.wasm, from web/node_modules/@micropython/micropython-webassembly-pyscript: `npm ci` in
web/, pinned by web/package-lock.json; --port-dir another copy of that package), the app's
manifest (app.webmanifest) and icons (tools/web/web_icon.py), and bundle.bin, the files
the page writes into the port's filesystem one after the other, each listed in files.json
as [name, path, offset, size]:
- fw/: the firmware's compiled build for the DevKit profile, as tools/flashing/build.py makes it
  for the device (main.py and boot.py source, the rest .mpy, board.mpy), unmodified;
- sim/: the simulator's stand-ins the firmware runs on (tools/sim: machine.py and its
  panel and sensor models, simrun.py), compiled by mpy-cross, at /tools/sim;
- py/webrun.mpy: the page's Python half (web/webrun.py), compiled, at /web;
- the link game's (tools/web/web_link.py): py/radio.mpy, the page's radio, over the
  device's /fw/link/radio.mpy (and, for the tests, the link tests' player).
Besides, the link game's page files (web_link.py): link_radio.js and link.json, loaded
with the page, and PeerJS and the QR encoder, loaded when a link game first starts.
The version (files.json, the service worker's cache name) is a hash of every file.
Building needs Python, mpy-cross and the port's and the link's packages, nothing the
tests use.
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
import web_icon  # noqa: E402
import web_link  # noqa: E402

BOARD = "esp32_devkit"
PORT_PKG = os.path.join("web", "node_modules", "@micropython", "micropython-webassembly-pyscript")
PORT_FILES = ("micropython.mjs", "micropython.wasm")
PAGE_FILES = ("index.html", "pd.js")
SIM_FILES = ("machine.py", "oled_model.py", "accel_model.py", "simrun.py")
ICONS = (192, 512)  # the sizes a web app manifest needs (Chromium's install check)
NAME = "Pocket Dice"
THEME = "#17181c"  # web/index.html's page colour and theme-color
MIME = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
        ".bin": "application/octet-stream", ".json": "application/json",
        ".webmanifest": "application/manifest+json", ".png": "image/png"}


class WebBuildError(Exception):
    pass


def port_dir(root=ROOT, given=""):
    d = given or os.path.join(root, PORT_PKG)
    if not all(os.path.isfile(os.path.join(d, f)) for f in PORT_FILES):
        raise WebBuildError("no MicroPython WebAssembly port in %s: run `make web-deps` "
                            "(npm ci in web/)" % os.path.relpath(d, root))
    return d


def modules_dir(pdir):
    """The node_modules the port's package is in (PeerJS's and the QR encoder's too)."""
    return os.path.dirname(os.path.dirname(os.path.abspath(pdir)))


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


def _parts(tmp, root, board, pilot):
    """The files bundle.bin carries, made in tmp: [(name, path in the port, host file)]."""
    fwbuild.build(board, tmp, firmware=os.path.join(root, "firmware"),
                  boards_dir=os.path.join(root, "boards"))
    fw = os.path.join(tmp, board)
    out = [("fw/" + os.path.relpath(f, fw).replace(os.sep, "/"),
            "/fw/" + os.path.relpath(f, fw).replace(os.sep, "/"), f) for f in _walk(fw)]
    # The host side, compiled too (the page starts sooner than compiling sources); the
    # link's after the device's link/radio.mpy: the page's radio is the one imported.
    srcs = [("tools/sim/" + fn, "sim/" + fn[:-3] + ".mpy", "/tools/sim/" + fn[:-3] + ".mpy")
            for fn in SIM_FILES]
    srcs.append(("web/webrun.py", "py/webrun.mpy", "/web/webrun.mpy"))
    for src, name, path in srcs + web_link.sources(pilot):
        mpy = os.path.join(tmp, os.path.basename(name))
        _compile(os.path.join(root, *src.split("/")), mpy, src)
        out.append((name, path, mpy))
    return out


def app_manifest():
    """The web app manifest: what a browser needs to install the page as an app."""
    return {
        "name": NAME, "short_name": NAME, "id": "./", "start_url": "./", "scope": "./",
        "description": "Shake Up and Farkle Frenzy on the dice handheld's own firmware.",
        "display": "standalone", "orientation": "any",
        "background_color": THEME, "theme_color": THEME,
        "icons": [{"src": "icon-%d.png" % n, "sizes": "%dx%d" % (n, n), "type": "image/png",
                   "purpose": "any"} for n in ICONS],
    }


def build(out, root=ROOT, board=BOARD, port="", link=None, pilot=False):
    """Writes the site into out (emptied first); returns files.json's content. link:
    web_link.add's servers (peer, stun, turn); pilot: the link tests' player in the
    bundle (`?pilot=`, for the tests only)."""
    pdir = port_dir(root, port)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    entries = []
    offset = 0
    # One fetch for them all: bundle.bin is the files' bytes one after the other, each
    # [name, path, offset, size] in files.json (the bytes as in the files, unmodified).
    with tempfile.TemporaryDirectory() as tmp, open(os.path.join(out, "bundle.bin"), "wb") as b:
        for name, path, host in _parts(tmp, root, board, pilot):
            with open(host, "rb") as f:
                data = f.read()
            b.write(data)
            entries.append([name, path, offset, len(data)])
            offset += len(data)
    for fn in PORT_FILES:
        shutil.copyfile(os.path.join(pdir, fn), os.path.join(out, fn))
    for fn in PAGE_FILES:
        shutil.copyfile(os.path.join(root, "web", fn), os.path.join(out, fn))
    for n in ICONS:
        web_icon.write(os.path.join(out, "icon-%d.png" % n), n, root)
    web_link.add(out, root, modules_dir(pdir), **(link or {}))
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
    with open(os.path.join(out, "app.webmanifest"), "w") as f:
        json.dump(app_manifest(), f, indent=1)
        f.write("\n")
    files = {"version": version, "board": board, "port": port_version, "files": entries}
    with open(os.path.join(out, "files.json"), "w") as f:
        json.dump(files, f, separators=(",", ":"))
        f.write("\n")
    return files


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map, **MIME)

    def setup(self):
        super().setup()
        self.wfile = _Counted(self.wfile, self.server)

    def end_headers(self):
        # The files as they are now (a rebuilt site is seen at the next load), and a
        # file unchanged since the browser's copy costs a 304, not the file again
        # (Last-Modified: the service worker's install asks so, web/sw.js).
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_request(self, code="-", size="-"):
        self.server.requests.append((self.command, self.path, str(code)))

    def log_message(self, fmt, *args):
        pass


class _Counted:
    """A response stream that adds what it writes to its server's `sent` bytes."""

    def __init__(self, f, srv):
        self.f = f
        self.srv = srv

    def write(self, data):
        self.srv.sent += len(data)
        return self.f.write(data)

    def __getattr__(self, name):
        return getattr(self.f, name)


def server(out, port=0, host="127.0.0.1"):
    """A static server of out on host:port (0: any free port), not yet serving; its
    `sent` counts the bytes it has sent (headers and bodies), `requests` what it was
    asked (method, path, status)."""
    def handler(*a, **kw):
        return Handler(*a, directory=out, **kw)
    srv = http.server.ThreadingHTTPServer((host, port), handler)
    srv.sent = 0
    srv.requests = []
    return srv


def lan_addresses():
    """This computer's addresses a phone on the same network may reach (no packet
    leaves: a UDP socket's connect() only picks the route)."""
    import socket
    found = []
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): never sent to
            found.append(s.getsockname()[0])
        finally:
            s.close()
    except OSError:
        pass
    return [a for a in found if not a.startswith("127.")]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default=os.path.join(ROOT, "build", "web"))
    p.add_argument("--serve", action="store_true", help="serve the site (make web)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (0.0.0.0: every interface, the LAN too)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--port-dir", default="", help="the WebAssembly port's npm package")
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
        # One machine: a local PeerServer, no STUN. On the LAN (--host) the phones could
        # not reach one on 127.0.0.1: the public one then, as the static site.
        if args.serve and not args.peer and args.host == "127.0.0.1":
            proc, pport = peer_server.start(args.port + 1 if args.port else 0,
                                            mods=modules_dir(port_dir(ROOT, args.port_dir)))
            peers.append(proc)
            link.update(peer="http://127.0.0.1:%d/" % pport, stun=args.stun or "none")
        m = build(os.path.abspath(args.out), port=args.port_dir, link=link)
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
        srv = server(os.path.abspath(args.out), args.port, args.host)
    except OSError as e:
        print("web: cannot listen on %s:%d: %s (try WEB_PORT=...)" % (args.host, args.port, e),
              file=sys.stderr)
        return 2
    port = srv.server_address[1]
    if peers:
        print("web: the link game's PeerServer on %s" % link["peer"], flush=True)
    print("web: play at http://127.0.0.1:%d/  (Ctrl-C stops)" % port, flush=True)
    if args.host != "127.0.0.1":
        for a in lan_addresses():
            print("web: on the LAN: http://%s:%d/ (plain http: a phone's browser gives it no "
                  "shake sensor and no offline copy; see docs/browser.md for HTTPS)" % (a, port),
                  flush=True)
    try:
        srv.serve_forever()
    finally:
        srv.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
