"""tools/sim/framebuf.py (the CPython stand-in) draws exactly what MicroPython's
built-in framebuf draws: the same script runs under both and the buffers must match."""
import subprocess
import sys

from conftest import ROOT, micropython_bin

_SCRIPT = r'''
import sys
sys.path.insert(0, "tools/sim")
import framebuf
W, H = 128, 64
buf = bytearray(W * H // 8)
fb = framebuf.FrameBuffer(buf, W, H, framebuf.MONO_VLSB)
fb.fill(0)
fb.pixel(0, 0, 1); fb.pixel(127, 63, 1); fb.pixel(200, 5, 1); fb.pixel(-1, 5, 1)
fb.hline(3, 9, 40, 1); fb.vline(50, 2, 30, 1); fb.hline(120, 12, 30, 1)
fb.rect(10, 20, 30, 15, 1); fb.rect(60, 20, 20, 10, 1, True)
fb.fill_rect(70, 22, 5, 3, 0); fb.fill_rect(-5, 40, 12, 30, 1)
fb.line(0, 63, 127, 0, 1); fb.line(5, 5, 5, 5, 1); fb.line(90, 60, 30, 45, 1)
fb.line(100, 10, 110, 50, 0)
spr = bytearray(8)
s = framebuf.FrameBuffer(spr, 8, 8, framebuf.MONO_HLSB)
s.fill(0); s.line(0, 0, 7, 7, 1); s.rect(0, 0, 8, 8, 1)
fb.blit(s, 100, 30); fb.blit(s, 124, 60); fb.blit(s, 84, 2, 0)
print(fb.pixel(0, 0), fb.pixel(1, 0), fb.pixel(999, 0))
sys.stdout.write("".join("%02x" % b for b in buf) + "\n")
'''


def test_stand_in_matches_micropython(tmp_path):
    script = tmp_path / "fbcheck.py"
    script.write_text(_SCRIPT)
    mp = subprocess.run([micropython_bin(), str(script)], cwd=ROOT, capture_output=True,
                        text=True, timeout=60)
    assert mp.returncode == 0, mp.stderr
    py = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True,
                        text=True, timeout=60)
    assert py.returncode == 0, py.stderr
    assert py.stdout.splitlines()[0] == mp.stdout.splitlines()[0]
    a = py.stdout.splitlines()[1]
    b = mp.stdout.splitlines()[1]
    diff = [i // 2 for i in range(0, len(a), 2) if a[i:i + 2] != b[i:i + 2]]
    assert a == b, "bytes differ at %r" % diff[:20]
