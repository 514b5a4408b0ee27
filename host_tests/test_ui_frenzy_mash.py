# portable: runs under MicroPython too
"""Farkle Frenzy under random buttons and shakes, and its frames' allocation.

Mashing: thousands of random presses (PREV, NEXT, OK, now and then BACK to the menu and
CONTINUE back), shakes and pauses in games of 1-4 players in both schedules. Nothing
raises (an illegal decision would: the core raises ValueError), every choice the screen
offers is one the core lists, every saved state loads again, and Continue comes back
to the same game and the same view.

Allocation: frames of the Frenzy screen in steady state (idle, cursor moving, dice
tumbling) allocate nothing (MicroPython's gc.mem_alloc; under CPython only the
scenario runs).
"""
import ui_rig
from core import frenzy as fz
from core.frenzy_score import COMMON_BIT
from core.seeded import Seeded
from frenzy_pilot import start_game
from ui import frenzy_screen as fs
from frenzy_steps import steer_take

OK = ui_rig.OK
NEXT = ui_rig.NEXT
BACK = ui_rig.BACK

# Event mix: PRESS of PREV / NEXT / OK, a shake, a pause (BACK is drawn separately).
_MIX = b"\x02\x02\x02\x02\x02\x02\x01\x01\x01\x00\x00\x04\x04\x05"


def offered_ok(s):
    """Every item the Frenzy screen offers now is allowed by the core."""
    g = s.game
    if s.view != fs.V_PLAY or g.phase == fz.PH_OVER:
        return
    legal = g.legal()
    for i in range(s.nitems):
        it = s.items[i]
        if it == fs.IT_ROLL:
            assert fz.ROLL in legal or fz.COMMON_ROLL in legal, legal
        elif it == fs.IT_STOP:
            assert fz.STOP in legal, legal
        elif it == fs.IT_COMMON:
            assert any(d & COMMON_BIT for d in legal if d & 0xF00 == fz.TAKE)
        elif it == fs.IT_TAKE:
            assert g.phase == fz.PH_TAKE
            if s.ok_take[s.mask]:
                assert fz.TAKE | s.mask in legal
        else:
            assert it < g.nrolled and g.phase == fz.PH_TAKE
    if g.phase == fz.PH_WILD:
        assert fz.DECLARE | s.wildv in legal
    assert s.rolling == (g.phase in (fz.PH_COMMON, fz.PH_ROLL) or (
        g.phase == fz.PH_DECIDE and s.roll_on))


def _continue(r):
    m = r.app.screen
    assert m.NAME == "menu" and m.items[0] == "CONTINUE", m.items
    m.cur = 0
    r.press(OK)


def mash(players, schedule, seed, events):
    r = ui_rig.Rig("fzmash%d%d" % (players, schedule), seed=seed)
    start_game(r, players, schedule)
    rnd = Seeded(seed + 1000)
    backs = rounds = stuck = 0
    for _ in range(events):
        b = rnd(2)
        what = _MIX[b[0] % len(_MIX)]
        s = r.app.screen
        if s.NAME == "frenzy" and s.view == fs.V_PLAY and s.game.phase == fz.PH_TAKE:
            stuck += 1
            if stuck > 24:
                stuck = 0
                steer_take(r, b[1])
                continue
        else:
            stuck = 0
        if s.NAME == "frenzy" and b[0] < 4:
            # BACK to the menu, then CONTINUE: the same game, the same view.
            if r.app.tumbling:
                r.wait(600)  # buttons wait while the dice tumble
                s = r.app.screen
                if s.NAME != "frenzy":
                    continue
            was = s.game.to_bytes()
            view = s.view
            r.press(BACK)
            assert r.screen == "menu", r.screen
            _continue(r)
            s2 = r.app.screen
            if s2.NAME == "pass":
                r.press(OK)
                s2 = r.app.screen
            assert s2.NAME == "frenzy" and s2 is not s
            assert s2.game.to_bytes() == was and s2.view == view
            backs += 1
            continue
        ui_rig.mash_input(r, what, b[1])  # _MIX has no BACK: it is handled above
        s = r.app.screen
        if s.NAME == "frenzy":
            g = s.game
            blob = g.to_bytes()
            assert fz.Game.from_bytes(blob).to_bytes() == blob
            offered_ok(s)
            if g.phase != fz.PH_OVER:
                assert g.legal()
            rounds = g.round
            if s.view == fs.V_WINNER:
                # The game is over: start another one.
                r.wait(700)
                r.press(NEXT)            # MENU (REMATCH comes first)
                r.press(OK)
                start_game(r, players, schedule)
        else:
            assert s.NAME in ("pass", "menu"), s.NAME
            if s.NAME == "menu":
                if r.app.store.has_game():
                    _continue(r)
                else:
                    start_game(r, players, schedule)
    return backs, rounds


def test_mash_frenzy_solo():
    backs, rounds = mash(1, fz.RELAY, 3, 1500)
    assert backs > 5 and rounds > 3, (backs, rounds)


def test_mash_frenzy_two_relay():
    backs, rounds = mash(2, fz.RELAY, 4, 1500)
    assert backs > 5 and rounds > 3, (backs, rounds)


def test_mash_frenzy_four_lockstep():
    backs, rounds = mash(4, fz.LOCKSTEP, 5, 2000)
    assert backs > 5 and rounds > 2, (backs, rounds)


# ---- allocation per frame ---------------------------------------------------------

FRAMES = 60


def _to_take(r):
    """A solo game up to a roll that scores (the view with the dice cursor)."""
    start_game(r, 1, fz.RELAY)
    for _ in range(60):
        s = r.app.screen
        if s.view == fs.V_PLAY and s.game.phase == fz.PH_TAKE:
            return s
        if s.view != fs.V_PLAY or s.game.phase == fz.PH_DECIDE:
            r.press(OK)  # close overlays; in DECIDE the cursor is on ROLL
        elif s.game.phase == fz.PH_WILD:
            r.press(OK)
        else:
            r.press(OK)
            r.wait(600)
    raise AssertionError("never reached the dice")


def test_frenzy_frames_allocate_nothing():
    r = ui_rig.Rig("fzalloc", seed=6, sim=False)
    r.wait(1500)
    s = _to_take(r)
    q = r.dev.queue
    r.step(3)
    used = ui_rig.alloc_over(r, FRAMES)
    assert used == 0, "idle dice view: %d bytes in %d frames" % (used, FRAMES)

    def feed(i):
        if i % 2 == 0:
            q.put(0x11)  # PRESS NEXT: the cursor walks over the dice, WILD and TAKE
    ui_rig.alloc_over(r, 16, feed)  # every item drawn once first
    used = ui_rig.alloc_over(r, FRAMES, feed)
    assert used == 0, "dice cursor: %d bytes in %d frames" % (used, FRAMES)
    assert s.view == fs.V_PLAY and s.game.phase == fz.PH_TAKE


def test_frenzy_tumble_allocates_nothing():
    r = ui_rig.Rig("fzalloc2", seed=7, sim=False)
    r.wait(1500)
    start_game(r, 2, fz.RELAY)
    s = r.app.screen
    assert s.rolling and s.game.phase == fz.PH_COMMON
    r.dev.queue.put(0x50)  # SHAKE_START: the Common Die tumbles until SHAKE_END
    r.step(2)
    assert r.app.tumbling
    used = ui_rig.alloc_over(r, FRAMES)
    assert r.app.tumbling
    assert used == 0, "tumbling Common Die: %d bytes in %d frames" % (used, FRAMES)
    r.dev.queue.put(0x60)
    r.step(2)
    assert not r.app.tumbling and s.game.phase == fz.PH_ROLL
    r.wait(900)
    r.dev.queue.put(0x50)  # now the five dice
    r.step(2)
    used = ui_rig.alloc_over(r, FRAMES)
    assert used == 0, "tumbling dice: %d bytes in %d frames" % (used, FRAMES)


def test_restored_view_bytes_never_break_the_screen():
    """Continue with screen bytes of any content (damaged, or from another firmware):
    the screen comes up, draws and plays on; the game itself is never touched."""
    r = ui_rig.Rig("fzui", seed=8, sim=False)
    r.wait(1500)
    start_game(r, 3, fz.LOCKSTEP)
    r.press(OK)
    r.wait(600)
    g = r.app.screen.game
    blob = g.to_bytes()
    rnd = Seeded(44)
    for k in range(150):
        ui = bytearray(rnd(44))
        if k % 3:
            ui[0] = 1  # the current layout version, random contents
        if k % 7 == 0:
            ui = ui[:k % 44]
        game = fz.Game.from_bytes(blob, r.app.dice)
        s = fs.FrenzyScreen(r.app, game, bytes(ui))
        r.app.show(s)
        for _ in range(4):
            r.press(rnd(1)[0] % 3)
        r.step(2)
        assert r.screen in ("frenzy", "pass", "menu")
        if r.app.screen is s:
            offered_ok(s)
