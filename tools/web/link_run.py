#!/usr/bin/env python3
"""Link games between browser pages, for the tests and the bench, with nothing leaving
the machine: in a network namespace of their own with only loopback up (`unshare -n`,
as root), the page's site served on 127.0.0.1, a local PeerServer (tools/web/peer_server.py)
and headless Chromium driven by web/test/link.mjs.

    python tools/web/link_run.py --site build/web --scenario game --out report.json

Outside a namespace it starts itself again inside a new one (unshare -n); inside, it
refuses to run where any interface but `lo` exists. The pages get the local PeerServer
and no STUN server in their query (web/link_radio.js): Chromium's ICE then offers only
loopback candidates (--allow-loopback-in-peer-connection).
"""
import argparse
import os
import shutil
import subprocess
import sys
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from paths import ROOT  # noqa: E402
import peer_server  # noqa: E402
import web_build  # noqa: E402

SCRIPT = os.path.join(ROOT, "web", "test", "link.mjs")


class LinkRunError(Exception):
    pass


def why_not():
    """Why link games cannot run here (None: they can)."""
    if not shutil.which("unshare") or not shutil.which("ip"):
        return "no unshare/ip (util-linux, iproute2)"
    if os.geteuid() != 0:
        return "not root: `unshare -n` (a namespace with only loopback) needs root"
    res = subprocess.run(["unshare", "-n", "true"], capture_output=True, text=True)
    if res.returncode:
        return "unshare -n failed: %s" % res.stderr.strip()
    return None


def interfaces():
    """The namespace's interfaces (ip: /sys/class/net is the mount's, not the namespace's)."""
    res = subprocess.run(["ip", "-o", "link", "show"], capture_output=True, text=True, check=True)
    return sorted(ln.split(": ")[1].split("@")[0] for ln in res.stdout.splitlines() if ": " in ln)


def run(site, scenario, out, limit=900):
    """In a new namespace: the scenario's report written to out; returns the exit code."""
    cmd = ["unshare", "-n", "--", sys.executable, os.path.abspath(__file__), "--inside",
           "--site", site, "--scenario", scenario, "--out", out, "--limit", str(limit)]
    return subprocess.run(cmd, cwd=ROOT, timeout=limit + 300).returncode


def inside(site, scenario, out, limit):
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    if interfaces() != ["lo"]:
        raise LinkRunError("not in a namespace with only loopback: %s" % interfaces())
    srv = web_build.server(site)
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    peer, pport = peer_server.start()
    try:
        url = "http://127.0.0.1:%d/" % srv.server_address[1]
        res = subprocess.run(["node", SCRIPT, "--url", url, "--peer", "http://127.0.0.1:%d/" % pport,
                              "--scenario", scenario, "--out", out, "--limit", str(limit)],
                             cwd=ROOT, capture_output=True, text=True, timeout=limit + 240)
        if res.returncode or not os.path.exists(out):
            sys.stderr.write(res.stdout[-3000:] + res.stderr[-3000:])
        return res.returncode
    finally:
        peer_server.stop(peer)
        srv.shutdown()
        srv.server_close()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--site", required=True)
    p.add_argument("--scenario", default="game")
    p.add_argument("--out", required=True)
    p.add_argument("--limit", type=int, default=900, help="seconds a game may take at most")
    p.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    site, out = os.path.abspath(args.site), os.path.abspath(args.out)
    if not args.inside:
        why = why_not()
        if why:
            print("link_run: %s" % why, file=sys.stderr)
            return 2
        return run(site, args.scenario, out, args.limit)
    try:
        return inside(site, args.scenario, out, args.limit)
    except (LinkRunError, peer_server.PeerServerError, subprocess.SubprocessError) as e:
        print("link_run: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
