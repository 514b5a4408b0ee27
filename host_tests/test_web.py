"""The browser page (web/, `make web`) in headless Chromium: the firmware's compiled build
on MicroPython's WebAssembly port shows the same frames as under the unix port.

One run of web/test/check.mjs (playwright-core driving Debian's /usr/bin/chromium) does
every check; the tests below read its report:
- the golden-frame scenarios and a whole game of each kind against CPUs
  (host_tests/web_plans.py records them here, on the Rig), replayed through the page's
  on-screen buttons: every frame read back from the canvas equals the recorded one;
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
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    try:
        url = "http://127.0.0.1:%d/" % srv.server_address[1]
        out = str(tmp / "result.json")
        proc = subprocess.run(["node", CHECK, "--url", url, "--plans", str(tmp / "plans.json"),
                               "--out", out], cwd=ROOT, capture_output=True, text=True,
                              timeout=900)
        if not os.path.exists(out):
            pytest.fail("check.mjs wrote no report (exit %d):\n%s%s" % (
                proc.returncode, proc.stdout[-3000:], proc.stderr[-3000:]))
        with open(out) as f:
            res = json.load(f)
    finally:
        srv.shutdown()
        srv.server_close()
    res["plans_in"] = plans
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
    """build/web's fw/ is tools/flashing/build.py's DevKit build byte for byte, and bundle.bin (what
    the page fetches) holds exactly those bytes."""
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
    for url, path, offset, size in fw:
        with open(dev_dir / url[3:], "rb") as f:
            want = f.read()
        with open(os.path.join(site, url), "rb") as f:
            assert f.read() == want, url
        assert bundle[offset:offset + size] == want, url
        assert path == "/" + url
    assert os.path.exists(os.path.join(site, "index.html"))
