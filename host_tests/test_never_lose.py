# portable: runs under MicroPython too
"""Never losing a game, part 2 (issue 17): a full flash, a rename that keeps failing, a
power cut at a game's end, a folder where a file should be. Each test is named after
the issue's item it proves. The real LittleFS (lfs_rig) under both pythons where the
filesystem matters; plain folders where it does not."""
import os

from system import store
from checks import tmpdir, rmtree
from core import games
from lfs_rig import Lfs
from system.store import Store
from cut_rig import _Cut, _CutFile, _CutOs, _Plan
from never_lose_rig import _main, _sim, _text

BLOB_OLD = b"old-state-" * 8
BLOB_NEW = b"NEW-STATE-" * 9


def _count(ba, kind=games.SHAKEUP):
    return store.stat(ba, games.ST_SU_GAMES if kind == games.SHAKEUP else games.ST_FF_GAMES)


# ---- item 1: a full flash is said at once, once; play goes on; saving resumes ---------

def _disk_game(fs):
    got = Store(fs.root).load_game()
    return None if got is None else got[1]


def _shown_game(app):
    scr = app.screen
    if scr.NAME == "pass":
        scr = scr.back
    return scr.game.to_bytes()


def test_item1_full_flash_save_notice():
    import ui_rig
    from fault_rig import _play
    from shakeup_pilot import Pilot, start_game
    fs = Lfs(24)
    try:
        r = ui_rig.Rig("item1", seed=5, fs=fs.root)
        app = r.app
        said = []
        real_say = app.say

        def say(line1, line2=None):
            said.append((line1, line2, p.decisions))
            real_say(line1, line2)
        app.say = say
        start_game(r, 2)
        p = Pilot(r, 6)
        _play(p, 4)
        assert _disk_game(fs) == _shown_game(app)
        assert not said
        fs.fill()
        kept = _disk_game(fs)
        at = p.decisions
        _play(p, 12)
        assert p.decisions >= at + 10              # the game goes on
        assert app.screen.NAME in ("shakeup", "pass")
        assert _disk_game(fs) == kept              # nothing could be written...
        assert len(said) == 1, said                # ...and the player was told once,
        line1, line2, when = said[0]
        assert when == at, (when, at)  # at the first save that failed (the pilot counts after),
        words = line1 + " " + (line2 or "")
        assert "NOT KEPT" in words and "PLAY ON" in words, words   # in plain words
        assert app.store.problem is None           # (not told again at the menu)
        fs.free()
        _play(p, 1)                                # space is back: saving resumes
        assert _disk_game(fs) == _shown_game(app)
        assert len(said) == 2 and said[1][0] == "SAVED AGAIN", said
        _play(p, 3)
        assert _disk_game(fs) == _shown_game(app) and len(said) == 2
    finally:
        fs.close()


def test_item1_full_flash_back_continue_gives_the_game_at_back():
    """BACK to the menu while saves fail: CONTINUE describes and restores the game as
    it was at BACK (kept in RAM by the store), not the older one on flash; when room
    comes back the next decision saves it (issue 30; test_never_lose3 with CPUs)."""
    import ui_rig
    from fault_rig import _play
    from shakeup_pilot import Pilot, start_game
    from ui.menu import saved
    from ui.screens import BACK, OK
    fs = Lfs(24)
    try:
        r = ui_rig.Rig("item1m", seed=5, fs=fs.root)
        app = r.app
        start_game(r, 2)
        p = Pilot(r, 6)
        _play(p, 4)
        fs.fill()
        kept = _disk_game(fs)
        _play(p, 12)
        while app.screen.NAME == "pass":
            r.press(OK)
        at_back = _shown_game(app)
        assert at_back != kept  # play went on past what the flash keeps
        r.press(BACK)
        m = app.screen
        assert m.NAME == "menu" and m.items[0] == "CONTINUE", m.items
        assert m.cont == saved(games.SHAKEUP, at_back), m.cont
        assert _disk_game(fs) == kept
        m.cur = 0
        r.press(OK)
        assert _shown_game(app) == at_back
        fs.free()
        _play(p, 1)
        assert _disk_game(fs) == _shown_game(app)
    finally:
        fs.close()


# ---- item 2: a game that ends while the flash is full is still counted ---------------

def test_item2_full_flash_finish_still_counted():
    fs = Lfs(16)
    try:
        s = Store(fs.root)
        s.load_stats()
        assert s.save_game(1, BLOB_OLD, b"\x01")
        fs.fill()
        assert not s.save_game(1, BLOB_NEW, b"\x01")   # the flash is full indeed
        s.finish_game(games.SHAKEUP, 2)
        assert _count(s.load_stats() if s._stats is None else s._stats) == 1  # in RAM
        assert not s.has_game()                        # the game is over: no Continue
        # Power off while still full: counted exactly once over stats + what Continue
        # would finish again (the game's last save, kept since the count is not on disk).
        t = Store(fs.root)
        got = _count(t.load_stats()) + (1 if t.load_game() is not None else 0)
        assert got == 1, got
        # Space comes back: the next write of the first session commits the count.
        fs.free()
        assert s.save_game(1, BLOB_NEW, b"\x02")
        u = Store(fs.root)
        assert _count(u.load_stats()) == 1
        assert u.load_game() == (1, BLOB_NEW, b"\x02")
        assert u.problem is None
    finally:
        fs.close()


def test_item2_full_flash_finish_counted_after_reboot():
    """The count kept in RAM is not lost when the stats write keeps failing and the
    power goes: the finished record on flash carries it (written before the stats)."""
    fs = Lfs(16)
    try:
        s = Store(fs.root)
        s.load_stats()
        assert s.save_game(1, BLOB_OLD, b"\x01")
        real = s._save

        def no_stats(name, ftype, *parts):   # only the stats file finds no room
            if name == store.STATS:
                return False
            return real(name, ftype, *parts)
        s._save = no_stats
        s.finish_game(games.SHAKEUP, 1)
        assert _count(s._stats) == 1
        t = Store(fs.root)                   # reboot: the count is committed then
        assert _count(t.load_stats()) == 1
        assert t.load_game() is None and not t.has_game()
        assert _count(Store(fs.root).load_stats()) == 1
    finally:
        fs.close()


# ---- item 3: a rename that keeps failing never loses both copies ---------------------

class _RenameOs(_CutOs):
    """os for store.py whose rename fails with errno err: always, or (fat) only when
    the target exists; with a _Plan, a cut point after each step."""

    def __init__(self, err, fat, plan=None):
        _CutOs.__init__(self, plan if plan is not None else _Plan(0), fat)  # (0: no cut)
        self.err = err

    def rename(self, a, b):
        if not self.fat:
            raise OSError(self.err)
        try:
            os.stat(b)
            there = True
        except OSError:
            there = False
        if there:
            raise OSError(self.err)
        os.rename(a, b)
        self.plan.at("renamed", True)


_ERRNOS = (17, 13, 5, 16, 1, 28, 22, 39, 18)  # EEXIST EACCES EIO EBUSY EPERM ENOSPC EINVAL ENOTEMPTY EXDEV


def _files(root):
    return sorted(os.listdir(root))


def test_item3_rename_failing_keeps_old_save():
    root = tmpdir("item3")
    real_os = store.os
    try:
        for err in _ERRNOS:
            for fat in (False, True):
                for n in os.listdir(root):
                    os.remove(root + "/" + n)
                assert Store(root).save_game(1, BLOB_OLD, b"\x01")
                store.os = _RenameOs(err, fat)
                try:
                    s = Store(root)
                    ok = s.save_game(1, BLOB_NEW, b"\x02")
                    got_now = s.load_game()
                finally:
                    store.os = real_os
                t = Store(root)
                got = t.load_game()
                want = (1, BLOB_NEW, b"\x02") if ok else (1, BLOB_OLD, b"\x01")
                assert got == want, (err, fat, ok, got, _files(root))
                # The session keeps the new one (in RAM when it could not be written).
                assert got_now == (1, BLOB_NEW, b"\x02"), (err, fat, ok, got_now)
                assert t.problem is None and _files(root) == ["game.sav"], (err, _files(root))
        print("faults: rename failing with %d errnos, 2 ways: the old save kept" % len(_ERRNOS))
    finally:
        store.os = real_os
        rmtree(root)


def _cut_during(plan, os_, fn):
    """Run fn() with store.py's os and open cutting the power at plan's step; True
    when the cut came (fn did not finish)."""
    real_os = store.os
    real_open = open
    store.os = os_
    store.open = lambda p, m="r": _CutFile(real_open(p, m), plan) if "w" in m \
        else real_open(p, m)
    try:
        fn()
        return False
    except _Cut:
        return True
    finally:
        store.os = real_os
        del store.open


def test_item3_rename_failing_cut_at_every_step():
    """A cut at every step of a save whose rename fails (or cannot replace): one
    complete copy, old or new, is what the next boot finds."""
    root = tmpdir("item3cut")
    cuts = 0
    try:
        for err in (17, 5, 13):
            for fat in (False, True):
                n = 1
                while True:
                    for name in os.listdir(root):
                        os.remove(root + "/" + name)
                    Store(root).save_game(1, BLOB_OLD, b"\x01")
                    plan = _Plan(n)
                    cut = _cut_during(plan, _RenameOs(err, fat, plan),
                                      lambda: Store(root).save_game(1, BLOB_NEW, b"\x02"))
                    t = Store(root)
                    got = t.load_game()
                    assert got in ((1, BLOB_OLD, b"\x01"), (1, BLOB_NEW, b"\x02")), \
                        (err, fat, n, got, _files(root))
                    assert _files(root) == ["game.sav"], (err, fat, n, _files(root))
                    if not cut:
                        break
                    cuts += 1
                    n += 1
        print("power cuts: %d inside saves whose rename fails, none lost" % cuts)
        assert cuts >= 12
    finally:
        rmtree(root)


# ---- item 4: a power cut at a game's end counts it exactly once ----------------------

def _finish_cut_at_every_step(fat):
    root = tmpdir("item4")
    n = 1
    results = []
    try:
        while True:
            for name in os.listdir(root):
                os.remove(root + "/" + name)
            s = Store(root)
            st = s.load_stats()
            store.record_game(st, games.SHAKEUP, 0)   # one game counted before
            assert s.save_stats(st)
            assert s.save_game(1, BLOB_OLD, b"\x01")   # the last save before the win
            s = Store(root)
            s.load_stats()
            plan = _Plan(n)
            cut = _cut_during(plan, _CutOs(plan, fat), lambda: s.finish_game(games.SHAKEUP, 1))
            # Power back: boot; a saved game still there is continued and, replayed,
            # ends again (counted again: finish_game).
            t = Store(root)
            t.load_stats()
            if t.load_game() is not None:
                t.finish_game(games.SHAKEUP, 1)
            u = Store(root)
            c = _count(u.load_stats())
            assert u.problem is None, (n, u.problem)
            assert u.load_game() is None, n
            results.append(c)
            assert c == 2, "cut at step %d: the game counted %d times" % (n, c - 1)
            assert _files(root) == ["stats.dat"], (n, _files(root))
            if not cut:
                break
            n += 1
    finally:
        rmtree(root)
    print("power cuts: %d at a game's end (rename %s), each game counted once" % (
        len(results) - 1, "cannot replace" if fat else "atomic"))
    return results


def test_item4_power_cut_at_game_end_counts_once():
    got = _finish_cut_at_every_step(False)
    assert len(got) >= 6, got   # every cut point of the finished record, stats, remove


def test_item4_power_cut_at_game_end_counts_once_without_atomic_rename():
    got = _finish_cut_at_every_step(True)
    assert len(got) >= 8, got


# ---- item 5: a folder at a store path is moved aside or removed, and said -----------

def _item5_case(fs_root, mkdir, write, listdir, where, full):
    """A folder (empty or not) at `where`: the Store clears it at boot and says so;
    saving and loading then work."""
    mkdir(where)
    if full:
        write(where + "/x", b"junk")
    s = Store(fs_root)
    assert s.problem is not None, where
    s.problem = None
    assert s.load_settings() == bytearray(store.SETTINGS_DEFAULT)
    s.load_stats()
    assert s.save_game(1, BLOB_NEW, b"\x02"), (where, listdir())
    st = s.load_settings()
    st[store.S_SOUND] = 0
    assert s.save_settings(st), where
    s.finish_game(games.SHAKEUP, 0)
    assert s.save_game(2, BLOB_OLD, b"\x03"), where
    t = Store(fs_root)
    assert t.problem is None, (where, t.problem)
    assert t.load_game() == (2, BLOB_OLD, b"\x03"), where
    assert t.load_settings()[store.S_SOUND] == 0, where
    assert _count(t.load_stats()) == 1, where
    names = [n for n in listdir() if not n.endswith(".bad")]
    assert names == ["game.sav", "settings.dat", "stats.dat"], (where, listdir())


_ITEM5_PATHS = ("game.sav", "game.sav.tmp", "settings.dat", "settings.dat.tmp",
                "stats.dat", "stats.dat.tmp")


def _wipe_tree(os_, root):
    for n in os_.listdir(root):
        p = root.rstrip("/") + "/" + n
        try:
            os_.remove(p)
        except OSError:
            for m in os_.listdir(p):
                os_.remove(p + "/" + m)
            os_.rmdir(p) if hasattr(os_, "rmdir") else os_.remove(p)


def test_item5_folder_at_store_path_plain_folder():
    root = tmpdir("item5")
    try:
        for where in _ITEM5_PATHS:
            for full in (False, True):
                _wipe_tree(os, root)

                def mkdir(n):
                    os.mkdir(root + "/" + n)

                def write(n, d):
                    f = open(root + "/" + n, "wb")
                    f.write(d)
                    f.close()
                _item5_case(root, mkdir, write, lambda: _files(root), where, full)
    finally:
        _wipe_tree(os, root)
        rmtree(root)


def test_item5_folder_at_store_path_littlefs():
    for where in _ITEM5_PATHS:
        for full in (False, True):
            fs = Lfs(16)
            try:
                _item5_case(fs.root, fs.mkdir, fs.write, fs.listdir, where, full)
            finally:
                fs.close()


# ---- item 7: Continue short of memory twice in a row asks the player, never loops ----

def _nomem_rig(name):
    """A Shake Up game a few decisions in, left for the menu (saved)."""
    import ui_rig
    from fault_rig import _play
    from shakeup_pilot import Pilot, start_game
    r = ui_rig.Rig(name, seed=8)
    start_game(r, 2)
    _play(Pilot(r, 9), 3)
    r.press(ui_rig.BACK)
    r.wait(300)
    assert r.screen == "menu" and r.app.screen.items[0] == "CONTINUE", r.screen
    return r


def _short_of_memory(st):
    """Every Continue's load raises MemoryError (as a heap too small for the saved
    game does, in the launch or the screen); returns the count of tries."""
    tries = [0]

    def load_game():
        tries[0] += 1
        raise MemoryError("memory allocation failed")
    st.load_game = load_game
    return tries


def test_item7_continue_out_of_memory_asks_keep_or_start_over():
    import ui_rig
    r = _nomem_rig("item7")
    app = r.app
    disk = Store(r.root).load_game()
    tries = _short_of_memory(app.store)
    app.screen.cur = 0
    r.press(ui_rig.OK)                          # CONTINUE: no exception, no loop
    assert tries[0] == 2, tries                 # twice in a row, then...
    assert r.screen == "noroom", r.screen       # ...the player is asked
    assert app.screen.items == ("KEEP IT", "START OVER")
    r.wait(5000)
    assert tries[0] == 2 and r.screen == "noroom"   # it waits for the player
    r.press(ui_rig.OK)                          # KEEP IT: the menu, the save kept
    assert r.screen == "menu" and app.screen.items[0] == "CONTINUE"
    assert Store(r.root).load_game() == disk
    app.screen.cur = 0
    r.press(ui_rig.OK)                          # again: asked again, no crash
    # (5: the menu also tried once, to say what is saved, and showed CONTINUE plainly)
    assert tries[0] == 5 and r.screen == "noroom"
    r.press(ui_rig.NEXT)
    r.press(ui_rig.OK)                          # START OVER: the save goes
    assert r.screen == "menu" and "CONTINUE" not in app.screen.items
    assert Store(r.root).load_game() is None
    ui_rig._rmtree(r.root)


def test_item7_resume_at_boot_out_of_memory_does_not_loop():
    import ui_rig
    from app import App
    from core.seeded import Seeded
    r = _nomem_rig("item7boot")
    root = r.root
    board = ui_rig._board("sim")
    r.SIM.configure(board)
    app = App(board, root, source=Seeded(3))    # the boot after a crash: resume
    tries = _short_of_memory(app.store)
    app.resume()
    while app.go:
        app._go(app.go)
    assert tries[0] == 2 and app.screen.NAME == "noroom"
    ui_rig._rmtree(root)


# ---- items 8 and 9: the guarded start (main.py -> guard.start) -----------------------


def test_item8_watchdog_resets_counted_like_crashes():
    from system import guard
    import machine
    root = tmpdir("item8")
    sim = _sim()
    got = []
    try:
        for _ in range(8):                      # a save that hangs: reset after reset
            sim.reset_cause = machine.WDT_RESET
            got.append(guard.boot(root))
    finally:
        sim.reset_cause = machine.PWRON_RESET
    n = guard.MAX_TRIES  # as MAX_TRIES crashes, then the player is asked
    assert got[:n] == [True] * n and got[n:] == [guard.ASK] * (8 - n), got
    assert "watchdog" in _text(root + "/crash.log")          # and a log says so
    # Settled (a run past the quick window) or a power cycle: counting starts again.
    assert guard.boot(root) is False            # power on: no resume, the count gone
    sim.reset_cause = machine.WDT_RESET
    try:
        assert guard.boot(root) is True
    finally:
        sim.reset_cause = machine.PWRON_RESET
    rmtree(root)


class _Stop(BaseException):
    """Ends the app's endless loop in a test (not an Exception: the guard lets it by)."""


def test_item8_watchdog_armed_before_resuming():
    import ui_rig
    import app as appmod
    r = _nomem_rig("item8arm")
    root = r.root
    board = ui_rig._board("sim")
    sim = _sim()
    sim.configure(board)
    f = open(root + "/restart.dat", "wb")      # the boot after a crash: resume
    f.write(b"\x01")
    f.close()
    seen = []
    real_resume, real_run = appmod.App.resume, appmod.App.run

    def resume(self):
        seen.append(sim.wdt is not None)
        return real_resume(self)

    def run(self, *a):
        seen.append(self.screen.NAME)
        raise _Stop()
    appmod.App.resume = resume
    appmod.App.run = run
    try:
        _main(root, board)
        raise AssertionError("main.py returned")
    except _Stop:
        pass
    finally:
        appmod.App.resume, appmod.App.run = real_resume, real_run
    assert seen[0] is True, seen               # the watchdog was running at resume
    assert seen[1] in ("shakeup", "pass"), seen
    ui_rig._rmtree(root)


def test_item8_watchdog_after_giving_up_stays_at_the_repl():
    """A device that gave up (the REPL) with the watchdog armed is reset by it: that
    boot gives up again at once, so the REPL stays reachable."""
    import machine
    import ui_rig
    root = tmpdir("item8stop")
    board = ui_rig._board("sim")
    sim = _sim()
    sim.configure(board)
    f = open(root + "/restart.dat", "wb")
    f.write(bytes((guard_give_up() + 1,)))   # crashed() gave up: "Stopped"
    f.close()
    resets = []
    sim.on_reset = lambda: resets.append(1)
    sim.reset_cause = machine.WDT_RESET
    sim.wdt = None
    try:
        _main(root, board)                     # returns: the REPL
    finally:
        sim.on_reset = None
        sim.reset_cause = machine.PWRON_RESET
    assert resets == [] and sim.wdt is None, (resets, sim.wdt)
    assert "stopped" in _text(root + "/crash.log")
    rmtree(root)


def guard_give_up():
    from system import guard
    return guard.GIVE_UP


def _beeps(sim):
    """How many times the buzzer pin went from silent to sounding."""
    n = 0
    on = False
    for freq, duty in sim.pwm.log:
        if duty and freq and not on:
            n += 1
        on = bool(duty and freq)
    return n


def _boot_twice(root, board, before=None):
    """Two boots in a row the way the device does them; what each did."""
    sim = _sim()
    out = []
    for _ in range(2):
        resets = []
        sim.on_reset = lambda: resets.append(1)
        if before is not None:
            before(sim)
        sim.wdt = None
        try:
            _main(root, board)                 # returns: the REPL is there
        finally:
            sim.on_reset = None
        out.append((len(resets), sim.wdt is not None, _beeps(sim)))
    return out


def test_item9_broken_board_profile_logged_repl_reachable():
    folder = tmpdir("item9prof")
    root = tmpdir("item9")
    try:
        f = open(folder + "/board.py", "w")
        f.write("NAME = 'broken'\nI2C = {'id': 0, 'sda': 21,\n")   # a syntax error
        f.close()
        out = _boot_twice(root, folder)
        assert out[0][0] == 1 and out[1][0] == 0, out   # one retry, then it stops
        assert not out[0][1] and not out[1][1], out     # no watchdog: the REPL stays
        log = _text(root + "/crash.log")
        assert "SyntaxError" in log and "board" in log, log
        # A profile with bad values found once the panel works: said on it, logged,
        # no reset at all (test_never_lose3: the words on the panel).
        import ui_rig
        b = ui_rig._board("sim")
        b.BUTTONS = {"PREV": (32, "internal")}          # no OK button
        _sim().configure(ui_rig._board("sim"))
        root2 = tmpdir("item9vals")
        out = _boot_twice(root2, b)
        assert out[0][0] == 0 and out[1][0] == 0, out
        assert "OK button" in _text(root2 + "/crash.log")
        rmtree(root2)
    finally:
        rmtree(folder)
        rmtree(root)


def test_item9_missing_display_beeps_and_logs_bus_scan():
    import ui_rig
    root = tmpdir("item9disp")
    board = ui_rig._board("sim")

    def no_panel(sim):
        sim.configure(board)
        sim.fail(0x3C, True)                    # the panel does not answer
    try:
        out = _boot_twice(root, board, no_panel)
        assert out[0][0] == 1 and out[1][0] == 0, out   # one retry, then the REPL
        assert out[0][2] >= 3 and out[1][2] >= 3, out   # the buzzer's error pattern
        log = _text(root + "/crash.log")
        assert "0x3C" in log and "found: 0x68" in log, log   # looked for, and found
    finally:
        rmtree(root)
