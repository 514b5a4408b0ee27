"""The browser page (web/, `make web`) in headless Chromium: the firmware's compiled build
on MicroPython's WebAssembly port shows the same frames as under the unix port.

One run of web/test/check.mjs (playwright-core driving Debian's /usr/bin/chromium, with
its default autoplay policy) does every check; the tests below read its report:
- a phone's first visit on a fresh profile, from a server of its own that counts the
  bytes: what it transfers, service worker included; no sound before a gesture, then
  sound from a touch tap, inside it; Chromium's install check; the full-screen control;
  the SHAKE key's promise of a phone's shake only once the phone sends motion;
- the layout at phone, tablet and laptop sizes: every key in view, the panel as large as
  the keys leave room for, every label's contrast;
- the golden-frame scenarios and a whole game of each kind against CPUs
  (host_tests/web_plans.py records them here, on the Rig), replayed by touches on the
  page's on-screen buttons (a finger held on SHAKE to shake) on a phone's viewport: every
  frame read back from the canvas equals the recorded one;
- the keys (Enter for OK) and a shake made of synthetic devicemotion events (60 Hz,
  swinging through zero) roll the dice on the real clock, with the rattle on WebAudio;
- a reload in the middle of a game offers CONTINUE, which restores the game exactly;
- a damaged save in the browser's storage is said on the panel and set aside;
- with the network off, the page starts again from its offline copy;
- no console error, page error or failed request on the way.

Without Chromium, Node.js or web/node_modules (`make web-deps`) the tests skip with one
line, except on CI (CI=true), where that is a failure: .ci/run installs Chromium.
"""
import json
import os
import shutil
import subprocess
import threading

import pytest

from conftest import ROOT

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHECK = os.path.join(ROOT, "web", "test", "check.mjs")


def _missing():
    if not os.path.exists(CHROMIUM):
        return "no Chromium at %s (apt install chromium)" % CHROMIUM
    if not shutil.which("node"):
        return "no Node.js"
    if not os.path.isdir(os.path.join(ROOT, "web", "node_modules", "playwright-core")) or \
            not os.path.isdir(os.path.join(ROOT, "web", "node_modules", "@micropython")):
        return "no web/node_modules (make web-deps)"
    return None


_WHY = _missing()
if _WHY and os.environ.get("CI") != "true":  # one line for the whole module
    pytest.skip("web: browser tests skipped: %s" % _WHY, allow_module_level=True)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    if _WHY:
        pytest.fail("web: %s: CI must run the browser tests" % _WHY)
    import web_build
    import web_plans
    tmp = tmp_path_factory.mktemp("web")
    site = str(tmp / "site")
    web_build.build(site)
    plans = {"golden": {"ops": web_plans.golden_plan()}}
    for name, item, seats, seed in (("shakeup game", "SHAKE UP", (0, 3), 3),
                                    ("frenzy game", "FARKLE FRENZY", (0, 2), 4)):
        ops, winner = web_plans.game_plan(item, seats, seed)
        plans[name] = {"ops": ops, "winner": winner}
    with open(tmp / "plans.json", "w") as f:
        json.dump(plans, f)
    srv = web_build.server(site)
    fresh = web_build.server(site)  # the first visit's own: its bytes alone
    for s in (srv, fresh):
        threading.Thread(target=s.serve_forever, daemon=True).start()
    try:
        url = "http://127.0.0.1:%d/" % srv.server_address[1]
        out = str(tmp / "result.json")
        proc = subprocess.run(["node", CHECK, "--url", url, "--plans", str(tmp / "plans.json"),
                               "--fresh", "http://127.0.0.1:%d/" % fresh.server_address[1],
                               "--out", out], cwd=ROOT, capture_output=True, text=True,
                              timeout=900)
        if not os.path.exists(out):
            pytest.fail("check.mjs wrote no report (exit %d):\n%s%s" % (
                proc.returncode, proc.stdout[-3000:], proc.stderr[-3000:]))
        with open(out) as f:
            res = json.load(f)
    finally:
        for s in (srv, fresh):
            s.shutdown()
            s.server_close()
    res["plans_in"] = plans
    res["site"] = site
    res["fresh"] = {"sent": fresh.sent, "requests": fresh.requests}
    return res


def _fatal(report):
    assert not report.get("fatal"), report["fatal"]


def _check_plan(report, name):
    _fatal(report)
    runs = {p["name"]: p for p in report["plans"]}
    assert name in runs, "plan %s not run" % name
    run = runs[name]
    want = sum(1 for op in report["plans_in"][name]["ops"] if op[0] == "snap")
    if run["mismatches"]:
        import ui_rig
        m = run["mismatches"][0]
        raise AssertionError("%s: frame %s on the canvas differs ('+' only on the page, "
                             "'-' only under the unix port's firmware):\n%s" % (
                                 name, m["snap"], ui_rig.diff_art(bytes.fromhex(m["want"]),
                                                                 bytes.fromhex(m["got"]))))
    assert run["snaps"] == want, (run["snaps"], want)
    return run


def test_golden_frames_on_the_canvas(report):
    run = _check_plan(report, "golden")
    assert run["snaps"] >= 14 and run["boots"] == 4  # menu, Shake Up, CPU turns x2


@pytest.mark.parametrize("name,screen", [("shakeup game", "win"), ("frenzy game", "frenzy")])
def test_a_whole_game_against_cpus_through_the_buttons(report, name, screen):
    run = _check_plan(report, name)
    end = run["end"]
    assert end["screen"] == screen, end  # Shake Up's winner screen; Frenzy's winner view
    if screen == "frenzy":
        assert end["winner"] == report["plans_in"][name]["winner"], end
    # a frame for every button let go through a whole game (Shake Up's turns take
    # fewer presses since issue 31: 56 frames with this seed)
    assert run["snaps"] > 40


def test_a_phones_shake_rolls(report):
    _fatal(report)
    m = report["motion"]
    assert m["setup"]["screen"] == "setup", m["setup"]  # Enter was OK on the menu
    assert m["events"] >= 40  # ~60 Hz for 0.9 s
    assert m["tumbled"], m  # the dice tumbled while the phone shook...
    assert not m["after"]["tumbling"] and m["changed"], m  # ...and landed, shown
    assert not any(n.startswith("NO SHAKE SENSOR") for n in m["notices"]), m["notices"]
    assert m["tone"] > 0 and m["audio"] == "running", m  # the rattle on WebAudio


def test_a_reload_mid_game_continues_exactly(report):
    _fatal(report)
    r = report["reload"]
    before, after = r["before"], r["after"]
    assert before["screen"] == "shakeup" and before["game"], before
    assert r["menu"]["screen"] == "menu" and r["menu"]["item"] == "CONTINUE", r["menu"]
    assert after["game"] == before["game"] and after["view"] == before["view"], (before, after)
    if r["frameBefore"] != r["frameAfter"]:
        import ui_rig
        raise AssertionError("the continued game looks different:\n" + ui_rig.diff_art(
            bytes.fromhex(r["frameBefore"]), bytes.fromhex(r["frameAfter"])))


def test_a_damaged_save_in_the_browser_is_said_and_set_aside(report):
    _fatal(report)
    menu = report["damaged"]["menu"]
    # The store's own check (firmware/system/store/): the menu says so once, offers no
    # CONTINUE, and the firmware runs on.
    assert menu["screen"] == "menu" and menu["item"] != "CONTINUE", menu
    assert menu["notice"] == "Saved game was damaged", menu


def test_starts_with_the_network_off(report):
    _fatal(report)
    off = report["offline"]
    assert off["state"]["screen"] == "menu" and off["state"]["item"] == "CONTINUE", off


def test_no_console_errors(report):
    _fatal(report)
    assert report["errors"] == [], report["errors"][:20]


def test_the_site_carries_the_device_build_unmodified(tmp_path):
    """bundle.bin (what the page fetches) holds tools/flashing/build.py's DevKit build byte
    for byte, at the places files.json gives."""
    import build
    import web_build
    site = str(tmp_path / "site")
    m = web_build.build(site)
    dev = build.build("esp32_devkit", str(tmp_path / "dev"))
    dev_dir = tmp_path / "dev" / "esp32_devkit"
    with open(os.path.join(site, "bundle.bin"), "rb") as f:
        bundle = f.read()
    fw = [e for e in m["files"] if e[0].startswith("fw/")]
    assert len(fw) == len(dev) and m["board"] == "esp32_devkit"
    for name, path, offset, size in fw:
        with open(dev_dir / name[3:], "rb") as f:
            want = f.read()
        assert bundle[offset:offset + size] == want, name
        assert path == "/" + name
    assert sum(e[3] for e in m["files"]) == len(bundle)


# ---- the page as a phone's player meets it (issue 42) -----------------------------------

FIRST_VISIT_MAX = 800 * 1000  # bytes the first visit may transfer, service worker included
GESTURES = {"pointerdown", "pointerup", "keydown", "click", "touchend"}


def test_a_phones_first_visit_transfers_each_file_once_within_800_kb(report):
    _fatal(report)
    assert report["first"]["controlled"], report["first"]  # the offline copy took over
    sent, reqs = report["fresh"]["sent"], report["fresh"]["requests"]
    full = [path for _, path, code in reqs if code == "200"]
    # The service worker's copy asks, the browser's copy answers: 304s, no second download.
    assert len(full) == len(set(full)), reqs
    assert all(code in ("200", "304") for _, _, code in reqs), reqs
    assert sent <= FIRST_VISIT_MAX, (sent, reqs)
    # The site carries what the page loads and nothing else (the tests' files elsewhere).
    # (PeerJS and the QR encoder load when a link game first starts: web_link.LAZY.)
    import web_link
    site = set(os.listdir(report["site"])) - set(web_link.LAZY)
    fetched = {p.split("?")[0].lstrip("/") or "index.html" for _, p, _ in reqs}
    assert site == fetched, (sorted(site - fetched), sorted(fetched - site))


def test_no_sound_before_a_gesture_then_from_a_touch_tap(report):
    _fatal(report)
    first = report["first"]
    # A browser with the default autoplay policy: idle on the menu, no AudioContext at all.
    assert first["before"]["audio"] == "none" and first["before"]["calls"] == [], first["before"]
    # A touch tap on NEXT: the context made (and resumed) inside the tap's own events.
    after = first["after"]
    assert after["audio"] == "running", after
    assert after["calls"] and all(c["event"] in GESTURES for c in after["calls"]), after["calls"]
    assert first["audioWarnings"] == [], first["audioWarnings"]
    assert first["errors"] == [], first["errors"]
    # SOUND OFF stays off across a reload, and a tap then makes no audio at all
    mute = report["mute"]
    assert mute == {"muted": True, "reloaded": True, "label": "SOUND OFF", "audio": "none"}, mute


def test_installable_as_an_app(report):
    _fatal(report)
    first = report["first"]
    assert first["install"] == [], first["install"]  # Chromium's own install check
    assert first["manifestErrors"] == [], first["manifestErrors"]
    import web_build
    m = web_build.app_manifest()
    assert m["display"] == "standalone" and m["theme_color"]
    for icon in m["icons"]:  # the PNG's own header says its size
        with open(os.path.join(report["site"], icon["src"]), "rb") as f:
            head = f.read(24)
        w, h = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
        assert head[:8] == b"\x89PNG\r\n\x1a\n" and icon["sizes"] == "%dx%d" % (w, h), icon
    with open(os.path.join(ROOT, "web", "index.html")) as f:
        html = f.read()
    assert '<link rel="apple-touch-icon"' in html and '<link rel="manifest"' in html


def test_the_screen_text_reads_the_schedule_from_a_compiled_build():
    """simrun's setup line on the page's compiled firmware, where the const is inlined."""
    import simrun
    from system import store
    assert simrun._S_SCHEDULE == store.S_SCHEDULE


def test_the_icon_is_the_firmwares_own_dice():
    """The icon's pixels are gfx.die()'s: a five and a set-aside three (tools/web/web_icon.py)."""
    import web_icon
    px = web_icon.panel()
    assert px[3][3] == 1 and px[4][4] == 0  # the five's corner, then inside it
    assert sum(map(sum, px)) > 200  # the set-aside die is filled


def test_full_screen_and_zoom(report):
    _fatal(report)
    full = report["first"]["fullscreen"]
    assert full["shown"] and full["on"] and full["label"] == "EXIT FULL SCREEN", full
    with open(os.path.join(ROOT, "web", "index.html")) as f:
        html = f.read()
    viewport = html.split('name="viewport" content="')[1].split('"')[0]
    assert "user-scalable" not in viewport and "maximum-scale" not in viewport, viewport


def test_shake_promised_only_once_the_phone_sends_motion(report):
    _fatal(report)
    first = report["first"]
    assert "phone" not in first["before"]["hint"], first["before"]
    assert first["motionHint"] == "hold, or shake the phone", first["motionHint"]


def test_over_plain_http_from_the_lan_the_page_says_what_a_phone_needs(report):
    _fatal(report)
    lan = report["lan"]
    assert not lan["secure"] and not lan["worker"], lan  # what a phone's browser does
    assert lan["screen"] == "menu", lan  # the game still plays, by the SHAKE key
    assert "HTTPS" in lan["status"] and "no shake sensor" in lan["status"], lan
    assert "phone" not in lan["hint"], lan


def test_the_panels_text_for_screen_readers(report):
    _fatal(report)
    first = report["first"]
    # simrun's prompt line (the simulator's text line), kept in an aria-live element
    assert first["before"]["said"] == "> SHAKE UP", first["before"]
    assert first["after"]["said"] == "> FARKLE FRENZY", first["after"]  # NEXT, tapped
    with open(os.path.join(ROOT, "web", "index.html")) as f:
        html = f.read()
    assert '<p class="sr" id="said" aria-live="polite">' in html


def _inside(box, w, h):
    x, y, bw, bh = box
    return x >= 0 and y >= 0 and x + bw <= w + 0.5 and y + bh <= h + 0.5


def _overlap(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def test_every_key_in_view_at_every_size(report):
    _fatal(report)
    assert len(report["layouts"]) >= 10
    for lay in report["layouts"] + [report["lan"]["layout"]]:  # (and with the http note)
        w, h = lay["w"], lay["h"]
        assert lay["scrollW"] <= w and lay["scrollH"] <= h, lay  # nothing to scroll to
        assert set(lay["keys"]) == {"PREV", "NEXT", "OK", "SHAKE", "BACK"}
        for name, box in lay["keys"].items():
            assert _inside(box, w, h), (w, h, name, box)
            assert box[2] >= 44 and box[3] >= 44, (w, h, name, box)  # a thumb's target
            assert not _overlap(box, lay["panel"]), (w, h, name, box, lay["panel"])
        assert _inside(lay["panel"], w, h), (w, h, lay["panel"])


def test_the_panel_as_large_as_the_screen_allows(report):
    _fatal(report)
    for lay in report["layouts"]:
        w, h = lay["w"], lay["h"]
        x, y, pw, ph = lay["panel"]
        assert abs(pw - 2 * ph) < 1, lay["panel"]  # 128 x 64, square pixels
        if h > w:  # portrait: the page's width, less the case's and the bezel's edges
            assert pw >= w - 40, (w, h, lay["panel"])
        else:  # landscape: between the key columns, or the height the top line leaves
            left = max(b[0] + b[2] for b in lay["keys"].values() if b[0] < x)
            right = min(b[0] for b in lay["keys"].values() if b[0] > x)
            assert (x - left <= 30 and right - (x + pw) <= 30) or ph >= h - 130, (
                w, h, lay["panel"], left, right)


def test_every_label_reads_at_4_5_to_1(report):
    _fatal(report)
    for lay in report["layouts"]:
        assert lay["labels"], lay
        for lab in lay["labels"]:
            # solid backgrounds only, so the measure is the colour's against its own
            assert not lab["image"] and lab["ratio"] >= 4.5, (lay["w"], lay["h"], lab)
