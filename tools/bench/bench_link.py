"""The link game's figures (docs/link.md): `make bench` runs it after the main
bench; `python tools/bench/bench_link.py [--quick]` alone. Prints one line per figure, with
the command that gives it, and appends them to tools/bench/results.md's link section.

- round trip: a guest's request until the host's view acknowledges it, two processes of
  the unix port on the stand-in radio (127.0.0.1 UDP), both polling every millisecond
  (tools/bench/link_rtt.py);
- the key agreement (two 1536-bit modular powers) on the 32-bit port, and x the ESP32
  ratio (docs/memory-and-speed.md, "Frame time on the device": 153) as an estimate for
  the device;
- bytes and frames on air per round: whole games on host_tests/link_air.py's air at 0,
  20 and 50 % loss;
- heap with the link active: the host's App (compiled build, 32-bit port) fenced with
  simrun --budget, played by link_pilot against a guest to round 3: the smallest fence
  it plays in (bisected, 4 KB steps) and the least free heap seen at 80 KB; its frames'
  App.step() time (median, 90th percentile; x 153 for the ESP32 estimate, no bus time).
"""
import argparse
import os
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
    code = ("import sys,time\nsys.path.insert(0,'firmware')\nfrom link import proto\n"
            "from core.seeded import Seeded\ns=Seeded(3)\nt=time.ticks_us()\n"
            "a,pa=proto.keypair(s)\nb,pb=proto.keypair(s)\nt1=time.ticks_us()\n"
            "k=proto.agree(a,pb,7)\nt2=time.ticks_us()\n"
            "print(time.ticks_diff(t1,t)//2, time.ticks_diff(t2,t1))\n")
    out = subprocess.run([mp, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         timeout=120).stdout.split()
    return int(out[0]), int(out[1])


def air(loss, guests):
    from link_air import Table
    t = Table(guests, 0, seed=loss + 1, loss=loss, dup=5 if loss else 0,
              reorder=10 if loss else 0)
    t.seat_all()
    t.play()
    r = t.host.live.g.round
    return r, t.air.frames / r, t.air.bytes / r


def heap_run(mp, fence, firmware, until=3):
    """True when the host's App, fenced at `fence` bytes, reaches round `until`
    against a guest; and the pilot's last 'frame' line."""
    import tempfile
    base = _base() + 20
    tmp = tempfile.mkdtemp(prefix="linkheap")
    log = os.path.join(tmp, "host.log")
    env = dict(os.environ, POCKET_RADIO="id=0,base=%d" % base)
    host = subprocess.Popen(
        [mp, "-X", "heapsize=%d" % (fence + OVERHEAD), "tools/sim/simrun.py", "--root", ROOT,
         "--board", "sim", "--fs", os.path.join(tmp, "h"), "--frame-ms", "10",
         "--firmware", firmware, "--budget", str(fence), "--pilot", "host:1:0",
         "--pilot-log", log], cwd=ROOT, env=env, stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(0.3)
    env["POCKET_RADIO"] = "id=1,base=%d" % base
    guest = subprocess.Popen(
        [_mp64(), "tools/sim/simrun.py", "--root", ROOT, "--board", "sim", "--fs",
         os.path.join(tmp, "g"), "--frame-ms", "10", "--firmware", firmware, "--pilot",
         "join"], cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    ok = False
    frame = ""
    t0 = time.time()
    try:
        while time.time() - t0 < 90 and host.poll() is None:
            time.sleep(0.5)
            try:
                lines = open(log).read().split("\n")
            except OSError:
                continue
            frames = [ln for ln in lines if ln.startswith("frame ")]
            if frames:
                frame = frames[-1]
            if "round %d" % until in lines:
                ok = True
                break
    finally:
        for p in (host, guest):
            p.kill()
            p.wait()
    err = host.stderr.read().decode(errors="replace")
    if "MemoryError" in err:
        ok = False
    return ok, frame


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
        one, ag = dh(mp)
        row("key agreement: %.1f ms per public value, %.1f ms per key on the 32-bit port; "
            "ESP32 estimate x%d: %.2f s + %.2f s when joining"
            % (one / 1000, ag / 1000, RATIO, one * RATIO / 1e6, ag * RATIO / 1e6),
            "build/mp32/obj/micropython, link.proto.keypair/agree")
    for loss, guests in ((0, 1), (20, 2), (50, 1)):
        r, f, b = air(loss, guests)
        row("bytes on air per round, %d handhelds, %d %% loss: %.0f B in %.1f frames "
            "(%d rounds)" % (guests + 1, loss, b, f, r), "host_tests/link_air.py Table")
    if mp:
        fw = sim_build.ensure_build(ROOT, "sim")[0]
        ok, frame = heap_run(mp, 80 * 1024, fw)
        row("host App with the link active, fenced at 80 KB (32-bit): %s; %s" % (
            "plays" if ok else "FAILS", frame_text(frame)), "simrun --budget 81920 --pilot host:1")
        lo, hi = 24, 80
        if not args.quick:
            while hi - lo > 4:
                mid = (lo + hi) // 2 // 4 * 4
                ok2, _ = heap_run(mp, mid * 1024, fw)
                if ok2:
                    hi = mid
                else:
                    lo = mid
            row("smallest fence the linked host plays in (to round 3): %d KB (4 KB steps)" % hi,
                "simrun --budget, bisected")
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
