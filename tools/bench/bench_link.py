"""The link game's figures (docs/link.md): `make bench` runs it after the main
bench; `python tools/bench/bench_link.py [--quick]` alone. Prints one line per figure, with
the command that gives it, and appends them to tools/bench/results.md's link section.

- round trip: a guest's request until the host's view acknowledges it, two processes of
  the unix port on the stand-in radio (127.0.0.1 UDP), both polling every millisecond
  (tools/bench/link_rtt.py);
- the key agreement on the 32-bit port: a whole 1536-bit power, and the steps it is
  done in (link.proto.Power, a frame's share each), and x the ESP32 ratio
  (docs/memory-and-speed.md, "Frame time on the device": 153) as an estimate;
- bytes and frames on air per round: whole games on host_tests/link_air.py's air at 0,
  20 and 50 % loss;
- heap with the link active: the host's App (compiled build, 32-bit port) fenced with
  simrun --budget (one piece), played by link_pilot against a guest to round 3: the
  smallest fence it plays in (bisected, 1 KB steps) and whether it plays at 80 KB; its
  frames' App.step() time (median, 90th percentile; x 153 for the ESP32 estimate, no
  bus time). The heap model's linked game is tools/bench/bench.py's (model_run here).
"""
import argparse
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from paths import ROOT  # noqa: E402  (and the tools' folders on sys.path)
sys.path[:0] = [os.path.join(ROOT, p) for p in ("firmware", "host_tests", "tools/sim")]
import mp32  # noqa: E402
import sim_build  # noqa: E402

RATIO = 153  # this machine's pystone ratio, idle (docs/memory-and-speed.md, "Frame time on the device")
OVERHEAD = 256 * 1024  # tools/simulator/sim.py SIM_OVERHEAD: the simulator's own share


def _mp64():
    return os.path.join(ROOT, ".venv", "bin", "micropython")


def _base():
    return 31000 + (os.getpid() * 29) % 20000


def rtt(mp, n):
    base = _base()
    env = dict(os.environ, POCKET_RADIO="id=0,base=%d" % base)
    h = subprocess.Popen([mp, "tools/bench/link_rtt.py", "host", str(n)], cwd=ROOT, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        env["POCKET_RADIO"] = "id=1,base=%d" % base
        out = subprocess.run([mp, "tools/bench/link_rtt.py", "guest", str(n)], cwd=ROOT,
                             env=env, capture_output=True, text=True, timeout=120).stdout
    finally:
        h.kill()
        h.wait()
    med, p90, mx, _ = [int(v) for v in out.split()[1:5]]
    return med, p90, mx


def dh(mp):
    """The key agreement on the 32-bit port: (us of one whole power, operations of a
    power, its steps, a step's us: median and 90th percentile of 5 powers' steps)."""
    code = ("import sys,time\nsys.path.insert(0,'firmware')\nfrom link import proto\n"
            "from core.seeded import Seeded\ns=Seeded(3)\nx=proto.secret(s)\n"
            "t=time.ticks_us()\nv=pow(2,x,proto._P)\nw=time.ticks_diff(time.ticks_us(),t)\n"
            "us=[]\nfor k in range(5):\n p=proto.public(proto.secret(s))\n n=0\n"
            " while True:\n  t=time.ticks_us()\n  d=p.step()\n"
            "  us.append(time.ticks_diff(time.ticks_us(),t))\n  n+=1\n  if d:\n   break\n"
            "us.sort()\nprint(w,p.ops,n,us[len(us)//2],us[len(us)*9//10])\n")
    out = subprocess.run([mp, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120).stdout.split()
    return tuple(int(v) for v in out[:5])


def air(loss, guests):
    from link_air import Table
    t = Table(guests, 0, seed=loss + 1, loss=loss, dup=5 if loss else 0,
              reorder=10 if loss else 0)
    t.seat_all()
    t.play()
    r = t.host.live.g.round
    return r, t.air.frames / r, t.air.bytes / r


_names = {}


def names(mp, firmware, until=3):
    """(host, guest): the new interned names each makes in a linked game to round
    `until` on interpreter mp without a budget (simrun --names -1), once per run of the
    bench: the fenced runs charge them as the device does (tools/sim/qstr_pools.py)."""
    if (mp, firmware) not in _names:
        ok, _, _, outs = linked(firmware, (mp, ["--names", "-1"]), [(mp, ["--names", "-1"])],
                                until, count=True)
        got = []
        for text in outs:
            n = [int(v) for v in re.findall(r"n_qstr=(\d+)", text)]
            got.append(n[-1] - n[0] if ok and len(n) >= 2 else 0)
        if not ok or not all(got):
            raise SystemExit("bench_link: the linked game did not play without a budget")
        _names[(mp, firmware)] = tuple(got)
    return _names[(mp, firmware)]


def heap_run(mp, fence, firmware, until=3):
    """True when the host's App, fenced at `fence` bytes (its interned names charged as
    on the device: names()), reaches round `until` against a guest; and the pilot's last
    'frame' line."""
    extra = ["--budget", str(fence), "--names", str(names(mp, firmware, until)[0])]
    ok, logs, _, _ = linked(firmware, (mp, extra), [(_mp64(), [])], until)
    frames = [ln for ln in logs[0] if ln.startswith("frame ")]
    return ok, frames[-1] if frames else ""


def model_run(model, budget, total, firmware, wifi_first=False, until=3):
    """A linked game on the heap model: the host (2 guests) and one guest on the model,
    each with the first area's `budget` and an ESP-IDF heap of `total` bytes, the
    Wi-Fi driver's share taken when the link starts (wifi_first: before the App);
    a second guest on the 64-bit port. (ok, [host stats, guest stats]): ok when both
    reached round `until` (two whole rounds played) with no MemoryError; stats the
    last `model` line of each (added, freed, held, held_max, idf_free, idf_low)."""
    host, guest = names(model, firmware, until)
    extra = ["--budget", str(budget), "--model", str(total)]
    if wifi_first:
        extra += ["--wifi", "first"]
    ok, logs, _, _ = linked(firmware, (model, extra + ["--names", str(host)]),
                            [(model, extra + ["--names", str(guest)]), (_mp64(), [])], until)
    stats = []
    for lines in logs[:2]:
        m = [ln for ln in lines if ln.startswith("model ")]
        stats.append(tuple(int(v) for v in m[-1].split()[1:]) if m else None)
    return ok, stats


def linked(firmware, host, guests, until=3, timeout=120, count=False):
    """A host (interpreter, extra simrun arguments) and its guests, each played by
    tools/sim/link_pilot.py, until the host and the first guest reached round `until`.
    (ok, [host log lines, first guest's], stderr texts, [host's stdout, first
    guest's] when count (their qstr_info lines), else [])."""
    import shutil
    import tempfile
    base = _base() + 20
    tmp = tempfile.mkdtemp(prefix="linkheap")
    logs = [os.path.join(tmp, "host.log"), os.path.join(tmp, "guest1.log")]
    procs = []

    def start(i, mp, extra, pilot, log):
        env = dict(os.environ, POCKET_RADIO="id=%d,base=%d" % (i, base))
        heap = ["-X", "heapsize=%d" % (int(extra[1]) + OVERHEAD)] \
            if extra[:1] == ["--budget"] else []
        cmd = [mp] + heap + ["tools/sim/simrun.py", "--root", ROOT, "--board", "sim",
                             "--fs", os.path.join(tmp, "fs%d" % i), "--frame-ms", "10",
                             "--firmware", firmware, "--pilot", pilot] + extra
        if log:
            cmd += ["--pilot-log", log]
        out = open(os.path.join(tmp, "out%d" % i), "wb") if count and i < 2 else None
        procs.append(subprocess.Popen(cmd, cwd=ROOT, env=env, stdin=subprocess.PIPE,
                                      stdout=out or subprocess.DEVNULL,
                                      stderr=subprocess.PIPE))
        if out:
            out.close()

    start(0, host[0], host[1], "host:%d:0" % len(guests), logs[0])
    time.sleep(0.3)
    for i, (mp, extra) in enumerate(guests):
        start(i + 1, mp, extra, "join", logs[1] if i == 0 else "")
    got = [[], []]
    ok = False
    t0 = time.time()
    try:
        while time.time() - t0 < timeout and all(p.poll() is None for p in procs):
            time.sleep(0.5)
            for k in range(2):
                try:
                    got[k] = open(logs[k]).read().split("\n")
                except OSError:
                    pass
            if all("round %d" % until in g for g in got):
                ok = True
                break
            if time.time() - t0 > 60 and "round 1" not in got[0]:
                break  # no game started (the radio did not start, say): no need to wait
    finally:
        for p in procs:
            p.kill()
            p.wait()
    errs = [p.stderr.read().decode(errors="replace") for p in procs]
    outs = []
    if count:
        for i in range(2):
            with open(os.path.join(tmp, "out%d" % i), "rb") as f:
                outs.append(f.read().decode("latin-1"))
    shutil.rmtree(tmp, ignore_errors=True)
    if any("MemoryError" in e for e in errs):
        ok = False
    return ok, got, errs, outs


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args(argv)
    mp = mp32.BIN if os.path.exists(mp32.BIN) else None
    if mp is None:
        mp = mp32.binary(True)
    lines = []

    def row(text, cmd):
        line = "%s   (%s)" % (text, cmd)
        print(line, flush=True)
        lines.append("- " + line)

    med, p90, mx = rtt(mp or _mp64(), 60 if args.quick else 200)
    row("link round trip: median %.1f ms, 90th %.1f ms, max %.1f ms (unix port, stand-in radio "
        "on 127.0.0.1, polling every ms)" % (med / 1000, p90 / 1000, mx / 1000),
        "tools/bench/link_rtt.py via tools/bench/bench_link.py")
    if mp:
        whole, ops, steps, med, p90 = dh(mp)
        row("key agreement: a 1536-bit power at once %.1f ms; in steps (link.proto.Power, "
            "<= %d operations a frame) %d operations in %d steps, a step %.2f ms median, "
            "%.2f ms 90th on the 32-bit port; ESP32 estimate x%d: %.0f / %.0f ms a step, "
            "%d frames a power" % (whole / 1000, 3, ops, steps, med / 1000, p90 / 1000,
                                    RATIO, med * RATIO / 1000, p90 * RATIO / 1000, steps),
            "build/mp32/obj/micropython, link.proto.public().step()")
    for loss, guests in ((0, 1), (20, 2), (50, 1)):
        r, f, b = air(loss, guests)
        row("bytes on air per round, %d handhelds, %d %% loss: %.0f B in %.1f frames "
            "(%d rounds)" % (guests + 1, loss, b, f, r), "host_tests/link_air.py Table")
    if mp:
        fw = sim_build.ensure_build(ROOT, "sim")[0]
        ok, frame = heap_run(mp, 80 * 1024, fw)
        row("host App with the link active, fenced at 80 KB (32-bit): %s; %s" % (
            "plays" if ok else "FAILS", frame_text(frame)), "simrun --budget 81920 --pilot host:1")
        if not args.quick:
            # From a fence it plays in (96 KB, said if not) down, 1 KB steps.
            lo, hi = 48, 96
            if heap_run(mp, hi * 1024, fw)[0]:
                while hi - lo > 1:
                    mid = (lo + hi) // 2
                    if heap_run(mp, mid * 1024, fw)[0]:
                        hi = mid
                    else:
                        lo = mid
                row("smallest fence the linked host plays in (to round 3, the budget in one "
                    "piece): %d KB (1 KB steps)" % hi, "simrun --budget, bisected")
            else:
                row("the linked host does not play fenced at 96 KB", "simrun --budget 98304")
    out = os.path.join(ROOT, "tools", "bench", "results.md")
    try:
        text = open(out).read()
    except OSError:
        text = ""
    mark = "\n## Link game (tools/bench/bench_link.py)\n"
    text = text.split(mark)[0].rstrip("\n") + "\n" + mark + "\n" + "\n".join(lines) + "\n"
    with open(out, "w") as f:
        f.write(text)
    return 0


def frame_text(frame):
    p = frame.split()
    if len(p) < 5:
        return "no frame figures"
    med, p90, mx, free = (int(v) for v in p[1:5])
    return ("App.step() per frame median %.1f ms, 90th %.1f ms, max %.1f ms (ESP32 "
            "estimate x%d: %.0f / %.0f ms), least free heap %.1f KB" % (
                med / 1000, p90 / 1000, mx / 1000, RATIO, med * RATIO / 1000,
                p90 * RATIO / 1000, free / 1024))


if __name__ == "__main__":
    sys.exit(main())
