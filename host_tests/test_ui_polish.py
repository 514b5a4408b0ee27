# portable: runs under MicroPython too
"""Polish items from a playtest: a saved game is never replaced by accident, texts
that say what happened, sounds where something happens, Settings that explain
themselves.

Each test drives the App with buttons and shakes (host_tests/ui_rig.py) and checks the
screen's state and the pixels it shows.
"""
import framebuf

import ui_rig
from ui_rig import faces as _faces, scripted as _scripted
from frenzy_pilot import start_game
from ui import gfx

OK = ui_rig.OK
NEXT = ui_rig.NEXT
PREV = ui_rig.PREV
BACK = ui_rig.BACK


def _lit(frame, x, y):
    return frame[(y >> 3) * 128 + x] >> (y & 7) & 1


def _region_is(frame, paint, x0, y0, x1, y1):
    """The frame's pixels in [x0, x1) x [y0, y1) equal what paint(fb) draws alone."""
    buf = bytearray(1024)
    paint(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB))
    for y in range(y0, y1):
        for x in range(x0, x1):
            if _lit(buf, x, y) != _lit(frame, x, y):
                return False
    return True


def _text_intact(frame, s, x, y, f=gfx.SMALL):
    def paint(fb):
        gfx.text(fb, s, x, y, 1, f)
    return _region_is(frame, paint, x, y, x + gfx.width(s, f), y + f[2])


def _label_intact(frame, s, x, y, f=gfx.MEDIUM):
    def paint(fb):
        gfx.label(fb, s, x, y, f)
    return _region_is(frame, paint, x, y, x + gfx.width(s, f) + 2, y + f[2] + 2)


def _pick(r, item):
    m = r.app.screen
    assert ui_rig.to_item(r, item), (m.items, m.cur)
    r.press(OK)


# ---- 1. a new game over a saved one asks first ---------------------------------------

def test_new_game_over_a_saved_one_asks_first():
    r = ui_rig.Rig("pol_replace")
    start_game(r, 2, 0)                  # Frenzy, 2 players: saved at once
    r.press(BACK)
    m = r.app.screen
    assert r.screen == "menu" and m.items[0] == "CONTINUE", m.items
    saved = r.app.store.load_game()
    assert saved is not None and saved[0] == 2
    for item in ("SHAKE UP", "FARKLE FRENZY"):
        _pick(r, item)
        # Still the menu, asking; the cursor on NO.
        assert r.screen == "menu" and m.ask == item and m.yes == 0, (r.screen, m.ask)
        f = r.frame()
        x = (128 - gfx.width("REPLACE SAVED GAME?", gfx.MEDIUM)) // 2
        assert _text_intact(f, "REPLACE SAVED GAME?", x, 22, gfx.MEDIUM)
        assert _label_intact(f, "NO", 36, 44)          # NO under the cursor
        assert not _label_intact(f, "YES", 70, 44)
        r.press(OK)                                     # NO
        assert r.screen == "menu" and m.ask is None
        assert m.items[0] == "CONTINUE", m.items
        assert r.app.store.load_game() == saved         # untouched
    # BACK answers NO too; PREV/NEXT move between NO and YES.
    _pick(r, "SHAKE UP")
    r.press(NEXT)
    assert m.yes == 1
    assert _label_intact(r.frame(), "YES", 70, 44)
    r.press(PREV)
    assert m.yes == 0
    r.press(BACK)
    assert r.screen == "menu" and m.ask is None and r.app.store.load_game() == saved
    # YES goes to the setup; leaving it keeps the save, starting replaces it.
    _pick(r, "SHAKE UP")
    r.press(NEXT)
    r.press(OK)
    assert r.screen == "setup" and r.app.screen.title == "SHAKE UP", r.screen
    r.press(BACK)
    assert r.screen == "menu" and r.app.store.load_game() == saved
    _pick(r, "SHAKE UP")
    r.press(NEXT)
    r.press(OK)
    r.press(OK)                                         # 2 players
    assert r.screen == "shakeup", r.screen
    got = r.app.store.load_game()
    assert got is not None and got[0] == 1, got


def test_new_game_without_a_save_does_not_ask():
    r = ui_rig.Rig("pol_noask")
    r.wait(1500)
    m = r.app.screen
    assert r.app.store.load_game() is None and m.items[0] != "CONTINUE"
    _pick(r, "FARKLE FRENZY")
    assert r.screen == "setup", r.screen
    r.press(BACK)
    _pick(r, "SHAKE UP")
    assert r.screen == "setup", r.screen


# ---- 2. a Farkle with nothing to lose says FARKLE, not "LOST 0" -----------------------

def test_farkle_on_the_first_roll_does_not_say_lost_0():
    from ui import frenzy_screen as fs
    # The Common Die shows 2X (no number to score with); RED rolls 2 3 4 6 2.
    r = _scripted("pol_farkle", bytes((4,)) + _faces(2, 3, 4, 6, 2))
    start_game(r, 2, 0)
    r.press(OK)                          # the Common Die
    r.wait(600)
    r.press(OK)                          # RED's dice
    r.wait(600)
    s = r.app.screen
    assert s.view == fs.V_FARKLE and s.ov[19] == 0 and s.ov[20:23] == bytes(3), (s.view, s.ov)
    assert s.t_line1 == "RED FARKLED", s.t_line1
    x = (128 - gfx.width("RED FARKLED", gfx.MEDIUM)) // 2
    assert _text_intact(r.frame(), "RED FARKLED", x, 40, gfx.MEDIUM)


# ---- 3. sounds: the WILD declared, the "filled the riser" notice ---------------------

def _record(r):
    """Every effect the app plays from now on, in order."""
    plays = []
    real = r.app.play

    def play(seq):
        plays.append(seq)
        real(seq)
    r.app.play = play
    return plays


def test_declaring_the_wild_sounds():
    from core import frenzy as fz
    from frenzy_steps import _roll
    from ui import frenzy_screen as fs
    from ui import sounds
    # The Common Die shows WILD; RED rolls 2 2 3 4 6 and declares the WILD a 2.
    r = _scripted("pol_wild", bytes((5,)) + _faces(2, 2, 3, 4, 6))
    start_game(r, 2, 0)
    _roll(r)
    _roll(r)
    s = r.app.screen
    assert s.view == fs.V_PLAY and s.game.phase == fz.PH_WILD, (s.view, s.game.phase)
    plays = _record(r)
    r.press(NEXT)
    assert plays == [sounds.SELECT], plays       # choosing: the cursor click
    r.press(PREV)                                # back to 2, where the picker started
    plays[1:] = []
    r.press(OK)
    assert s.game.wild == 2 and s.game.phase == fz.PH_TAKE
    assert plays[1:] == [sounds.LAND], plays     # declared: the die set on its face


def test_filled_the_riser_notice_sounds():
    from core import frenzy as fz
    from frenzy_steps import _roll, _select, _to
    from ui import frenzy_screen as fs
    from ui import sounds
    # Relay, the Common Die 2X: RED fills the riser with five 1s and stops; GREEN
    # takes a 5 and is stopped by RED's fill: the notice opens with the fill sound.
    r = _scripted("pol_fill", bytes((4,)) + _faces(1, 1, 1, 1, 1) + _faces(5, 2, 3, 4, 6))
    start_game(r, 2, 0)
    _roll(r)
    _roll(r)
    _select(r, (0, 1, 2, 3, 4))
    _to(r, fs.IT_TAKE)
    plays = _record(r)
    r.press(OK)
    assert sounds.SAFE in plays, plays           # RED's own fill
    _to(r, fs.IT_STOP)
    r.press(OK)
    assert r.screen == "pass"
    r.press(OK)
    _roll(r)                                     # GREEN: 5 2 3 4 6
    _select(r, (0,))
    _to(r, fs.IT_TAKE)
    del plays[:]
    r.press(OK)
    s = r.app.screen
    assert s.view == fs.V_NOTICE and s.t_line1 == "RED FILLED THE RISER:", (s.view, s.t_line1)
    assert plays == [sounds.SAFE], plays
    # Closing it plays nothing more than the summary's own screen.
    del plays[:]
    r.press(OK)
    assert s.view == fs.V_SUMMARY and s.game.phase != fz.PH_OVER
    assert sounds.SAFE not in plays, plays


# ---- 4. Settings: which way the shake sense goes; values clear of the scroll bar -----

def _settings(name):
    r = ui_rig.Rig(name)
    r.wait(1500)
    _pick(r, "SETTINGS")
    assert r.screen == "settings", r.screen
    return r


def _settings_to(r, label):
    from ui import settings
    s = r.app.screen
    for _ in range(12):
        if s.cur < len(settings._LINES) and settings._LINES[s.cur][0] == label:
            return s
        r.press(NEXT)
    raise AssertionError("no line " + label)


def test_shake_sense_says_which_way_is_more_sensitive():
    from hal import shake
    # The claim is true: sensitivity 5 starts a shake at the lowest activity.
    th = shake._THRESH
    assert all(th[i] > th[i + 1] for i in range(len(th) - 1)), th
    r = _settings("pol_sense")
    s = _settings_to(r, "SHAKE SENSE")
    row = s.cur - s.top
    y = 12 + 8 * row
    for _ in range(5):
        v = r.app.settings[5]
        want = "%d (5=LIGHT)" % v
        assert s.vals[s.cur] == want, s.vals[s.cur]
        w = gfx.width(want)

        def paint(fb):
            fb.fill_rect(0, y - 1, 128, 7, 1)
            gfx.text(fb, "SHAKE SENSE", 2, y, 0)
            gfx.text(fb, want, 124 - w, y, 0)
        assert _region_is(r.frame(), paint, 0, y - 1, 127, y + 6), want
        r.press(OK)                                     # the next value
    assert r.app.settings[5] == v % 5 + 1


def test_settings_values_keep_clear_of_the_scroll_bar():
    r = _settings("pol_clear")
    s = r.app.screen
    for _ in range(12):
        f = r.frame()
        for row in range(6):
            y = 12 + 8 * row
            if s.top + row == s.cur:
                continue                                # the inverted cursor row
            for yy in range(y, y + 5):
                # Columns 124 and 125 stay dark: values end 2 px before the bar
                # (they ended 1 px before it and read as touching it).
                assert not _lit(f, 124, yy) and not _lit(f, 125, yy), (s.top + row, yy)
            assert any(_lit(f, 126, yy) for yy in range(11, 59))  # the bar is there
        r.press(NEXT)


# ---- 5. Settings: the rules options apply to new games --------------------------------

def test_rules_options_say_they_apply_to_new_games():
    from ui import settings
    r = _settings("pol_newgames")
    s = r.app.screen
    note = "APPLIES TO NEW GAMES"
    x = (128 - gfx.width(note)) // 2
    seen = 0
    for _ in range(len(settings._LINES) + 1):
        f = r.frame()
        i = s.cur
        label = settings._LINES[i][0] if i < len(settings._LINES) else "DONE"
        rules = label in ("FRENZY TURNS", "THREE 1S", "PYRAMID SPOTS")
        if rules:
            seen += 1
            assert _text_intact(f, note, x, 59), label
        else:
            # Elsewhere the bottom lines below the list stay dark (the scroll bar, in
            # column 126, reaches row 58).
            for y in range(58, 64):
                for xx in range(0, 126):
                    assert not _lit(f, xx, y), (label, xx, y)
        r.press(NEXT)
    assert seen == 3
    # Changing one of them leaves the saved game's rules alone: the app passes the
    # settings to a game only when it starts (Frenzy's schedule is in its save).
    start = ui_rig.Rig("pol_newgames2")
    start_game(start, 2, 0)
    g = start.app.screen.game
    start.app.settings[2] = 1                           # LOCKSTEP from now on
    start.press(BACK)
    _pick(start, "CONTINUE")
    assert start.app.screen.game.schedule == g.schedule == 0
