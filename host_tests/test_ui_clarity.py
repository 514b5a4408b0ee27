# portable: runs under MicroPython too
"""Regressions of the second playtest (issue 18): what the screens say around a round
of Farkle Frenzy and a game's end, driven through the App by buttons and shakes."""
from core import games

import ui_rig
from ui_rig import faces as _faces, scripted as _rig
from core import frenzy as fz
from frenzy_pilot import start_game
from frenzy_steps import _roll
from playtest_rig import _lit, _text_intact
from ui import frenzy_screen as fs
from ui import gfx

OK = ui_rig.OK
NEXT = ui_rig.NEXT
PREV = ui_rig.PREV
BACK = ui_rig.BACK

_C1 = bytes((0,))   # the Common Die shows 1
_C2X = bytes((4,))  # the Common Die shows 2X


def _drawn(frame, s, x, y, f=gfx.SMALL):
    """s reads at (x, y) in frame exactly as the font draws it."""
    return _text_intact(frame, s, x, y, f)


def _take(r, dice):
    ui_rig.select(r, dice)
    assert ui_rig.to_item(r, fs.IT_TAKE)
    r.press(OK)


def _stop(r):
    s = r.app.screen
    assert ui_rig.to_item(r, fs.IT_STOP)
    r.press(OK)
    if s.view == fs.V_WARN:
        r.press(NEXT)
        r.press(OK)


def _pass(r):
    if r.screen == "pass":
        r.press(OK)


def test_relay_summary_says_who_cut_a_round_and_marks_a_farkle():
    # RED took 150 in step 1 and banked 650 in step 2; GREEN then filled the riser in
    # step 1, which cuts RED's round to 150 (the rule). The summary said only
    # "150<400": it must say the round was cut, at which step, by whom.
    r = _rig("cl_cut", _C1 + _faces(1, 5, 2, 3, 4) + _faces(5, 5, 5) + _faces(1, 1, 1, 5, 5)
             + _C2X + _faces(2, 3, 4, 6, 2) + _faces(1, 1, 1, 5, 5))
    start_game(r, 2, fz.RELAY)
    s = r.app.screen
    _roll(r)                         # the Common Die: 1
    _roll(r)                         # RED: 1 5 2 3 4
    _take(r, (0, 1))
    _roll(r)                         # ROLL on: 5 5 5
    _take(r, (0, 1, 2))
    _stop(r)
    _pass(r)
    assert s.game.player == 1
    _roll(r)                         # GREEN: 1 1 1 5 5, fills in step 1
    _take(r, (0, 1, 2, 3, 4))
    _stop(r)
    assert s.view == fs.V_SUMMARY, s.view
    assert s.t_cols[0] == "150<400" and s.t_tags[0] == "CUT", (s.t_cols, s.t_tags)
    assert s.t_tags[1] == "" and s.t_cols[1] == "+400"
    assert s.t_line2 == "CUT AT STEP 1 BY GREEN", (s.t_line2, s.t_line3)
    f = r.frame()
    assert _drawn(f, "CUT AT STEP 1 BY GREEN", 2, 58)
    assert _drawn(f, "ROUND", 88 - gfx.width("ROUND"), 12)  # the column headings
    assert _drawn(f, "TOTAL", 126 - gfx.width("TOTAL"), 12)
    assert _drawn(f, "OK", 127 - gfx.width("OK"), 58)       # the corner of every OK
    # Round 2: GREEN rolls 2X and farkles at once; RED enters the sheet.
    r.press(OK)
    _roll(r)                         # 2X
    _roll(r)                         # GREEN: 2 3 4 6 2: a Farkle
    assert s.view == fs.V_FARKLE
    r.press(OK)
    _pass(r)
    _roll(r)
    _take(r, (0, 1, 2, 3, 4))
    _stop(r)
    assert s.view == fs.V_SUMMARY, s.view
    assert s.t_cols[1] == "FARKLE" and s.t_tags[1] == "", (s.t_cols, s.t_tags)
    assert s.t_cols[0] == "+800" and s.t_line2 == "" and s.t_line3 == ""
    assert _drawn(r.frame(), "FARKLE", 88 - gfx.width("FARKLE", gfx.MEDIUM), 27, gfx.MEDIUM)


def test_stopped_by_a_fill_below_the_entry_says_it_counts_0():
    # "GREEN FILLED THE RISER: YOU STOP WITH 50" on a player with no score yet: the
    # 50 counts 0 (below 400 before the sheet), and the notice must say so.
    r = _rig("cl_zero", _C1 + _faces(1, 1, 1, 5, 5) + _faces(5, 2, 3, 4, 6))
    start_game(r, 2, fz.LOCKSTEP)
    s = r.app.screen
    _roll(r)                         # the Common Die
    _roll(r)                         # RED: 1 1 1 5 5
    _take(r, (0, 1, 2, 3, 4))
    assert ui_rig.to_item(r, fs.IT_ROLL)
    r.press(OK)                      # keeps rolling: GREEN's step 1 first
    _pass(r)
    _roll(r)                         # GREEN: 5 2 3 4 6
    _take(r, (0,))
    assert s.view == fs.V_NOTICE, s.view
    assert (s.t_line2, s.t_line3, s.t_info) == ("YOU STOP WITH", "50", "BELOW 400: COUNTS 0")
    assert _drawn(r.frame(), "BELOW 400: COUNTS 0", 2, 58)


def test_every_choice_bar_starts_on_the_same_item():
    # After a fill from a one-die roll the cursor sat on STOP: TAKE's list (the die,
    # TAKE) has two items like ROLL/STOP, and the index carried over. Every bar opens
    # on one documented item: TAKE (with the best selection marked), ROLL, NO.
    r = _rig("cl_bar", _C2X + _faces(1, 1, 1, 5, 2) + _faces(5))
    start_game(r, 1, fz.RELAY)
    s = r.app.screen
    _roll(r)                         # 2X
    _roll(r)                         # 1 1 1 5 2
    assert s.items[s.cur] == fs.IT_TAKE and s.mask == 0x0F  # 1 1 1 5: 350
    _take(r, (0, 1, 2, 3))
    assert s.game.phase == fz.PH_DECIDE and s.items[s.cur] == fs.IT_ROLL
    r.press(OK)                      # ROLL: one die
    r.wait(600)
    assert s.game.phase == fz.PH_TAKE and s.items[s.cur] == fs.IT_TAKE
    assert s.mask == 1 and s.nitems == 2  # the 5, marked; TAKE
    r.press(OK)                      # TAKE: one press
    assert s.game.phase == fz.PH_DECIDE and s.game.riser(0) == 5
    assert s.items[s.cur] == fs.IT_ROLL, s.items[:s.nitems]
    # The STOP warning starts on NO; after NO the bar is back on ROLL.
    r2 = _rig("cl_bar2", _C2X + _faces(5, 2, 3, 4, 6))
    start_game(r2, 1, fz.RELAY)
    s = r2.app.screen
    _roll(r2)
    _roll(r2)
    _take(r2, (0,))
    assert ui_rig.to_item(r2, fs.IT_STOP)
    r2.press(OK)
    assert s.view == fs.V_WARN and s.items[s.cur] == fs.IT_NO
    r2.press(OK)
    assert s.view == fs.V_PLAY and s.items[s.cur] == fs.IT_ROLL


def test_wild_picker_starts_on_the_best_value_and_asks_before_a_farkle():
    # First roll 2 6 2 4 3 with the WILD: the picker started at 1 and OK declared it;
    # a 2 would have made three 2s (200). Start on the best value, show its points,
    # and ask before a value that farkles.
    r = _rig("cl_wild", bytes((5,)) + _faces(2, 6, 2, 4, 3))
    start_game(r, 1, fz.RELAY)
    s = r.app.screen
    _roll(r)                         # the Common Die: WILD
    _roll(r)
    assert s.game.phase == fz.PH_WILD
    assert s.wildv == 2 and s.t_pts == "+200", (s.wildv, s.t_pts)
    assert _drawn(r.frame(), "+200", 97 - gfx.width("+200", gfx.MEDIUM), 40, gfx.MEDIUM)
    r.press(PREV)                    # 1: the Common Die alone scores nothing
    assert s.wildv == 1 and s.t_pts == "FARKLE", (s.wildv, s.t_pts)
    r.press(OK)                      # asks first
    assert s.game.phase == fz.PH_WILD and s.wask
    assert s.t_info == "FARKLE! OK AGAIN: SET IT"
    r.press(NEXT)                    # another value: the question is gone
    assert not s.wask and s.wildv == 2
    r.press(PREV)
    r.press(OK)
    r.press(OK)                      # sure: declared, and a Farkle (solo: its own
    # screen, no summary after it)
    assert s.game.wild == 1 and s.view == fs.V_FARKLE, (s.game.wild, s.view)
    assert s.t_line1 == "RED FARKLED", s.t_line1


def test_frenzy_caret_stays_apart_from_the_running_total():
    # The caret under the first die touched the running total's big digit below it
    # and read as one glyph ("Ô", tools/screenshots/frenzy-select.png).
    r = _rig("cl_caret", _C2X + _faces(1, 5, 2, 3, 4))
    start_game(r, 1, fz.RELAY)
    s = r.app.screen
    _roll(r)
    _roll(r)
    assert s.game.phase == fz.PH_TAKE and s.items[s.cur] == fs.IT_TAKE
    r.press(NEXT)                    # from TAKE round to the first die
    assert s.items[s.cur] == 0
    f = r.frame()
    caret = [y for y in range(26, 40) if _lit(f, 8, y) and not _lit(f, 0, y)]
    digit = [y for y in range(26, 48) if _lit(f, 2, y)]  # the big "0"'s left side
    assert caret and digit, (caret, digit)
    assert min(digit) - max(caret) >= 3, (caret, digit)


def _frenzy_won(name, players=3):
    """A Frenzy game of `players` seats a round before its end (straight through the
    core): RED rolls 2000 in the last round and wins; shown on the App."""
    from core.dice import Dice
    from ui_rig import Script
    r = ui_rig.Rig(name)
    r.wait(1500)
    g = fz.Game(players, fz.RELAY, 300)
    for k in range(4):
        g.apply(fz.COMMON_ROLL, (5,))
        for _ in range(players):
            g.apply(fz.ROLL, (1, 1, 1, 1, 1) if g.player == 0 or k < 2 else (5, 2, 3, 4, 6))
            g.apply(fz.TAKE | (0x1F if g.player == 0 or k < 2 else 1))
            if g.phase == fz.PH_DECIDE:
                g.apply(fz.STOP)
    # The last round's roller goes first: the others take a 5, RED rolls five 1s.
    last = b""
    for i in range(players):
        last += _faces(1, 1, 1, 1, 1) if (g.roller + i) % players == 0 else _faces(5, 2, 3, 4, 6)
    r.app.dice = Dice(Script(bytes((2,)) + last, 9))
    g._dice = r.app.dice
    r.app.players = players
    r.app.holder = g.player
    r.app.store.save_game(games.FRENZY, g.to_bytes(), b"\x01")
    r.app.show(fs.FrenzyScreen(r.app, g, None))
    s = r.app.screen
    for _ in range(40):
        if s.view == fs.V_WINNER or r.app.screen is not s:
            if r.screen == "pass":
                r.press(OK)
                continue
            if s.view == fs.V_WINNER:
                break
        if s.view != fs.V_PLAY:
            r.press(OK)
        elif s.game.phase == fz.PH_TAKE:
            _take(r, (0,) if s.game.player else (0, 1, 2, 3, 4))
        elif s.game.phase == fz.PH_DECIDE:
            _stop(r)
        else:
            _roll(r)
    assert s.view == fs.V_WINNER, s.view
    return r, s


def test_frenzy_winner_shows_the_standings_and_offers_a_rematch():
    from core import games as gm
    r, s = _frenzy_won("cl_fwin")
    g = s.game
    assert g.winner == 0 and s.t_line1 == "RED WINS"
    # The standings: the winner, then the others by total, highest first.
    tots = [g.totals[1], g.totals[2]]
    order = [s.t_rows[j] for j in s.rank]
    assert [int(s.t_tot[j]) for j in s.rank] == sorted(tots, reverse=True), order
    f = r.frame()
    assert _drawn(f, "TOTAL", 126 - gfx.width("TOTAL"), 12)
    assert _drawn(f, s.t_line2, 126 - gfx.width(s.t_line2, gfx.MEDIUM), 19, gfx.MEDIUM)
    # REMATCH (first) starts the same game again with the next seat rolling first.
    assert s.cur == 0
    r.wait(700)
    r.press(OK)
    s2 = r.app.screen
    if r.screen == "pass":
        assert s2.seat == 1
        r.press(OK)
        s2 = r.app.screen
    assert s2.NAME == "frenzy" and s2 is not s, s2.NAME
    g2 = s2.game
    assert (g2.players, g2.schedule, g2.ones) == (3, g.schedule, g.ones)
    assert g2.round == 1 and g2.roller == 1 and g2.player == 1 and max(g2.totals) == 0
    st = r.app.store.load_stats()
    from system import store
    assert store.stat(st, gm.ST_FF_GAMES) == 1  # the won game was counted


def test_frenzy_winner_menu_goes_to_the_menu():
    r, s = _frenzy_won("cl_fwin2", 2)
    r.wait(700)
    r.press(NEXT)
    assert s.cur == 1
    r.press(OK)
    assert r.screen == "menu"
    assert not r.app.store.has_game()


def test_shakeup_winner_shows_every_players_safe_pawns():
    # The Shake Up winner screen showed nothing of the others.
    from core import shakeup as su
    from ui.shakeup_screen import ShakeUpScreen
    r = ui_rig.Rig("cl_swin")
    r.wait(1500)
    app = r.app
    g = su.Game(3, False, app.dice)
    while g.phase == su.ROLLOFF:
        g.apply(su.ROLL, [6] if g.player == 0 else [1])
    # GREEN gets one pawn SAFE on its way; RED moves pawns up until all five are SAFE.
    for _ in range(200):
        if g.phase == su.OVER:
            break
        if g.phase == su.SHAKE:
            if g.player == 2:
                g.apply(su.ROLL, [1, 2, 4, 6])
                g.apply(su.STOP)
            else:
                g.apply(su.ROLL, [1, 1, 1, 2])
                g.apply(su.STOP)
        elif g.phase == su.MOVING:
            legal = g.legal()
            g.apply(legal[-1] if g.player == 0 or g.count(1, 4) == 0 else legal[0])
        else:
            g.apply(g.legal()[-1])
        if g.player == 0 and g.count(0, 4) == 4 and g.count(0, 3) and g.phase == su.SHAKE:
            break
    assert g.phase == su.SHAKE and g.player == 0 and g.count(0, 4) == 4, (g.phase, g.player)
    from core.dice import Dice
    from ui_rig import Script
    app.dice = g._dice = Dice(Script(_faces(1, 1, 1, 2) * 4))  # MOVE
    app.players = 3
    app.holder = 0
    app.show(ShakeUpScreen(app, g, None))
    s = app.screen
    for _ in range(20):
        if r.screen == "win":
            break
        if s.view == 2:              # DICE: stop on a MOVE
            while s.cur != 5:
                r.press(NEXT)
            r.press(OK)
        elif s.view == 4:            # MOVE: from the highest level
            while s.choices[s.cur] != s.choices[-1]:
                r.press(NEXT)
            r.press(OK)
        elif s.ack:
            r.press(OK)
        else:                        # BOARD: shake by OK
            r.press(OK)
            r.wait(600)
    assert r.screen == "win", r.screen
    w = app.screen
    safe = [g.count(i, 4) for i in range(3)]
    assert w.rows[0] == ("RED", "5 SAFE"), w.rows
    assert sorted(safe[1:], reverse=True) == [int(t.split()[0]) for _, t in w.rows[1:]]
    f = r.frame()
    assert _drawn(f, "5 SAFE", 126 - gfx.width("5 SAFE", gfx.MEDIUM), 14, gfx.MEDIUM)
    assert w.cur == 0
    r.wait(700)
    r.press(OK)                      # REMATCH: a new roll-off, same players
    if r.screen == "pass":
        r.press(OK)
    s2 = app.screen
    assert s2.NAME == "shakeup" and s2.game.players == 3 and s2.game.phase == su.ROLLOFF


def test_frenzy_game_first_seat_is_checked():
    g = fz.Game(3, fz.RELAY, 300, None, 2)
    assert (g.roller, g.player) == (2, 2)
    for bad in (3, -1, "1"):
        try:
            fz.Game(3, fz.RELAY, 300, None, bad)
        except ValueError as e:
            assert "start" in str(e)
        else:
            raise AssertionError("first=%r accepted" % (bad,))


def _scores_after_red_rolls_on(name, schedule):
    r = _rig(name, _C2X + _faces(1, 5, 2, 3, 4) + _faces(2, 3, 4))
    start_game(r, 2, schedule)
    s = r.app.screen
    _roll(r)
    _roll(r)                         # RED: 1 5 2 3 4
    _take(r, (0, 1))
    assert ui_rig.to_item(r, fs.IT_ROLL)
    r.press(OK)
    r.wait(600)
    return r, s


def test_scores_key_shows_what_the_schedule_lets_this_player_see():
    # No score overview during a round: the others' totals showed only on the
    # summary, also in Lockstep where nothing is hidden.
    r, s = _scores_after_red_rolls_on("cl_sc_ls", fz.LOCKSTEP)
    _pass(r)
    assert s.game.player == 1 and s.game.phase == fz.PH_ROLL and s.nitems == 1
    assert _drawn(r.frame(), "< >: SCORES", 127 - gfx.width("< >: SCORES"), 48)
    r.press(NEXT)
    assert s.view == fs.V_SCORES
    assert s.t_cols[0] == "+150" and s.t_cols[1] == "+0", s.t_cols
    assert s.t_tot[:2] == ["0", "0"] and s.t_line2 == ""
    assert _drawn(r.frame(), "+150", 88 - gfx.width("+150", gfx.MEDIUM), 19, gfx.MEDIUM)
    r.press(OK)                      # closes it; the roll still waits
    assert s.view == fs.V_PLAY and s.game.phase == fz.PH_ROLL and s.rolling
    r.press(NEXT)
    r.press(ui_rig.BACK)             # saved with the view: Continue shows the scores
    assert r.screen == "menu"
    m = r.app.screen
    assert m.items[m.cur] == "CONTINUE"
    r.press(OK)
    _pass(r)
    s = r.app.screen
    assert s.NAME == "frenzy" and s.view == fs.V_SCORES and s.t_cols[0] == "+150", s.view
    # Relay: the other seat's round is hidden until the summary; RED farkled on.
    r, s = _scores_after_red_rolls_on("cl_sc_rl", fz.RELAY)
    assert s.view == fs.V_FARKLE
    r.press(OK)
    _pass(r)
    r.press(PREV)
    assert s.view == fs.V_SCORES and s.game.player == 1
    assert s.t_cols[0] == "" and s.t_cols[1] == "+0", s.t_cols
    assert s.t_line2 == "RELAY HIDES THE ROUNDS"


def test_continue_says_what_is_saved():
    # CONTINUE did not say what is saved: the game, its round or leader, whose turn.
    from ui import menu
    r, s = _scores_after_red_rolls_on("cl_cont", fz.LOCKSTEP)
    r.press(BACK)
    m = r.app.screen
    assert r.screen == "menu" and m.items[m.cur] == "CONTINUE"
    assert m.cont == ("FRENZY, ROUND 1", "GREEN'S TURN"), m.cont
    f = r.frame()
    # Drawn inverted on the bar: its pixels are the dark ones.
    inv = bytes(x ^ 0xFF for x in f[:256]) + f[256:]
    assert _drawn(inv, "FRENZY, ROUND 1", (128 - gfx.width("FRENZY, ROUND 1")) // 2, 1)
    assert _drawn(inv, "GREEN'S TURN", (128 - gfx.width("GREEN'S TURN")) // 2, 9)
    r.press(NEXT)                    # elsewhere: the title
    assert m.items[m.cur] != "CONTINUE"
    # The offsets menu.saved() reads agree with the games' own bytes.
    from core import shakeup as su
    g = fz.Game(3, fz.RELAY, 300, None, 2)
    g.round = 7
    assert menu.saved(games.FRENZY, g.to_bytes()) == ("FRENZY, ROUND 7", "BLUE'S TURN")
    u = su.Game(3)
    assert menu.saved(games.SHAKEUP, u.to_bytes()) == ("SHAKE UP, ROLL-OFF", "RED'S TURN")
    while u.phase == su.ROLLOFF:
        u.apply(su.ROLL, [6] if u.player == 1 else [1])
    assert menu.saved(games.SHAKEUP, u.to_bytes()) == ("SHAKE UP, NO PAWN SAFE", "GREEN'S TURN")
    u._pawns[1 * 4 + 3] = 2  # GREEN: two pawns SAFE (as the save keeps them)
    u._pawns[1 * 4] -= 2
    assert u.count(1, 4) == 2
    assert menu.saved(games.SHAKEUP, u.to_bytes())[0] == "SHAKE UP, GREEN LEADS: 2 SAFE"
    u._pawns[0 * 4 + 3] = 2
    assert menu.saved(games.SHAKEUP, u.to_bytes())[0] == "SHAKE UP, TIED AT 2 SAFE"


def test_stats_say_by_seat_colour_and_reset_after_asking():
    from system import store
    from core import games as gm
    from ui.stats import Stats
    r = ui_rig.Rig("cl_stats")
    r.wait(1500)
    st = r.app.store.load_stats()
    store.record_game(st, gm.FRENZY, 1, 600, 10400)
    r.app.store.save_stats(st)
    s = Stats(r.app)
    r.app.show(s)
    r.step(2)
    inv = bytes(x ^ 0xFF for x in r.frame()[:128]) + r.frame()[128:]
    assert _drawn(inv, "STATS BY SEAT COLOUR", (128 - gfx.width("STATS BY SEAT COLOUR")) // 2, 2)
    r.press(PREV)                    # RESET (MENU, CPUS, RESET: the bar wraps)
    r.press(OK)
    assert s.ask and s.yes == 0      # asks, NO first
    r.press(OK)                      # NO: nothing lost
    assert not s.ask and store.stat(r.app.store.load_stats(), gm.ST_FF_GAMES) == 1
    r.press(OK)                      # still on RESET: asks again
    r.press(NEXT)
    r.press(OK)                      # YES
    assert not s.ask and s.lines[2] == "FRENZY: 0 GAMES", s.lines
    # Gone from the file too.
    r2 = ui_rig.Rig("cl_stats", fs=r.root)
    assert store.stat(r2.app.store.load_stats(), gm.ST_FF_GAMES) == 0


def test_rolloff_shake_again_hides_the_old_die_and_a_shake_goes_on():
    # In a roll-off tie the player asked to shake again still saw the old die; and a
    # shake on a roll-off result did nothing (only OK went on).
    from ui import shakeup_screen as ss
    r = _rig("cl_ro", _faces(3, 3, 6, 2))
    ui_rig.at_menu(r)
    ui_rig.setup_game(r, "SHAKE UP", 2)
    _pass(r)
    s = r.app.screen
    r.shake()                        # RED: 3
    assert s.view == ss.ROLLOFF and s.ack and s.game.rolloff[0] == 3
    r.wait(500)
    r.shake()                        # a shake on the result goes on, as OK does
    _pass(r)
    assert not s.ack and s.game.player == 1, (s.ack, s.game.player)
    r.wait(500)
    r.shake()                        # GREEN: 3, a tie
    assert s.ack and s.game.to_shake() == 3
    r.press(OK)
    _pass(r)
    assert not s.ack and s.game.player == 0
    # Both dice read "?" (to shake again), not the old 3s.
    import framebuf
    ref = bytearray(1024)
    fb = framebuf.FrameBuffer(ref, 128, 64, framebuf.MONO_VLSB)
    gfx.die(fb, (64 - 17) // 2, 20, 9)
    gfx.die(fb, 64 + (64 - 17) // 2, 20, 9)
    f = r.frame()
    for x in range(128):
        for y in range(20, 37):
            assert _lit(f, x, y) == _lit(ref, x, y), (x, y)


def test_howto_ok_jumps_to_the_next_game_and_pages_turn_both_ways():
    from ui import howto
    r = ui_rig.Rig("cl_howto")
    ui_rig.at_menu(r)
    m = r.app.screen
    while m.items[m.cur] != "HOW TO PLAY":
        r.press(NEXT)
    r.press(OK)
    h = r.app.screen
    assert h.NAME == "howto" and h.page == 0
    assert h.hint == "< > PAGE  OK: FARKLE FRENZY", h.hint
    assert _drawn(r.frame(), h.hint, 2, 58)
    r.press(OK)                      # straight to Frenzy's part
    assert howto.PAGES[h.page][0] == "FARKLE FRENZY"
    r.press(PREV)
    assert howto.PAGES[h.page][0] == "SHAKE UP: CLIMBING"
    r.press(NEXT)
    r.press(NEXT)
    assert howto.PAGES[h.page][0] == "FRENZY: SCORES"
    r.press(OK)                      # on to the CPU players' part, CONTROLS, then OK leaves
    assert howto.PAGES[h.page][0] == "CPU PLAYERS"
    r.press(OK)
    assert howto.PAGES[h.page][0] == "CONTROLS" and h.hint.endswith("OK: MENU")
    r.press(OK)
    assert r.screen == "menu"
    # Relay and Lockstep are explained; choices are final, and it says so.
    words = " ".join(" ".join(ls) for _, ls in howto.PAGES)
    assert "RELAY:" in words and "LOCKSTEP:" in words and "FINAL (NO" in words


def test_prompts_and_results_use_the_5x7_font_where_they_fit():
    # Almost everything was 3x5, tiny on a 0.96" panel: the line that says what
    # happened or what to do is 5x7 where the layout allows, the rest stays 3x5.
    from playtest_rig import _shakeup_to_dice
    r = _rig("cl_font", _faces(6, 1) + _faces(1, 2, 4, 6))
    s = _shakeup_to_dice(r)
    while s.cur != 5:
        r.press(NEXT)
    r.press(OK)                      # STOP: NONE, told on GREEN's board
    assert s.lines == ["RED NONE: NO PAWN LOST", "GREEN: SHAKE!"], s.lines
    f = r.frame()
    small = "RED NONE: NO PAWN LOST"  # what happened, 3x5; what to do now, 5x7
    assert _drawn(f, small, (128 - gfx.width(small)) // 2, 49)
    big = "GREEN: SHAKE!"
    assert _drawn(f, big, (128 - gfx.width(big, gfx.MEDIUM)) // 2, 56, gfx.MEDIUM)


def test_frenzy_tables_read_the_screens_offsets():
    # ui.frenzy_tables keeps copies of the screen's view codes and ui-byte offsets.
    from ui import frenzy_tables as ft
    for name in ("V_SUMMARY", "V_SCORES", "_SROUND", "_SFLAGS", "_SIN", "_SCUT", "_SFARK"):
        if hasattr(fs, name):  # (MicroPython keeps no _const names in a module)
            assert getattr(fs, name) == getattr(ft, name), name
    assert ft.V_SUMMARY == fs.V_SUMMARY and ft.V_SCORES == fs.V_SCORES
