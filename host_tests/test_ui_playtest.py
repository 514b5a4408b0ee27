# portable: runs under MicroPython too
"""Regressions found by playing the games as a first-time player would.

Each test drives the App with buttons and shakes (host_tests/ui_rig.py) and checks what
the screen shows: legible text, hints that match what the buttons do, texts that say
what really happened.
"""
from core import games
import framebuf

import ui_rig
from ui_rig import faces as _faces, scripted as _rig
from frenzy_pilot import start_game
from ui import frenzy_screen as fs
from ui import gfx
from playtest_rig import _shakeup_to_dice, _text_intact

OK = ui_rig.OK
NEXT = ui_rig.NEXT
PREV = ui_rig.PREV


def _to_take(r):
    """Frenzy, 1 player: the Common Die shows 1; RED rolls 2 5 2 2 4."""
    start_game(r, 1, 0)
    r.press(OK)          # roll the Common Die
    r.wait(600)
    r.press(OK)          # roll the dice
    r.wait(600)
    s = r.app.screen
    assert s.game.phase == 3, s.game.phase  # PH_TAKE
    return s


def test_frenzy_take_not_possible_stays_legible():
    # A tester saw "YA !(" at the bottom left after a roll: TAKE, not possible with
    # nothing chosen, was dithered into garbage. It must read TAKE, and the info
    # line must say what to do.
    r = _rig("pt_take", bytes((0,)) + _faces(2, 5, 2, 2, 4))
    s = _to_take(r)
    # TAKE opens with the best selection marked (2 2 2, the 5, the Common Die's 1),
    # the cursor on TAKE; the 4, which no selection counts, is not offered.
    assert s.mask == 0x2F and s.items[s.cur] == fs.IT_TAKE, (s.mask, s.cur)
    assert s.t_info == "TAKE: SET THEM ASIDE" and s.t_pts == "+350", (s.t_info, s.t_pts)
    assert bytes(s.items[:s.nitems]) == bytes((0, 1, 2, 3, fs.IT_COMMON, fs.IT_TAKE))
    ui_rig.select(r, ())  # nothing chosen
    assert s.mask == 0
    assert _text_intact(r.frame(), "TAKE", 1, 58, gfx.SMALL)  # the choices row, y 57
    assert s.t_info == "OK: PICK SCORING DICE", s.t_info
    # A selection that does not score (one 2 of three): TAKE still reads, the line
    # says why it cannot.
    ui_rig.select(r, (0,))
    assert s.mask == 1
    assert _text_intact(r.frame(), "TAKE", 1, 58, gfx.SMALL)  # the choices row, y 57
    assert s.t_info == "NOT ALL OF THESE SCORE", s.t_info
    # The 5 alone scores: TAKE can be pressed.
    ui_rig.select(r, (1,))
    assert s.mask == 2
    assert s.t_info == "TAKE: SET THEM ASIDE", s.t_info
    # The Common Die alone cannot score.
    ui_rig.select(r, (), True)
    assert s.mask == 0x20, s.mask
    assert s.t_info == "ADD A ROLLED DIE TOO", s.t_info


class _App:
    def __init__(self, buttons):
        class B:
            pass
        self.board = B()
        self.board.BUTTONS = buttons


def _howto_page(app, title):
    from ui import howto
    h = howto.HowTo(app)
    for i in range(len(howto.PAGES)):
        if howto.PAGES[i][0] == title:
            h.page = i
    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    h.draw(fb)
    return h, buf


def test_howto_lines_fit_and_scores_are_complete():
    from ui import howto
    words = ""
    for title, lines in howto.PAGES:
        assert len(lines) <= 6, title
        for ln in lines:
            # x 2 .. 125: the text never runs into the edge of the 128-px panel
            assert gfx.width(ln) <= 123, ln
        if title.startswith("FRENZY: S"):
            words += " | ".join(lines) + " | "
    # Every combination of the rules' table (RULES.md, Farkle Frenzy) with its points.
    for want in ("1 = 100", "5 = 50", "THREE 1S = 300 (OR 1000)", "N X 100",
                 "FOUR OF A KIND = 1000", "FIVE OF A KIND = 2000",
                 "SIX OF A KIND = 3000", "1-2-3-4-5-6 = 1500", "THREE PAIRS = 1500",
                 "4 OF A KIND + PAIR = 1500", "TWO TRIPLETS = 2500"):
        assert want in words, want
    # Not "first to 10,000": the round is played out and the highest total wins.
    for title, lines in howto.PAGES:
        for ln in lines:
            assert "FIRST TO" not in ln, ln


def test_howto_names_the_menu_button_of_the_board():
    # Holding OK is BACK only on 3-button boards (hal.buttons); with a BACK button
    # holding OK does nothing, so the page must not promise it.
    four = {"PREV": (1, "internal"), "NEXT": (2, "internal"), "OK": (3, "internal"),
            "BACK": (4, "internal")}
    three = {"PREV": (1, "internal"), "NEXT": (2, "internal"), "OK": (3, "internal")}
    _h, buf = _howto_page(_App(four), "CONTROLS")
    assert _text_intact(buf, "BACK: MENU.", 2, 36, gfx.SMALL)
    _h, buf = _howto_page(_App(three), "CONTROLS")
    assert _text_intact(buf, "HOLD OK: MENU (= BACK).", 2, 36, gfx.SMALL)


def test_shakeup_none_with_no_pawn_to_lose_says_so():
    # NONE with every pawn on level 1: "PENALTY FOR RED" alone read as if a pawn fell.
    r = _rig("pt_none", _faces(6, 1) + _faces(1, 2, 4, 6))
    s = _shakeup_to_dice(r)
    while s.cur != 5:                # STOP
        r.press(NEXT)
    r.press(OK)
    # Told on the next turn's board (issue 31: no press to confirm it).
    assert s.view == 1 and s.lines == ["RED NONE: NO PAWN LOST", "GREEN: SHAKE!"], s.lines


def test_shakeup_back_keeps_the_dice_set_aside():
    # BACK in the middle of choosing dice, then Continue: the dice picked to set
    # aside are still picked (Frenzy kept its selection; Shake Up lost it).
    r = _rig("pt_back", _faces(6, 1) + _faces(3, 3, 5, 2))
    s = _shakeup_to_dice(r)
    r.press(OK)                      # set aside the first die
    r.press(NEXT)
    r.press(OK)                      # and the second
    assert s.pending == 3, s.pending
    r.press(ui_rig.BACK)
    assert r.screen == "menu"
    m = r.app.screen
    assert m.items[0] == "CONTINUE", m.items
    while m.items[m.cur] != "CONTINUE":
        r.press(NEXT)
    r.press(OK)
    s = r.app.screen
    assert r.screen == "shakeup" and s.view == 2, (r.screen, s.view)
    assert s.pending == 3, s.pending
    assert s.rolling and s.tumble_mask == 12


def test_shakeup_penalty_choice_names_the_level_and_the_arrows():
    # "GREEN PAWN 2 -> 1" read as "pawn number 2"; and nothing showed that PREV/NEXT
    # go through the other choices.
    from core import shakeup as su
    from ui.shakeup_screen import ShakeUpScreen
    r = ui_rig.Rig("pt_pen")
    r.wait(1500)
    app = r.app
    g = su.Game(2, False, app.dice)
    while g.phase == su.ROLLOFF:
        g.apply(su.ROLL, [6] if g.player == 0 else [1])
    # RED moves up twice (levels 1 -> 2), GREEN twice: both have pawns on level 2.
    for _ in range(2):
        for seat in (0, 1):
            assert g.player == seat
            g.apply(su.ROLL, [1, 1, 1, 2])      # MOVE
            g.apply(su.STOP)
            g.apply(su.UP | 1)
    # RED: BIG on shake 1, moves up, then may penalize a GREEN pawn on level 2.
    g.apply(su.ROLL, [4, 4, 4, 4])
    g.apply(su.STOP)
    g.apply(su.UP | 1)
    assert g.phase == su.PENALTY
    app.players = 2
    app.holder = 0
    app.show(ShakeUpScreen(app, g, None))
    r.step(2)
    s = app.screen
    assert s.view == 5 and len(s.choices) == 2, (s.view, s.choices)  # GREEN's, or none
    assert s.lines[-1] == "GREEN PAWN: LEVEL 2 -> 1", s.lines
    f = r.frame()
    assert _text_intact(f, "<", 1, 57, gfx.SMALL) and _text_intact(f, ">", 124, 57, gfx.SMALL)
    r.press(NEXT)
    assert s.lines[-1] == "NO PENALTY", s.lines


def test_stats_count_a_game_in_the_singular():
    from system import store
    from ui.stats import Stats
    r = ui_rig.Rig("pt_stats")
    r.wait(1500)
    st = r.app.store.load_stats()
    store.record_game(st, games.FRENZY, 1, 600, 10400)
    r.app.store.save_stats(st)
    s = Stats(r.app)
    assert s.lines[0] == "SHAKE UP: 0 GAMES", s.lines
    assert s.lines[2] == "FRENZY: 1 GAME", s.lines
    assert s.lines[3] == "WINS R 0 G 1 B 0 Y 0", s.lines


def test_menu_cursor_on_continue_after_leaving_a_game():
    # The cursor kept its index while CONTINUE was inserted above it: after BACK from
    # a Frenzy game it sat on SHAKE UP, and OK, OK started a new game over the saved
    # one.
    r = ui_rig.Rig("pt_menu")
    start_game(r, 2, 0)
    r.press(ui_rig.BACK)
    m = r.app.screen
    assert r.screen == "menu" and m.items[m.cur] == "CONTINUE", (m.items, m.cur)
    # Elsewhere the cursor stays on the item it was on.
    while m.items[m.cur] != "SETTINGS":
        r.press(NEXT)
    r.press(OK)
    assert r.screen == "settings"
    r.press(ui_rig.BACK)
    m = r.app.screen
    assert m.items[m.cur] == "SETTINGS", (m.items, m.cur)
