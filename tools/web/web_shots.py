#!/usr/bin/env python3
"""Screenshots of the browser page for the README and docs/browser.md (`make web-shots`):
a phone in portrait and in landscape, and a laptop, in the same seeded moment of a game
(web/test/shots.mjs, headless Chromium).

    python tools/web/web_shots.py [--site build/web] [--out tools/screenshots]

--site is a built site (tools/web/web_build.py; built into a temporary folder when absent).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from paths import ROOT  # noqa: E402  (and the tools' folders on sys.path)
import web_build  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--site", default="")
    p.add_argument("--out", default=os.path.join(ROOT, "tools", "screenshots"))
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if not site or not os.path.exists(os.path.join(site, "files.json")):
            site = os.path.join(tmp, "site")
            web_build.build(site)
        srv = web_build.server(os.path.abspath(site))
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        os.makedirs(args.out, exist_ok=True)
        try:
            res = subprocess.run(["node", os.path.join(ROOT, "web", "test", "shots.mjs"), "--url",
                                  "http://127.0.0.1:%d/" % srv.server_address[1],
                                  "--out", os.path.abspath(args.out)], cwd=ROOT, timeout=300)
        finally:
            srv.shutdown()
            srv.server_close()
    return res.returncode


if __name__ == "__main__":
    sys.exit(main())
