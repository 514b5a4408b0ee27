"""The heap model (tools/bench/mp32.py --heap: the 32-bit unix port with the ESP32's split
heap, tools/heapmodel/) and the firmware's hold on the heap's growth (firmware/system/heap.py).

Run with the device's first area (-X heapsize=56k) and the one-growth ESP-IDF heap
(HEAPMODEL_IDF=114704): upstream's gc_sweep_free_blocks gives back an added area whose
one live object is a single block at block 0 (tools/heapmodel/sweep_bug.py, README "The
split heap"); firmware/system/heap.py takes the growth at boot and pins it, so no area is ever
given back. Without the model's source or a -m32 compiler these skip (CI=true: fail).
"""
import os
import subprocess
import sys

import pytest
from conftest import ROOT

import mp32  # noqa: E402

ONE_GROWTH = 114704  # tools/bench/bench.py ONE_GROWTH: 56 KB + 57,360 bytes


@pytest.fixture(scope="module")
def model():
    b = mp32.binary(heap=True)
    if b is None:
        pytest.skip("no heap model (tools/bench/mp32.py --heap)")
    return b


def run(binary, args, total=ONE_GROWTH, code=None):
    env = dict(os.environ, HEAPMODEL_IDF=str(total))
    cmd = [binary, "-X", "heapsize=56k"] + (["-c", code] if code else args)
    p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    got = {}
    for line in p.stdout.splitlines():
        if line.startswith("R "):
            parts = line.split()
            got[parts[1]] = parts[2:]
    return got


def test_one_growth_takes_what_the_first_area_is(model):
    """The first area is 56 KB of ESP-IDF heap; a growth takes the heap's own size,
    57,360 bytes: all the one-growth total leaves, so a second cannot come."""
    got = run(model, None, code=(
        "import gc, heapmodel\n"
        "print('R before', *heapmodel.stats())\n"
        "a = [bytearray(1000) for i in range(70)]\n"
        "print('R grown', *heapmodel.stats(), gc.mem_alloc() + gc.mem_free())\n"
        "try:\n"
        "    b = [bytearray(1000) for i in range(60)]\n"
        "except MemoryError:\n"
        "    print('R full', *heapmodel.stats())\n"))
    assert got["before"] == ["0", "0", "0", "0", "57360", "57360"]
    assert got["grown"][:6] == ["1", "0", "1", "1", "0", "0"]
    assert int(got["grown"][6]) == 2 * 56000  # two pools of 3500 blocks, nothing more to add
    assert got["full"][:4] == ["1", "0", "1", "1"]


def test_sweep_gives_back_an_area_under_a_live_object(model):
    """The upstream bug: a one-block tuple alone at block 0 of the added area; its area
    is given back while it is referenced, and the next area's object is its memory."""
    got = run(model, ["tools/heapmodel/sweep_bug.py", "1"])
    assert got["grown"][0] == "1" and got["grown"][-2:] == ["1201", "3401"]
    assert got["after_collect"] == ["added", "1", "freed", "1", "held", "0"]
    assert got["regrown"] == ["added", "2", "freed", "1", "same_address", "1"]
    assert got["x_now"] == ["1202", "3402"]  # x was (1201, 3401): it is y's now


def test_a_two_block_object_keeps_its_area(model):
    got = run(model, ["tools/heapmodel/sweep_bug.py", "2"])
    assert got["after_collect"] == ["added", "1", "freed", "0", "held", "1"]
    assert got["x_now"] == ["1202", "3402"]  # x unchanged (a = 1202, b = 3402)


CHURN = (
    "import sys, gc, heapmodel\n"
    "sys.path.insert(0, 'firmware')\n"
    "from system.heap import hold_growth\n"
    "pin = hold_growth() if sys.argv[-1] == 'pin' else None\n"
    "print('R boot', *heapmodel.stats())\n"
    "def need():\n"  # its list dies with its frame
    "    return len([bytearray(2000) for i in range(30)])\n"
    "for k in range(5):\n"
    "    need()\n"
    "    gc.collect()\n"
    "print('R end', *heapmodel.stats(), int(pin is not None))\n")


def test_the_firmware_holds_its_growth(model, tmp_path):
    """Five times the heap needs more than the first area and lets it go: without the
    hold the area is added and given back each time; with it, added once at boot and
    kept (the pin is two blocks, so its area's last used block is never 0)."""
    script = tmp_path / "churn.py"
    script.write_text(CHURN)
    free = run(model, [str(script), "nopin"])
    held = run(model, [str(script), "pin"])
    assert free["boot"][:2] == ["0", "0"]
    assert free["end"][:2] == ["5", "5"]
    assert held["boot"][:4] == ["1", "0", "1", "1"]
    assert held["end"] == ["1", "0", "1", "1", "0", "0", "1"]


def test_the_hold_costs_nothing_where_the_heap_cannot_grow(model):
    """Unarmed (no ESP-IDF heap to grow into, as the fenced gauge): the pieces run into
    MemoryError or out of slots, all go, and no pin is kept."""
    env = dict(os.environ)
    env.pop("HEAPMODEL_IDF", None)
    code = ("import sys, gc\nsys.path.insert(0, 'firmware')\nfrom system.heap import hold_growth\n"
            "gc.collect()\na = gc.mem_alloc()\np = hold_growth()\ngc.collect()\n"
            "print('R hold', int(p is None), gc.mem_alloc() - a)\n")
    for heap in ("56k", "256k"):
        p = subprocess.run([model, "-X", "heapsize=" + heap, "-c", code], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stdout + p.stderr
        none, kept = p.stdout.split()[2:4]
        assert none == "1"
        assert int(kept) <= 64, kept  # the module's own names, no pieces


WIFI = (
    "import sys, gc, heapmodel\n"
    "sys.path.insert(0, 'firmware')\n"
    "sys.path.insert(0, 'tools/sim')\n"
    "from system.heap import hold_growth\n"
    "import network\n"
    "pin = hold_growth()\n"
    "print('R boot', *heapmodel.stats())\n"
    "try:\n"
    "    network.WLAN(network.STA_IF)\n"
    "    print('R wifi up', *heapmodel.stats())\n"
    "except OSError as e:\n"
    "    print('R wifi', e.args[1], *heapmodel.stats())\n")


def test_wifi_takes_its_share_after_the_growth(model, tmp_path):
    """The device's order: main.py holds the heap's growth at boot, a LINK GAME starts
    Wi-Fi later (esp_wifi_init at the first network.WLAN): Wi-Fi gets what the growth
    left. One growth + Wi-Fi's share is enough; a byte less and the radio does not
    start (ESP_ERR_NO_MEM, an OSError the lobby turns into THE RADIO DID NOT START),
    even though the game itself would need far less than the growth took."""
    sys.path.insert(0, os.path.join(ROOT, "tools", "sim"))
    import network
    script = tmp_path / "wifi.py"
    script.write_text(WIFI)
    w = network.WIFI_IDF
    assert w == 10 * 1600 + 5 * 500 + 4 * 1600  # ESP-IDF v5.5.1's buffers (network.py)
    up = run(model, [str(script)], total=ONE_GROWTH + w)
    assert up["boot"][:4] == ["1", "0", "1", "1"] and up["boot"][4] == str(w)
    assert up["wifi"][0] == "up" and up["wifi"][5] == "0"  # nothing left
    short = run(model, [str(script)], total=ONE_GROWTH + w - 1)
    assert short["boot"][4] == str(w - 1)  # the growth took its whole 57,360 first
    assert short["wifi"][0] == "ESP_ERR_NO_MEM" and short["wifi"][5] == str(w - 1)
