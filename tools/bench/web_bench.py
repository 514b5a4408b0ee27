#!/usr/bin/env python3
"""The browser page's speed and weight (`make bench`): the bytes a phone's first visit
transfers (service worker included), time to the menu from a cold load on a laptop and a
phone profile, and frames per second over a minute of play, in headless Chromium
(web/test/bench.mjs).

    python tools/bench/web_bench.py [--quick] [--seconds 60] [--loads 3]

Goals: the menu under 3 s from a cold load, 30 frames a second steady (the firmware's
FRAME_MS = 33; issue 32); the first visit at most 800 KB (issue 42; host_tests/test_web.py
gates it, the bytes being the same each time). The page is served from a fresh build of the site
(tools/web/web_build.py) on 127.0.0.1; the figures go to stdout and tools/bench/web.md.
Without Chromium or web/node_modules it says so and stops (exit 0: a bench, not a test).
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from paths import ROOT  # noqa: E402  (and the tools' folders on sys.path)
import web_build  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
MENU_GOAL_MS = 3000
FPS_GOAL = 30
FIRST_VISIT_GOAL = 800 * 1000


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="15 s of play, one load")
    p.add_argument("--seconds", type=int, default=60)
    p.add_argument("--loads", type=int, default=3)
    p.add_argument("--out", default=os.path.join(ROOT, "tools", "bench", "web.md"))
    args = p.parse_args(argv)
    if args.quick:
        args.seconds, args.loads = 15, 1
    if not os.path.exists(CHROMIUM) or not shutil.which("node"):
        print("web bench: skipped: no Chromium at %s or no Node.js" % CHROMIUM)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        site = os.path.join(tmp, "site")
        m = web_build.build(site)
        srv = web_build.server(site)
        fresh = web_build.server(site)  # the first visit's own: its bytes alone
        for s in (srv, fresh):
            threading.Thread(target=s.serve_forever, daemon=True).start()
        out = os.path.join(tmp, "bench.json")
        try:
            proc = subprocess.run(
                ["node", os.path.join(ROOT, "web", "test", "bench.mjs"), "--url",
                 "http://127.0.0.1:%d/" % srv.server_address[1], "--seconds", str(args.seconds),
                 "--fresh", "http://127.0.0.1:%d/" % fresh.server_address[1],
                 "--loads", str(args.loads), "--out", out], cwd=ROOT, capture_output=True,
                text=True, timeout=args.seconds + 600)
        finally:
            for s in (srv, fresh):
                s.shutdown()
                s.server_close()
        site_bytes = sum(os.path.getsize(os.path.join(site, f)) for f in os.listdir(site))
        site_files = len(os.listdir(site))
        if proc.returncode or not os.path.exists(out):
            print("web bench: failed:\n%s%s" % (proc.stdout[-2000:], proc.stderr[-2000:]))
            return 1
        with open(out) as f:
            r = json.load(f)

    def menu(profile, key="menu_ms"):
        return [x[key] for x in r["loads"] if x["profile"] == profile]
    play = r["play"]
    sm = play["step_ms"]
    lines = [
        "# The browser page's speed (tools/bench/web_bench.py)",
        "",
        "Headless Debian Chromium (%s), MicroPython %s WebAssembly port, site %s." % (
            CHROMIUM, m["port"], m["version"]),
        "",
        "| figure | value | goal |",
        "|---|---|---|",
        "| a phone's first visit, service worker included: bytes sent | %d (%d requests, "
        "%d of them 304) | <= %d |" % (fresh.sent, len(fresh.requests),
                                       sum(1 for q in fresh.requests if q[2] == "304"),
                                       FIRST_VISIT_GOAL),
        "| the site (build/web): files, bytes | %d, %d | |" % (site_files, site_bytes),
    ]
    for profile, what in (("laptop", "a laptop (1280 x 800)"),
                          ("phone", "a phone (390 x 844, touch, CPU slowed 4x)")):
        ms = menu(profile)
        lines += [
            "| time to the menu, cold load, %s (median of %d) | %.0f ms (%s) | < %d ms |" % (
                what, len(ms), statistics.median(ms), ", ".join("%.0f" % x for x in ms),
                MENU_GOAL_MS),
            "| of it: the page, the port and the files loaded (median) | %.0f ms | |" % (
                statistics.median(menu(profile, "boot_ms"))),
        ]
    lines += [
        "| frames per second, %.0f s of Shake Up against a CPU %s | %.1f | %d |" % (
            play["seconds"], play["cpus"][:2], play["fps"], FPS_GOAL),
        "| a frame's time in the page: median / 95th / 99th percentile / max | "
        "%.2f / %.2f / %.2f / %.1f ms | < 33 ms |" % (sm["p50"], sm["p95"], sm["p99"], sm["max"]),
        "| frames over 33 ms | %d of %d | |" % (sm["over_33"], play["frames"]),
        "| inputs: presses, shakes, games started | %d, %d, %d | |" % (
            play["presses"], play["shakes"], play["games"]),
        "",
        "The frame's time is the firmware's step on the port (webrun.tick: the App's frame on",
        "the simulated board, the I2C panel model) plus drawing the canvas and checking the",
        "saves; the page runs one every 33 ms on the browser's clock (requestAnimationFrame).",
        "A desktop browser's figures on this machine (shared, 2 cores), not a phone's: the",
        "phone profile is Chromium's emulation (viewport, touch, the CPU throttled 4x), the",
        "bytes are the test server's own count of what it sent (headers and bodies, no",
        "compression; a static host's gzip or brotli sends less).",
    ]
    if r["errors"]:
        lines += ["", "Console errors: %s" % "; ".join(r["errors"][:5])]
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick:
        with open(args.out, "w") as f:
            f.write(text)
        print("web bench: wrote %s" % os.path.relpath(args.out, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
