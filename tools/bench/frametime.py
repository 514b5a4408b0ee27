"""Compute time per frame of the real App, by scene: the raw figures of the ESP32 time
model (tools/bench/frame_model.py; tools/bench/bench.py, host_tests/test_frame_time.py).

    micropython tools/bench/frametime.py ROOT LIB DATA PATH SEED [FRAMES [FS [ESP32]]]
    build/mp32/obj-frame/micropython -m frametime ROOT LIB ...   (the tools frozen)
    valgrind --tool=icount build/mp32/obj-frame/micropython -m frametime ROOT LIB DATA
        PATH SEED FRAMES FS ESP32 counted      (instructions: class Counted)

First the reference loop: MicroPython's tests/perf_bench/misc_pystone.py (put into
build/bench/perf_pystone.py by frame_model.prepare, from the shared source tree), run
REF_RUNS short times on the fresh interpreter (`R pystone US PASSES` each; under load the
quickest is the undisturbed one). Then PATH as harness.py plays it (new:K, cont:K with
the saved game in DATA, cpu:K a human against CPUs EASY, NORMAL and HARD, rand:K for
FRAMES frames; the pilot and the monkey), on the
stand-in devices of modes.py (the real display driver on a counting bus, inputs into
the event queue) and the host's files in FS (DATA copied in): the simulator's device
models and the bench's LittleFS are host code with ~0.6 MB of heap, which would make
every collection far dearer than on the device. Every App.step() from the menu on is
timed, with a collection before it outside the timing (the firmware's own collections
stay inside), and printed after it:

    R f SCENE GROUP US BYTES WRITES POLL_US DRAW_US WAIT_US PACE_US SHOWN_US SHOWN_WAIT

BYTES: what the display sent (address and control bytes included); WRITES: its bus
transactions; POLL_US: of US, the stand-in devices' poll; DRAW_US: the screen's draw()
alone, timed once more after the frame (frames that sent something); WAIT_US: of US, the
time the process waited for a CPU (another process ran: Linux's /proc/self/schedstat,
its run delay, read before and after; 0 where there is none); PACE_US: the pace loop
(below) timed just before the frame; SHOWN_US: of US, the compute until the frame's
last display.show() returned (its poll taken off: the moment the player sees it; what
the firmware does after it, a save's write and a collection, delays only the next
frame), US when it sent nothing; SHOWN_WAIT: of WAIT_US, the part before it. SCENE: 0 idle
(nothing sent), 1 redraw (a key's effect on the same screen: cursor, live score),
2 tumble, 3 screen change, 4 start (menu -> a game: a new game or a Continue),
5 feedback (a start's frame until its first frame was sent: the key press shown before
the work; printed before the start's own line), 6 a decision (the frame wrote the
store: the game's state changed, a roll's dice landed; the app writes once it is sent),
7 new view (the same screen object shows another view: NEW_VIEW_PAGES or more of the 8
display pages sent, e.g. a result, a Farkle, a score sheet, or a tumble's first frame
where the dice replace another view: to the player a screen change).
GROUP: 0 menu screens, 1 Shake Up, 2 Farkle Frenzy.
"""
import gc
import sys

# The tools first, before paths() puts tools/bench ahead on sys.path: in the frame
# model's build (tools/bench/mp32.py --frame) they are frozen, and load from there.
import monkey
import pilot
from harness import mkdir, out, paths, ticks_diff, ticks_us
from modes import StandIn, StandInSim

icount = None  # counted runs: the frame build's instruction counter (main)

MENU_NAMES = ("splash", "menu", "setup", "settings", "howto", "stats", "screen")
NEW_VIEW_PAGES = 5  # more than half of the display redrawn: a new view, not a redraw
REF_RUNS = 200     # short runs: the fastest is the one no other process interrupted
REF_PASSES = 100
REF_COUNTED = 3    # counted: the same each time, but for the first run's warm-up


def pace_loop():
    """A fixed loop of plain bytecode (no allocation, ~50 us here): the machine's speed
    at a moment. Timed beside each pystone run (its quickest: the undisturbed speed)
    and before each frame (`R pace US` / PACE_US), it tells how much slower than
    undisturbed the frames ran on a loaded machine (frame_model.measure)."""
    x = 0
    for i in range(1000):
        x = (x * 7 + i) & 0xFFFF
    return x


def timed_pace(waits):
    t0 = ticks_us()
    waits.mark(0)
    pace_loop()
    waits.mark(1)
    dt = ticks_diff(ticks_us(), t0)
    return dt - min(dt, waits.us(0, 1))


class Waits:
    """The time this process has waited for a CPU while runnable (Linux: the second field
    of /proc/self/schedstat, ns; the kernel adds a wait when the process gets the CPU
    back, so a frame that was preempted carries its wait exactly). None elsewhere: 0.
    mark() reads the line into a buffer (inside the timing: no allocation, ~2 us);
    us(a, b) parses two marks afterwards."""

    def __init__(self):
        try:
            self.f = open("/proc/self/schedstat", "rb")
        except OSError:
            self.f = None
        self.m = (bytearray(96), bytearray(96), bytearray(96), bytearray(96))

    def mark(self, i):
        f = self.f
        if f is not None:
            f.seek(0)
            f.readinto(self.m[i])

    def us(self, a, b):
        if self.f is None:
            return 0
        m = self.m
        return (int(bytes(m[b]).split()[1]) - int(bytes(m[a]).split()[1])) // 1000


class Timer:
    """Stands in for app.step: times the real one, classifies the frame and prints its
    line after the timing (a collection before each frame clears what printing left)."""

    def __init__(self, app, bus, kind):
        self.app = app
        self.step0 = app.step
        self.bus = bus
        self.kind = kind
        self.poll0 = app.dev.poll
        self.show0 = app.display.show
        self.tpoll = 0
        self.waits = Waits()
        self.keep = bytearray(len(app.display.buf))
        self.first = self.shown = -1
        self.first_bytes = self.first_writes = self.t0 = self.b0 = self.w0 = 0


    def group(self, scr):
        return 0 if getattr(scr, "NAME", "screen") in MENU_NAMES else self.kind

    def poll(self, now):
        t0 = ticks_us()
        self.poll0(now)
        self.tpoll = ticks_diff(ticks_us(), t0)

    def show(self):
        """The display's show(): for a start, when its first frame went out (the
        feedback: the key press shown before the work); for every frame, when its last
        show() returned (SHOWN_US)."""
        if self.first >= 0:
            n = self.show0()
        else:
            self.first = ticks_diff(ticks_us(), self.t0) - self.tpoll  # the compute before it
            self.waits.mark(2)
            n = self.show0()
            self.first_bytes = self.bus.bytes - self.b0  # and what it sent
            self.first_writes = self.bus.writes - self.w0
        self.shown = ticks_diff(ticks_us(), self.t0) - self.tpoll
        self.waits.mark(3)
        return n

    def begin(self):
        """Just before the frame: what the measures start from."""
        self.tpoll = 0
        self.t0 = ticks_us()
        self.waits.mark(0)  # inside the timing: the wait the frame took is within it

    def end(self):
        """Just after the frame -> (compute, poll, wait, shown, shown's wait, first,
        first's wait): the frame's compute until it returned (its poll included, then
        taken off by the model), until its last show() returned, until its first."""
        waits = self.waits
        waits.mark(1)
        dt = ticks_diff(ticks_us(), self.t0)
        w = waits.us(0, 1)
        if self.shown >= 0:
            shown, swait = self.shown, min(waits.us(0, 3), w)
        else:
            shown, swait = dt - self.tpoll, w
        if self.first >= 0:
            first, fw = self.first, waits.us(0, 2)
        else:
            first, fw = dt - self.tpoll, w
        return dt, self.tpoll, min(w, dt), shown, min(swait, shown), first, min(fw, first)

    def timed_draw(self, scr, fb):
        t1 = ticks_us()
        fb.fill(0)
        scr.draw(fb)
        return ticks_diff(ticks_us(), t1)

    def step(self, now):
        app = self.app
        bus = self.bus
        gc.collect()
        pace = self.pace()
        scr = app.screen
        was = app.tumbling
        self.b0 = b0 = bus.bytes
        p0 = bus.pages
        self.w0 = w0 = bus.writes
        sw = app.store.writes
        self.first = self.shown = -1
        self.begin()
        self.step0(now)
        dt, tp, w, shown, swait, first, fw = self.end()
        after = app.screen
        nb = bus.bytes - b0
        g0 = self.group(scr)
        g1 = self.group(after)
        if after is not scr:
            scene = 4 if g0 == 0 and g1 else 3
        elif app.store.writes != sw:
            scene = 6  # a decision: its save is written once the frame is sent
        elif nb and bus.pages - p0 >= NEW_VIEW_PAGES and not was:
            scene = 7  # (a tumble's first frame too, where it replaces another view)
        elif was or app.tumbling:
            scene = 2
        elif nb:
            scene = 1
        else:
            scene = 0
        draw = 0
        if nb and scene != 4:
            # Of which drawing: the screen drawn once more, measured (the display's
            # bytes put back after: the panel holds the frame with its notice, if any).
            buf = app.display.buf
            keep = self.keep
            keep[:] = buf
            draw = self.timed_draw(after, app.display.fb)
            buf[:] = keep
        if scene == 4:
            # The start's feedback first: until its first frame was sent.
            out("f", 5, g0, first + tp, self.first_bytes, self.first_writes, tp, 0,
                fw, pace, first, fw)
        out("f", scene, g1 or g0, dt, nb, bus.writes - w0, tp, draw, w, pace, shown, swait)

    def pace(self):
        return timed_pace(self.waits)


class Counted(Timer):
    """The Timer with instructions in place of microseconds (the counted model:
    frame_model.measure_counted runs this under this project's valgrind tool,
    tools/bench/vgcount.py): a figure the machine's load does not move. Each
    icount.read() returns the instructions since the previous one; the work between
    frames (the collection before each, printing) is read off and not counted. It is
    also the clock a CPU thinks by (DeviceClock's part): the ESP32's milliseconds,
    from the instructions counted so far at ins_per_ms (the instructions of a pystone
    pass times the ESP32's passes per millisecond). Small ints only. The stand-ins'
    poll (a few hundred instructions) counts in, a second draw of the screen (DRAW_US)
    is not made (it would double the run), and the feedback runs until its frame was
    sent (the driver's work in it: errs slow)."""

    def __init__(self, app, bus, kind, ins_per_ms):
        super().__init__(app, bus, kind)
        self.ipm = ins_per_ms
        self.acc = self.ms = self.rem = 0

    def count(self):
        """The instructions since the last mark belong to the frame (and its clock)."""
        n = icount.read()
        self.acc += n
        r = self.rem + n
        self.ms = (self.ms + r // self.ipm) & 0x3FFFFFFF
        self.rem = r % self.ipm

    def __call__(self):
        self.count()
        return self.ms

    def show(self):
        n = self.show0()
        self.count()  # the driver's work included (the feedback's too: errs slow)
        if self.first < 0:
            self.first = self.acc
            self.first_bytes = self.bus.bytes - self.b0
            self.first_writes = self.bus.writes - self.w0
        self.shown = self.acc
        return n

    def begin(self):
        self.acc = 0
        icount.read()  # what came before the frame is not its work

    def end(self):
        self.count()
        dt = self.acc
        shown = self.shown if self.shown >= 0 else dt
        first = self.first if self.first >= 0 else dt
        return dt, 0, 0, shown, 0, first, 0

    def timed_draw(self, scr, fb):
        return 0  # (a second draw would double the run's instructions)

    def pace(self):
        return 0


def pystone(perf_pystone, counted=False):
    """The reference loop, REF_RUNS times: `R pystone US PASSES`, before the harness
    and the firmware load: the published figures ran on a fresh interpreter (a big,
    fragmented heap makes its allocations slower). With each, the pace loop: `R pace
    US`. counted: REF_COUNTED runs, their instructions (`R pystone INS PASSES`)."""
    waits = Waits()
    got = []
    for _ in range(REF_COUNTED if counted else REF_RUNS):
        gc.collect()
        if counted:
            perf_pystone.Setup()
            icount.read()
            perf_pystone.Proc0(REF_PASSES)
            n = icount.read()
            out("pystone", n, REF_PASSES)
            got.append(n)
            continue
        out("pace", timed_pace(waits))
        perf_pystone.Setup()
        t0 = ticks_us()
        waits.mark(0)
        perf_pystone.Proc0(REF_PASSES)
        waits.mark(1)
        dt = ticks_diff(ticks_us(), t0)
        out("pystone", dt - min(dt, waits.us(0, 1)), REF_PASSES)
        got.append(dt - min(dt, waits.us(0, 1)))
    got.sort()
    return got[len(got) // 2] / REF_PASSES  # us (instructions) a pass, the median run


class DeviceClock:
    """The ESP32's milliseconds, for a CPU's thinking share (ui.cpu_turn: think() steps
    until _THINK_MS of the app's clock are used in a frame). The app passes its
    ticks_ms, which here is this machine's clock: 12 ms of it would be ~1.5 s of the
    device's work in one frame. This clock runs `ratio` times as fast (this machine's
    pystone pass time over the ESP32's), so a frame holds the thinking it would hold
    on the device. Small ints only (no allocation): ms and the us left over."""

    def __init__(self, ratio):
        self.k = max(1, int(ratio + 0.5))
        self.t = ticks_us()
        self.ms = 0
        self.rem = 0

    def __call__(self):
        now = ticks_us()
        self.rem += ticks_diff(now, self.t) * self.k
        self.t = now
        self.ms = (self.ms + self.rem // 1000) & 0x3FFFFFFF
        self.rem %= 1000
        return self.ms


def _copy_data(data, fs):
    """The data files (a host folder, or -) into the App's folder, which is emptied."""
    import os
    mkdir(fs)
    for name in os.listdir(fs):
        os.remove(fs + "/" + name)
    if data and data != "-":
        for name in os.listdir(data):
            with open(data + "/" + name, "rb") as f:
                b = f.read()
            with open(fs + "/" + name, "wb") as f:
                f.write(b)


def play(d, m, path, frames):
    """The path as harness.Session plays it (from the menu, back to it), a frame at a
    time through app.step."""
    what, _, kind = path.partition(":")
    kind = int(kind)
    d.run(d.to_menu())
    if what == "new":
        d.run(d.new_game(kind, 4))
    elif what == "cpu":
        d.run(d.new_game(kind, 4, b"\x00\x01\x02\x03"))  # a human, CPUs EASY, NORMAL, HARD
    elif what == "cont":
        d.run(d.open_item("CONTINUE"))
    elif what == "rand":
        m.start(d.app, d.now, kind, frames)
        while m.tick():
            pass
        d.now = m.now
        return
    else:
        raise ValueError("frametime: unknown path " + path)
    d.start_play(kind)
    while d.play_tick():
        pass
    d.run(d.to_menu())


def main(argv):
    global icount
    root, lib, data, path, seed = argv[0], argv[1], argv[2], argv[3], int(argv[4])
    frames = int(argv[5]) if len(argv) > 5 else 6000
    fs = argv[6] if len(argv) > 6 else "/tmp/pocketdice_frametime"
    esp32 = float(argv[7]) if len(argv) > 7 else 0.0  # the ESP32's pystone passes a second
    counted = len(argv) > 8 and argv[8] == "counted"  # instructions, not time
    if counted:
        import icount as _icount  # the frame build's C module (tools/bench/icount)
        icount = _icount
        if not icount.counting() or not esp32:
            raise SystemExit("frametime: counting needs the frame build run under the "
                             "icount tool (tools/bench/vgcount.py) and the ESP32's "
                             "pystone score")
    paths(root, lib)
    import perf_pystone
    per_pass = pystone(perf_pystone, counted)  # first, on a fresh heap (as published)
    del sys.modules["perf_pystone"]  # its code leaves the heap the firmware's collections mark
    perf_pystone = None
    # The devices are stand-ins (modes.StandIn: the real display driver on a counting
    # bus, inputs straight into the event queue) and the files are the host's: the
    # simulator's device models and the bench's LittleFS on RAM blocks are host code, and
    # their heap (~0.6 MB) would make every collection far dearer than on the device.
    _copy_data(data, fs)
    from app import App
    dev = StandIn()
    app = App(None, fs_root=fs, devices=dev, source=pilot.XorShift(seed))
    sim = StandInSim(dev)
    d = pilot.Driver(app, sim, seed)
    m = monkey.Monkey(sim, ("PREV", "NEXT", "OK", "BACK"), seed)
    d.run(d.frames(1500))  # the splash
    kind = int(path[-1])
    if counted:
        timer = Counted(app, dev.bus, kind, max(1, int(per_pass * esp32 / 1000 + 0.5)))
        clock = timer  # the device's ms, from the instructions counted
    else:
        timer = Timer(app, dev.bus, kind)
        clock = DeviceClock(1e6 / esp32 / per_pass) if esp32 else None
    if clock is not None:
        cpu_for = app._cpu_for

        def device_cpu(scr):
            cpu = cpu_for(scr)
            cpu.clock = clock  # its share of a frame in the device's time
            return cpu

        app._cpu_for = device_cpu
    app.step = timer.step
    if not counted:
        app.dev.poll = timer.poll
    app.display.show = timer.show
    gc.collect()
    play(d, m, path, frames)
    out("ok", 1)


if __name__ == "__main__":
    main(sys.argv[1:])
