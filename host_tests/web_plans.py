"""Plans for the browser tests (test_web.py): the unix-port tests' own scenarios, recorded
as the inputs they give and the frames they see, for the page to replay.

A scenario runs here under CPython on ui_rig's Rig (virtual clock, seeded dice, the
simulated board) while a Recorder notes every input at the level of the simulated board:

    ["boot", seed]        a fresh filesystem, App(source=Seeded(seed)), one frame at 1000 ms
    ["step", n]           n frames of 33 ms
    ["press", B] / ["release", B]   a button (PREV NEXT OK BACK) down / up
    ["shake", 1 | 0]      shaking starts / stops
    ["snap", name, hex]   the frame the panel shows now (1024 bytes, MONO_VLSB)

The page (web/pd.js, `?clock=step`) replays a plan exactly: buttons through its on-screen
buttons, shakes through its SHAKE button, frames read back from its canvas. The golden
scenarios' snaps are the golden frames (host_tests/golden/, checked here as they are
recorded); a whole game's snaps are the frames after each button let go.
"""
import os

import machine
import ui_rig

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Recorder:
    """Patches Rig and machine.SIM to note the inputs; `ops` is the plan."""

    def __init__(self, snap_on_release=False):
        self.ops = []
        self.snap_on_release = snap_on_release
        self.rig = None
        self.saved = []
        self.seen = []  # (len(ops), frame) of each frame a test read (Rig.frame())
        self.late = []  # (position, snap op): a frame compared after it was read
        self.cut = False  # a frame was read: the next steps are a new op

    def add(self, op):
        ops = self.ops
        if op[0] == "step" and ops and ops[-1][0] == "step" and not self.cut:
            ops[-1][1] += op[1]
        else:
            ops.append(op)
        self.cut = False

    def snap(self, name, frame=None):
        if frame is None:
            frame = bytes(machine.SIM.oled.frame())
        self.add(["snap", name, bytes(frame).hex()])

    def compared(self, name, frame):
        """A test compares `frame`: the snap goes where the test read it (a pilot's hook
        keeps frames to compare at the end)."""
        frame = bytes(frame)
        for pos, f in reversed(self.seen):
            if f == frame:
                self.late.append((pos, ["snap", name, frame.hex()]))
                return
        raise AssertionError("frame %s was never read from the rig" % name)

    def plan(self):
        """The ops with the late snaps in their places."""
        out = []
        late = sorted(self.late, key=lambda x: x[0])
        j = 0
        for i, op in enumerate(self.ops + [None]):
            while j < len(late) and late[j][0] <= i:
                out.append(late[j][1])
                j += 1
            if op is not None:
                out.append(op)
        return out

    def __enter__(self):
        rec = self
        Rig = ui_rig.Rig
        sim = machine.SIM
        init, step, frame = Rig.__init__, Rig.step, Rig.frame
        press, release, shake = sim.press, sim.release, sim.shake

        def r_init(self, name, seed=1, sim=None, fs=None, board="sim"):
            if fs is not None or board != "sim":
                raise ValueError("a plan starts each Rig on a fresh filesystem, board sim")
            rec.add(["boot", seed])
            rec.rig = self
            init(self, name, seed, sim, fs, board)

        def r_step(self, n=1):
            rec.add(["step", n])
            step(self, n)

        def r_frame(self):
            f = frame(self)
            rec.cut = True
            if not rec.seen or rec.seen[-1][1] != f or rec.seen[-1][0] != len(rec.ops):
                rec.seen.append((len(rec.ops), f))
            return f

        def s_press(name, bounce=0):
            rec.add(["press", name])
            press(name, bounce)

        def s_release(name, bounce=0):
            rec.add(["release", name])
            release(name, bounce)
            if rec.snap_on_release:
                rec.pending = True

        def s_shake(on):
            rec.add(["shake", 1 if on else 0])
            shake(on)

        self.saved = [(Rig, "__init__", init), (Rig, "step", step), (Rig, "frame", frame),
                      (sim, "press", press),
                      (sim, "release", release), (sim, "shake", shake)]
        Rig.__init__ = r_init
        Rig.step = r_step
        Rig.frame = r_frame
        sim.press, sim.release, sim.shake = s_press, s_release, s_shake
        return self

    def __exit__(self, *exc):
        for obj, name, val in self.saved:
            if obj is machine.SIM:
                delattr(obj, name)  # back to the class's method
            else:
                setattr(obj, name, val)
        return False


def golden_plan():
    """The golden-frame scenarios of the unix-port tests (menu, settings, how to play;
    a three-player Shake Up; CPU turns in both games), their snaps the golden frames.
    It runs those tests themselves (the one place a helper imports a test module)."""
    import test_ui_cpu
    import test_ui_golden
    names = []
    with Recorder() as rec:
        orig = test_ui_golden.compare

        def compare(name, frame):
            orig(name, frame)  # the recording itself matches the golden file
            rec.compared(name, frame)
            names.append(name)
        test_ui_golden.compare = test_ui_cpu.compare = compare
        try:
            test_ui_golden.test_golden_menu_and_settings()
            test_ui_golden.test_golden_shakeup_screens()
            test_ui_cpu.test_golden_cpu_turns()
        finally:
            test_ui_golden.compare = test_ui_cpu.compare = orig
    ops = rec.plan()
    for op in ops:  # the snaps are the committed golden files, byte for byte
        if op[0] == "snap":
            with open(os.path.join(ROOT, "host_tests", "golden", op[1] + ".bin"), "rb") as f:
                assert f.read().hex() == op[2], op[1]
    assert sorted(names) == sorted(op[1] for op in ops if op[0] == "snap")
    return ops


def game_plan(item, seats, seed):
    """A whole game from the menu: item ("SHAKE UP" | "FARKLE FRENZY"), seats (0 the
    human, 1-3 a CPU's level), played by cpu_pilot's pilot to the winner; a snap
    after every button let go and at the end."""
    import cpu_pilot
    with Recorder(snap_on_release=True) as rec:
        rec.pending = False
        Rig = ui_rig.Rig
        step = Rig.step

        def r_step(self, n=1):
            step(self, n)
            if rec.pending:  # the frame once the press's frames ran
                rec.pending = False
                rec.snap("after %d ops" % len(rec.ops))
        Rig.step = r_step
        try:
            r = cpu_pilot._start("web_" + item, item, len(seats), seats, seed=seed)
            log = cpu_pilot.Log()
            cpu_pilot.play(r, log)
        finally:
            Rig.step = step
        rec.snap("winner")
    if log.winner < 0:
        raise AssertionError("the recorded game has no winner")
    return rec.ops, log.winner


if __name__ == "__main__":  # python host_tests/web_plans.py: the plans' sizes
    import sys
    import time
    sys.path[:0] = [os.path.join(ROOT, p) for p in ("firmware", "tools", "tools/sim", "host_tests")]
    t = time.time()
    ops = golden_plan()
    print("golden: %d ops, %d steps, %.1f s" % (
        len(ops), sum(o[1] for o in ops if o[0] == "step"), time.time() - t))
    for item, seats, seed in (("SHAKE UP", (0, 3), 3), ("FARKLE FRENZY", (0, 2), 4)):
        t = time.time()
        ops, w = game_plan(item, seats, seed)
        print("%s: %d ops, %d steps, %d snaps, winner %d, %.1f s" % (
            item, len(ops), sum(o[1] for o in ops if o[0] == "step"),
            sum(1 for o in ops if o[0] == "snap"), w, time.time() - t))
