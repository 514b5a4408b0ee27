"""The link game between browser pages (web/link_radio.js, web/radio.py): the firmware's
own link code, unchanged, over WebRTC data channels between pages in headless Chromium,
each page in a browser context of its own (its own storage), each played at its buttons
by tools/sim/link_pilot.py (`?pilot=`), through the page's LINK GAME.

Offline and loopback only: tools/web/link_run.py runs each scenario in a network
namespace with only `lo` up, with a local PeerServer and no STUN server; a request to any
other origin is an error in the report. Scenarios (web/test/link.mjs):
- four pages, a host and three guests, play a whole live Frenzy game and agree;
- a guest's page and then the host's page reload mid-game (a power cut), CONTINUE
  brings each back, with 20 % of frames dropped; the game ends the same on both; each
  page's offline copy then holds the PeerJS (and the host's the QR encoder) it loaded;
- 20 % of frames dropped by the transport: the game ends the same on both pages; the
  host's link opens a page straight into JOIN with the room.

Without Chromium, Node.js, web/node_modules or root (for the namespace) the tests skip
with one line, except on CI (CI=true), where that is a failure.

Not here (issue 41 open): a guest's page closed mid-round, its seat given to a CPU
(`link.mjs --scenario closed`): after the link's pairing (issue 39) it stalled in 3 of
4 runs on the loaded 2-core machine, the host asked about the wrong seat; and DROP
between pages (`--scenario dropseat`).
"""
import json
import os

import pytest

from conftest import ROOT

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def _missing():
    import shutil
    if not os.path.exists(CHROMIUM):
        return "no Chromium at %s (apt install chromium)" % CHROMIUM
    if not shutil.which("node"):
        return "no Node.js"
    mods = os.path.join(ROOT, "web", "node_modules")
    for pkg in ("playwright-core", "peer", "peerjs", "qrcode-generator"):
        if not os.path.isdir(os.path.join(mods, pkg)):
            return "no web/node_modules/%s (make web-deps)" % pkg
    import link_run
    return link_run.why_not()


_WHY = _missing()
if _WHY and os.environ.get("CI") != "true":
    pytest.skip("web link: browser link tests skipped: %s" % _WHY, allow_module_level=True)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    if _WHY:
        pytest.fail("web link: %s: CI must run the browser link tests" % _WHY)
    import web_build
    d = str(tmp_path_factory.mktemp("weblink") / "site")
    web_build.build(d, pilot=True)  # the link tests play at the buttons (?pilot=)
    return d


def _play(site, tmp_path, scenario):
    import link_run
    out = str(tmp_path / (scenario + ".json"))
    link_run.run(site, scenario, out, limit=900)
    assert os.path.exists(out), "link_run wrote no report for %s" % scenario
    with open(out) as f:
        rep = json.load(f)
    assert not rep.get("fatal"), rep["fatal"]
    assert rep["errors"] == [], rep["errors"][:20]  # no console error, no outside request
    crashed = [w for w in rep["warnings"] if "crashed" in w]
    assert not crashed, crashed  # the firmware never restarted on its own (pd.js says so)
    stuck = rep.get("pages_at_limit")
    if stuck:  # the game did not end: each page's panel and state, for the message
        import ui_rig
        raise AssertionError("%s: %s %s\n%s" % (scenario, rep["events"], rep["warnings"][:10], "\n".join(
            "%s: %s\n%s" % (n, {k: v for k, v in p["state"].items() if k != "game"},
                             ui_rig.ascii_art(bytes.fromhex(p["frame"])))
            if isinstance(p, dict) else "%s: %s" % (n, p) for n, p in stuck.items())))
    return rep


def _over(page):
    for ln in page["lines"]:
        if ln.startswith("over "):
            t, w = ln[5:].split()
            return [int(v) for v in t.split(",")], int(w)
    raise AssertionError("no game end in %s" % page["lines"][-8:])


def _seat(page):
    return [int(ln[5:]) for ln in page["lines"] if ln.startswith("seat ")][-1]


def _agree(rep, names, seats):
    ends = [_over(rep["pages"][n]) for n in names]
    totals, winner = ends[0]
    assert all(e == ends[0] for e in ends), ends
    assert len(totals) == seats
    assert max(totals) >= 10000 and totals[winner] == max(totals) and totals.count(max(totals)) == 1
    return totals, winner


def _host_box(rep):
    box = rep["hostBox"]
    assert box["code"] == box["room"] and len(box["code"]) == 5, box
    assert box["href"].endswith("?room=" + box["room"]) or ("room=" + box["room"]) in box["href"], box
    assert box["svg"] and box["screen"] == "link_lobby", box


def test_four_pages_play_a_whole_live_frenzy_game_and_agree(site, tmp_path):
    rep = _play(site, tmp_path, "game")
    names = ["host", "guest1", "guest2", "guest3"]
    _agree(rep, names, 4)
    assert sorted(_seat(rep["pages"][n]) for n in names) == [0, 1, 2, 3]
    _host_box(rep)
    host = rep["pages"]["host"]["stats"]
    assert host["peers"] == 3 and host["dropped"] == 0


def test_a_reloaded_guest_and_a_reloaded_host_come_back(site, tmp_path):
    rep = _play(site, tmp_path, "restart")
    ev = rep["events"]
    assert any(e.startswith("reloaded guest1") for e in ev) and any(e.startswith("reloaded host") for e in ev), ev
    _agree(rep, ["host", "guest1"], 2)
    # the reloaded guest may be silent long enough to be lost (a page's boot, CONTINUE,
    # its proof of the pairing's secret) or back within the 3 s: if the host was asked,
    # it was about that seat alone (its pilot answers WAIT)
    asked = [int(ln[5:]) for ln in rep["pages"]["host"]["lines"] if ln.startswith("lost ")]
    assert set(asked) <= {_seat(rep["pages"]["guest1"])}, asked
    # the reloaded pages played on as the same handhelds: the same seats as before
    for n in ("host", "guest1"):
        seats = {int(ln[5:]) for ln in rep["pages"][n]["lines"] if ln.startswith("seat ")}
        assert len(seats) == 1, (n, seats)
    # PeerJS and the QR encoder, not in a first visit, were cached at their first use
    # (web/sw.js): the host drew its QR code, the guest only called
    assert rep["cached"] == {"host": ["peerjs.min.js", "qrcode.mjs"],
                             "guest1": ["peerjs.min.js"]}, rep["cached"]


def test_a_fifth_of_the_frames_dropped_changes_nothing_but_time(site, tmp_path):
    rep = _play(site, tmp_path, "drop")
    _agree(rep, ["host", "guest1"], 2)
    for n in ("host", "guest1"):
        st = rep["pages"][n]["stats"]
        assert 0.12 < st["dropped"] / st["sent"] < 0.28, st  # the hook dropped ~20 %
    assert rep["byLink"] == {"screen": "link_scan", "peers": 1}, rep["byLink"]
