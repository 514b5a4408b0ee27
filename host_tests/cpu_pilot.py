"""Games against the CPU players, played to the end by a pilot that logs each turn
(test_ui_cpu, test_ui_playtest_cpu, test_never_lose3, web_plans)."""
import ui_rig
from core import games
from ui import frenzy_screen as fs
from ui import shakeup_screen as ss
from system import store


OK = ui_rig.OK


NEXT = ui_rig.NEXT


PREV = ui_rig.PREV


def _cpu_acts(s):
    """Whether the CPU plays now on game screen s (it then needs no key)."""
    g = s.game
    cpus = s.app.cpus
    if s.KIND == games.SHAKEUP:
        return s.by_cpu if s.ack else cpus[g.player]
    if s.view == fs.V_PLAY:
        return cpus[g.player]
    return s.by_cpu and s.view in (fs.V_FARKLE, fs.V_NOTICE)


class Log:
    def __init__(self):
        self.lines = []  # the CPUs' lines (notices) as shown
        self.passes = []  # (seat, holder before) of each pass screen
        self.presses = 0  # the humans' key presses
        self.winner = -1


def _human_shakeup(r, s, log):
    g = s.game
    v = s.view
    log.presses += 1
    if s.ack or v in (ss.ROLLOFF, ss.BOARD):
        r.press(OK)
        r.wait(600)
    elif v == ss.DICE:
        while s.cur != 5:  # STOP: drawn first, one PREV from the first die
            r.press(PREV)
            log.presses += 1
        r.press(OK)
    else:
        assert v in (ss.MOVE, ss.PENALTY) and g.legal()
        r.press(OK)


def _human_frenzy(r, s, log):
    g = s.game
    log.presses += 1
    if s.view != fs.V_PLAY:
        r.press(OK)
        if s.view == fs.V_WARN:
            r.press(NEXT)
            r.press(OK)
        return
    if g.phase == 3:  # PH_TAKE: the selection of the most points, die by die
        best = 0
        for m in range(1, 64):
            if s.ok_take[m] and (not best or g.points(m) > g.points(best)):
                best = m
        for i in range(s.nitems):
            it = s.items[i]
            bit = (1 << it) if it < 5 else (0x20 if it == fs.IT_COMMON else 0)
            if bit & (best ^ s.mask):  # from the selection TAKE opens with
                while s.cur != i:
                    r.press(NEXT)
                r.press(OK)
        assert ui_rig.to_item(r, fs.IT_TAKE)
        r.press(OK)
    elif g.phase == 4:  # PH_DECIDE
        want = fs.IT_STOP if g.running(g.player) >= 400 else fs.IT_ROLL
        assert ui_rig.to_item(r, want)
        r.press(OK)
        r.wait(600)
        if r.app.screen is s and s.view == fs.V_WARN:
            r.press(NEXT)
            r.press(OK)
    else:
        r.press(OK)
        r.wait(600)


def play(r, log, frames=60000, until=None):
    """Play on until the game is won (the winner screen) or until(r) is true: the humans
    by the pilot, the CPUs by themselves. Returns the number of frames run."""
    app = r.app
    for i in range(frames):
        s = app.screen
        if app.notice is not None and (not log.lines or log.lines[-1] != app.notice):
            log.lines.append(app.notice)
        if until is not None and until(r):
            return i
        if s.NAME == "win":
            log.winner = s.seat
            return i
        if s.NAME == "pass":
            log.passes.append((s.seat, app.holder))
            assert not app.cpus[s.seat], "a pass screen before a CPU"
            log.presses += 1
            r.press(OK)
            continue
        assert s.NAME in ("shakeup", "frenzy"), s.NAME
        if s.NAME == "frenzy" and s.view == fs.V_WINNER:
            log.winner = s.game.winner
            return i
        if app.tumbling or _cpu_acts(s):
            r.step()
            continue
        assert not app.cpus[s.game.player] or s.view != fs.V_PLAY if s.NAME == "frenzy" \
            else True
        if s.NAME == "shakeup":
            _human_shakeup(r, s, log)
        else:
            _human_frenzy(r, s, log)
    raise AssertionError("no winner in %d frames" % frames)


def _start(name, kind_item, players, seats, seed=3, schedule=None):
    r = ui_rig.Rig(name, seed=seed)
    ui_rig.at_menu(r)
    if schedule is not None:
        r.app.settings[store.S_SCHEDULE] = schedule
    ui_rig.setup_game(r, kind_item, players, seats)
    return r


def old_stats(name, n, i, v):
    """A Store on a stats file of n bytes (an older layout) with counter i at v: (the
    Store, its stats as loaded: STATS_LEN bytes, newer counters at 0)."""
    root = ui_rig.tmpdir(name)
    old = bytearray(n)
    store.stat_set(old, i, v)
    with open(root + "/" + store.STATS, "wb") as f:
        f.write(store.pack(0x54, old))
    st = store.Store(root)
    ba = st.load_stats()
    assert st.problem is None and len(ba) == store.STATS_LEN
    assert store.stat(ba, i) == v
    return st, ba
