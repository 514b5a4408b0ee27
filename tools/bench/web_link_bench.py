#!/usr/bin/env python3
"""The link game between browser pages (`make bench`): connect time, round trip and
bytes per round over WebRTC data channels, a host's page and a guest's in headless
Chromium (web/test/link.mjs's bench scenario, in a network namespace with only loopback:
tools/web/link_run.py).

    python tools/bench/web_link_bench.py [--out tools/bench/web_link.md]

- connect time: from the guest page's radio turned on (JOIN) to its channel to the host
  open: PeerJS loaded, registered with the local PeerServer, offer, answer, ICE;
- round trip: a ping on the open channel and its answer, 60 of them 30 ms apart on each
  page, beside the game's own frames (JS to JS: the firmware reads a frame at its next
  33 ms frame);
- bytes per round: what both pages handed to their channels from round 2's start to
  round 5's (3 rounds), divided by 3, and the frames.
Figures, not gates. Without Chromium, Node.js or root it says so and stops (exit 0).
"""
import argparse
import json
import os
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from paths import ROOT  # noqa: E402  (and the tools' folders on sys.path)
import link_run  # noqa: E402
import web_build  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def figures(rep):
    b = rep["bench"]
    g = rep["pages"]["guest1"]["stats"]
    h = rep["pages"]["host"]["stats"]
    rtt = sorted(b["rtt"])
    first, last = b["at"]["2"], b["at"]["5"]
    out_bytes = sum(last[i]["bytesOut"] - first[i]["bytesOut"] for i in range(2))
    frames = sum((last[i]["sent"] - last[i]["dropped"]) - (first[i]["sent"] - first[i]["dropped"])
                 for i in range(2))
    return {
        "connect_ms": g["connected"] - g["started"],
        "register_ms": g["opened"] - g["started"],
        "host_register_ms": h["opened"] - h["started"],
        "rtt_median": statistics.median(rtt), "rtt_p90": rtt[int(len(rtt) * 0.9)],
        "rtt_max": rtt[-1], "rtt_n": len(rtt),
        "bytes_round": out_bytes / 3, "frames_round": frames / 3,
        "wall_s": b["wall_ms"] / 1000,
    }


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="(the same: one short game)")
    p.add_argument("--out", default=os.path.join(ROOT, "tools", "bench", "web_link.md"))
    args = p.parse_args(argv)
    why = None if os.path.exists(CHROMIUM) else "no Chromium at %s" % CHROMIUM
    why = why or link_run.why_not()
    if why:
        print("web link bench: skipped: %s" % why)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        site = os.path.join(tmp, "site")
        m = web_build.build(site, pilot=True)  # the pages played at the buttons
        out = os.path.join(tmp, "bench.json")
        link_run.run(site, "bench", out, limit=300)
        if not os.path.exists(out):
            print("web link bench: failed: no report")
            return 1
        with open(out) as f:
            rep = json.load(f)
    if rep.get("fatal") or rep["errors"]:
        print("web link bench: failed: %s %s" % (rep.get("fatal"), rep["errors"][:5]))
        return 1
    f = figures(rep)
    rows = [
        ("connect: the guest's radio on to its channel open (PeerJS loaded, registered, "
         "offer/answer, ICE)", "%.0f ms" % f["connect_ms"]),
        ("of it: registered with the PeerServer (guest / host)",
         "%.0f / %.0f ms" % (f["register_ms"], f["host_register_ms"])),
        ("round trip on the channel, page to page (median / 90th / max of %d)" % f["rtt_n"],
         "%.2f / %.2f / %.2f ms" % (f["rtt_median"], f["rtt_p90"], f["rtt_max"])),
        ("bytes handed to the channels per round, 2 pages, rounds 2-4",
         "%.0f B in %.1f frames" % (f["bytes_round"], f["frames_round"])),
        ("the bench's game to round 5, wall clock", "%.0f s" % f["wall_s"]),
    ]
    text = ["# The link game between pages (tools/bench/web_link_bench.py)", "",
            "Headless Debian Chromium, two pages (a host, a guest) in their own browser "
            "contexts, a local PeerServer (npm peer 1.0.2), PeerJS 1.5.5, loopback only "
            "(a network namespace), site %s." % m["version"], "",
            "| figure | value |", "|---|---|"]
    text += ["| %s | %s |" % r for r in rows]
    text += ["", "Loopback on one shared machine (2 cores): a phone's Wi-Fi adds its own "
             "latency and loss; a network that needs a TURN relay adds the relay's path. "
             "The firmware reads a frame at its next frame (33 ms), so a game's own round "
             "trip is a frame or two whatever the channel's."]
    with open(args.out, "w") as fh:
        fh.write("\n".join(text) + "\n")
    for name, val in rows:
        print("%-100s %s" % (name, val))
    return 0


if __name__ == "__main__":
    sys.exit(main())
