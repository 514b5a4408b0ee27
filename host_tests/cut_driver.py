"""Plays the real App on the simulated board for the power-cut and soak tests.

Run as a child process (MicroPython unix port or CPython) from the repository root:

    micropython host_tests/cut_driver.py cut ROOT FS JOURNAL SEED KIND
    micropython -X heapsize=N host_tests/cut_driver.py soak ROOT FS EVENTS SEED EVERY \
        [BUDGET LIB]

`cut`: boots the App on the folder FS; if the menu offers CONTINUE, resumes and logs
the restored game; plays it on a little, then starts new games of KIND (1 Shake Up,
2 Frenzy; alternating after the first) with random inputs until the parent kills the
process (SIGKILL). Every line goes to JOURNAL with one unbuffered write, so a kill
loses nothing already logged:
    E seed                    episode start
    S games                   the stats' finished games (both kinds, with CPUs too)
    R hex|none                the game restored after boot (the guard's own resume, or
                              Continue from the menu: each logged when seen)
    N kind players            a new game started
    P hex                     a save is about to be written (hook on store.save_game)
    D                         a game is over: finish_game() is about to count it
    F                         the save is about to be cleared (game over)
    C hex|none                after a frame: the game in memory, checked to equal the
                              file on disk (logged when it changed)
    W                         ready: a new game is being played (stdout too)
    X message                 a check failed (then exit 3)

`soak`: EVENTS random button and shake events; every EVERY events prints
`M events mem_alloc screen modules` after gc.collect() (modules: the firmware's loaded
ones, comma-separated, sorted); any exception is fatal (exit 1).
With BUDGET (bytes) the simulator and this driver load first, then all heap but BUDGET
is fenced off, so the firmware (from LIB, a tools/flashing/build.py output with board.mpy, as
deployed) runs in exactly BUDGET bytes.
Portable: no os.path, no f-strings, no `random`.
"""
import gc
import sys

FRAME = 33
BUTTONS = ("PREV", "NEXT", "OK", "BACK")


def Rng(seed):
    """The inputs' xorshift32 (the dice get their own source): tools/bench/xorshift.py,
    drawing below(n) from the whole state (setup() puts it on the path)."""
    from xorshift import XorShift
    return XorShift(seed, 0)


def _hex(b):
    if b is None:
        return "none"
    return "".join("%02x" % x for x in b)


def _no_log(c, args):
    pass


class _NoList:
    """Stands in for the buzzer model's change log (as tools/bench/harness.py does):
    kept, it is a sawtooth of 256-512 tuples (8-16 KB here) that follows the sounds
    played, not the firmware's heap, and would move the soak's floors by chance."""

    def __len__(self):
        return 0

    def append(self, item):
        pass


def setup(root, lib=""):
    for p in (lib or root + "/firmware", root + "/tools/sim", root + "/tools/bench"):
        if p not in sys.path:
            sys.path.insert(0, p)
    if lib:
        import board
    else:
        sys.path.insert(0, root + "/boards")
        board = __import__("sim")
        sys.path.pop(0)
        sys.modules["board"] = board
    import machine
    sim = machine.SIM
    if hasattr(sim, "configure"):
        sim.configure(board)
    sim.log_i2c = False  # the bus log holds frames: no place for it in a small heap
    if sim.oled is not None and hasattr(sim.oled, "_log"):
        sim.oled._log = _no_log  # nor for the panel model's command log
    sim.pwm.log = _NoList()  # nor for the buzzer model's log of tone changes
    import xorshift  # noqa: F401  (before any fence: the driver's share, not the firmware's)
    return board, sim


def fence(budget):
    """Hold all free heap but budget bytes (the firmware's share)."""
    from heap_fence import fence as hold  # tools/sim, on the path once setup() ran

    hold(budget)


def current_game(app):
    scr = app.screen
    if scr is None:
        return None
    if getattr(scr, "NAME", "") == "pass":
        scr = getattr(scr, "back", None)
    return getattr(scr, "game", None)


class Player:
    """Steps the App on a virtual clock and presses buttons like a restless player."""

    def __init__(self, app, sim, rng):
        self.app = app
        self.sim = sim
        self.rng = rng
        self.now = 1000
        self.after_frame = None

    def frames(self, ms):
        end = self.now + ms
        while self.now < end:
            self.app.step(self.now)
            self.now += FRAME
            if self.after_frame is not None:
                self.after_frame()

    def tap(self, name, hold=70):
        self.sim.press(name)
        self.frames(hold)
        self.sim.release(name)
        self.frames(70)

    def shake(self, ms):
        self.sim.shake(True)
        self.frames(ms)
        self.sim.shake(False)
        self.frames(70)

    def name(self):
        return getattr(self.app.screen, "NAME", "")

    def to_menu(self):
        for _ in range(40):
            if self.name() == "menu":
                return True
            if self.name() == "splash":
                self.frames(300)
            elif self.name() == "win":
                self.frames(700)
                self.tap("OK")
            else:
                self.tap("BACK")
        return self.name() == "menu"

    def menu_pick(self, item):
        """In the menu: move the cursor to item and choose it. False if absent."""
        scr = self.app.screen
        if item not in scr.items:
            return False
        want = scr.items.index(item)
        for _ in range(12):
            if scr.cur == want:
                break
            self.tap("NEXT")
        self.tap("OK")
        return True

    def new_game(self, kind, players):
        if not self.to_menu():
            raise ValueError("cannot reach the menu from " + self.name())
        self.menu_pick("SHAKE UP" if kind == 1 else "FARKLE FRENZY")
        if getattr(self.app.screen, "ask", None):  # "REPLACE SAVED GAME?": YES
            self.tap("NEXT")
            self.tap("OK")
        scr = self.app.screen
        for _ in range(8):
            if getattr(scr, "n", players) == players:
                break
            self.tap("NEXT")
        self.tap("OK")

    def act(self):
        """One random input fit for the current screen."""
        r = self.rng
        nm = self.name()
        if nm == "splash":
            self.frames(200)
        elif nm == "pass":
            self.tap("OK")
        elif nm == "win":
            self.frames(650)
            self.tap("OK")
        elif current_game(self.app) is not None:
            scr = self.app.screen
            x = r.below(100)
            if getattr(scr, "rolling", False) and x < 45:
                self.shake(150 + r.below(500))
            elif x < 70:
                self.tap("OK")
            elif x < 85:
                self.tap("NEXT")
            elif x < 97:
                self.tap("PREV")
            elif x < 99:
                self.frames(100 + r.below(900))
            else:
                self.tap("OK", 700)  # a long press
        else:
            self.tap(BUTTONS[r.below(4)])


def _read_save(fs):
    from system import store
    try:
        f = open(fs + "/" + store.GAME, "rb")
    except OSError:
        return None
    data = f.read()
    f.close()
    p = store.unpack(0x47, data)
    if p is None:
        return b"BAD"
    return bytes(p[2 + p[1]:])


def cut(root, fs, journal, seed, kind):
    board, sim = setup(root)
    import os
    fd = os.open(journal, os.O_WRONLY | os.O_CREAT | os.O_APPEND) if hasattr(os, "open") \
        else None
    jf = None if fd is not None else open(journal, "ab")

    def log(line):
        data = (line + "\n").encode()
        if fd is not None:
            os.write(fd, data)
        else:
            jf.write(data)  # MicroPython: file writes go straight to write(2)

    rng = Rng(seed)
    log("E %d" % seed)
    from app import App
    app = App(board, fs_root=fs, source=Rng(seed ^ 0x5A5A))
    st = app.store
    from system import store
    from core import games
    ba = st.load_stats()
    # Every finished game: all-human ones by kind, and those against CPUs (counted
    # apart, by kind and the strongest CPU's level: the first setup has a CPU seat).
    n = store.stat(ba, games.ST_SU_GAMES) + store.stat(ba, games.ST_FF_GAMES)
    for i in range(6):
        n += store.stat(ba, store.ST_CPU + 2 * i)
    log("S %d" % n)
    real_save = st.save_game
    real_clear = st.clear_game
    real_load = st.load_game
    resumed = []  # the game that came back is logged once, when first read or seen

    def load_game():
        got = real_load()
        if got is not None and not resumed:
            resumed.append(1)
            log("R " + _hex(got[1]))
        return got

    def save_game(k, blob, ui=b""):
        log("P " + _hex(blob))
        return real_save(k, blob, ui)

    def clear_game():
        log("F")
        return real_clear()

    real_finish = st.finish_game

    def finish_game(*a, **k):
        log("D")
        log("F")  # the stats are written, then the save is cleared
        return real_finish(*a, **k)

    st.save_game = save_game
    st.load_game = load_game
    st.clear_game = clear_game
    st.finish_game = finish_game
    pl = Player(app, sim, rng)
    last = [None, False]

    def check():
        g = current_game(app)
        if g is None:
            return
        b = g.to_bytes()
        if b == last[0]:
            return
        disk = _read_save(fs)
        if disk != b and not (g.winner >= 0 and disk is None):
            log("X disk %s != memory %s after frame" % (_hex(disk), _hex(b)))
            sys.exit(3)
        last[0] = b
        log("C " + _hex(disk))  # none: the game is over and its save cleared

    # The boot may resume the game by itself (the crash guard takes a cut for a crash),
    # and CPU seats then play on, saving, in its first frames: what came back is the
    # game the store first read (load_game above), else the first game seen.
    def first_game():
        g = current_game(app)
        if g is not None and not resumed:
            resumed.append(1)
            log("R " + _hex(g.to_bytes()))
    pl.after_frame = first_game
    pl.frames(300)
    pl.after_frame = None
    pl.to_menu()
    if "CONTINUE" in app.screen.items:
        pl.menu_pick("CONTINUE")
        g = current_game(app)
        log("R " + _hex(None if g is None else g.to_bytes()))
    else:
        log("R none")
    pl.after_frame = check
    check()
    for _ in range(rng.below(12)):
        if current_game(app) is None:
            break
        pl.act()
    while True:
        players = 1 + rng.below(4) if kind == 2 else 2 + rng.below(3)
        pl.new_game(kind, players)
        log("N %d %d" % (kind, players))
        log("W")
        sys.stdout.write("W\n")
        try:
            sys.stdout.flush()
        except AttributeError:
            pass
        for _ in range(4000):
            if current_game(app) is None:
                break
            pl.act()
        kind = 3 - kind


# Button per draw 0..19 for the soak: OK 8, NEXT 5, PREV 5, BACK 2.
_SOAK_BUTTONS = bytes((2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 3, 3))


def soak(root, fs, events, seed, every, budget=0, lib=""):
    board, sim = setup(root, lib)
    if budget:
        fence(budget)
    ours = set(sys.modules)  # the simulator's and this driver's: not the firmware's
    from app import App
    rng = Rng(seed)
    app = App(board, fs_root=fs, source=Rng(seed ^ 0x77))
    now = 1000
    down = [False, False, False, False]
    shaking = False
    gc.collect()
    for i in range(events):
        x = rng.below(32)
        if x < 20:
            # toggle a button: mostly OK / NEXT / PREV, BACK now and then (it leaves
            # a game for the menu, where OK mostly continues it)
            b = _SOAK_BUTTONS[x]
            down[b] = not down[b]
            if down[b]:
                sim.press(BUTTONS[b])
            else:
                sim.release(BUTTONS[b])
        elif x < 26:
            shaking = not shaking
            sim.shake(shaking)
        elif x < 28:
            # a burst of bounce on one button within a frame or two
            b = rng.below(4)
            for _ in range(3):
                sim.press(BUTTONS[b])
                sim.release(BUTTONS[b])
            down[b] = False
        # else: no input, just time passing
        for _ in range(1 + rng.below(4)):
            app.step(now)
            now += FRAME
        if rng.below(50) == 0:
            now += 200 + rng.below(3000)  # idle a while (dim, sometimes off)
        if i % every == 0:
            gc.collect()
            used = gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0
            mods = ",".join(sorted(m for m in sys.modules if m not in ours))
            sys.stdout.write("M %d %d %s %s\n" % (i, used, getattr(app.screen, "NAME", "?"),
                                                   mods))
    sys.stdout.write("DONE %d\n" % events)


def main(argv):
    mode = argv[0]
    if mode == "cut":
        cut(argv[1], argv[2], argv[3], int(argv[4]), int(argv[5]))
    elif mode == "soak":
        soak(argv[1], argv[2], int(argv[3]), int(argv[4]), int(argv[5]),
             int(argv[6]) if len(argv) > 6 else 0, argv[7] if len(argv) > 7 else "")
    else:
        raise ValueError("mode: cut or soak")


if __name__ == "__main__":
    main(sys.argv[1:])
