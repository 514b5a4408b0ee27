# portable: runs under MicroPython too
"""Regressions of the playtest against the CPUs (issue 31): fairness on screen (Relay
hides a CPU's round from the humans after it, a CPU's pick shows no human's error
hint), the first game (EASY offered, the levels a choice in view), pacing (a CPU's
lines long enough to read, its winning move before the winner's screen), the panel's
power saving around a CPU's turn, solo Frenzy's score, the right margin of every
golden frame and the simulator's text line. Shake Up's presses are in
test_ui_presses. Driven through the App by buttons and shakes."""
import os

from system import store
import ui_rig
from core import frenzy as fz
from core import games
from cpu_pilot import Log, _start, play
from golden_frames import GOLDEN, compare
from shakeup_pilot import _su_at
from ui import frenzy_screen as fs
from ui import shakeup_screen as ss
from ui_rig import faces as _faces

OK = ui_rig.OK
NEXT = ui_rig.NEXT
PREV = ui_rig.PREV
BACK = ui_rig.BACK

# What the screens tell a human to do in Frenzy's TAKE (never shown for a CPU).
_HINTS = ("NOT ALL OF THESE SCORE", "ADD A ROLLED DIE TOO", "OK: PICK SCORING DICE",
          "TAKE: SET THEM ASIDE")


# ---- 1. Relay hides a CPU's round from the humans who play after it -----------------

def _watch(r, log, seen, until_round=2):
    """Play (test_ui_cpu.play) to the end of round 1's summary, noting per frame
    what shows while a CPU plays: seen["hidden"] frames of a hidden round, with its
    lines and overlays; seen["shown"] CPU lines in view."""
    def each(r):
        s = r.app.screen
        if s.NAME != "frenzy":
            return False
        g = s.game
        if s.view == fs.V_SUMMARY and g.round == until_round:
            return True
        cpu = r.app.cpus[g.player]
        if s.hid >= 0:
            seen.setdefault("hidden", []).append((r.t, g.player, r.app.notice, s.view,
                                                  r.app.tumbling))
        elif cpu and s.view == fs.V_PLAY and r.app.notice:
            seen.setdefault("shown", []).append(r.app.notice)
        return False
    play(r, log, until=each)


def test_relay_hides_a_cpus_round_played_before_a_humans():
    # RED, a CPU, rolls first; GREEN (human) plays after it: RED's round is not shown
    # (its dice, lines, Farkle, sounds), only that it plays; the summary tells it.
    r = _start("pt_relay", "FARKLE FRENZY", 2, (2, 0), seed=4, schedule=fz.RELAY)
    s = r.app.screen
    log = Log()
    seen = {}
    _watch(r, log, seen)
    hidden = seen.get("hidden", [])
    assert hidden, "RED's round was hidden"
    for t, seat, notice, view, tumbling in hidden:
        assert seat == 0 and view == fs.V_PLAY and not tumbling, (seat, view)
        # (the Common Die's roll, before: every player sees the Common Die)
        if notice not in (None, "ROLLS THE COMMON DIE"):
            for w in ("KEEPS", "ROLLS", "STOPS", "DECLARES"):
                assert not notice.startswith(w), notice
    shown = set(seen.get("shown", ()))
    assert shown == {"ROLLS THE COMMON DIE"}, shown  # RED's Common Die alone, in view
    # A moment to see it plays (READ_MS), then its decisions, no pause for show.
    assert hidden[-1][0] - hidden[0][0] >= 1200, (hidden[0][0], hidden[-1][0])
    assert s.view == fs.V_SUMMARY and s.ov[40] & 1  # RED played round 1 ...
    assert s.t_cols[0] != "-" and s.t_tot[0] == str(s.game.totals[0])  # ... told here


def test_a_hidden_round_shows_that_the_cpu_plays():
    r = _start("pt_relay_f", "FARKLE FRENZY", 2, (2, 0), seed=4, schedule=fz.RELAY)
    log = Log()
    play(r, log, until=lambda r: r.app.screen.NAME == "frenzy" and r.app.screen.hid >= 0)
    s = r.app.screen
    r.step()
    assert s.hid == 0
    compare("fz_cpu_hidden", r.frame())


def test_lockstep_and_a_cpu_after_the_humans_stay_watchable():
    # Lockstep shows everyone everything; in Relay a CPU after every human hides
    # nothing from anyone: both play in view, with their lines.
    for schedule, seats in ((fz.LOCKSTEP, (2, 0)), (fz.RELAY, (0, 2))):
        r = _start("pt_watch%d" % schedule, "FARKLE FRENZY", 2, seats, seed=4,
                   schedule=schedule)
        log = Log()
        seen = {}
        _watch(r, log, seen)
        assert not seen.get("hidden"), schedule
        text = " | ".join(seen.get("shown", ()))
        assert "ROLLS" in text and ("KEEPS" in text or "STOPS" in text), text[:200]


# ---- 2. A Frenzy CPU's partial pick shows no human's error hint ---------------------

def test_a_cpus_pick_part_way_shows_no_error_hint():
    r = _start("pt_pick", "FARKLE FRENZY", 2, (0, 2), seed=6, schedule=fz.LOCKSTEP)
    log = Log()
    got = {"part": 0, "bad": []}

    def each(r):
        s = r.app.screen
        if s.NAME == "frenzy" and s.view == fs.V_PLAY and r.app.cpus[s.game.player] \
                and s.game.phase == fz.PH_TAKE:
            if s.mask and not s.ok_take[s.mask]:
                got["part"] += 1  # a pick that does not score yet
            if s.t_info in _HINTS:
                got["bad"].append(s.t_info)
        return got["part"] >= 3 and s.NAME == "frenzy" and not r.app.cpus[s.game.player]
    play(r, log, until=each)
    assert got["part"] >= 3 and not got["bad"], got
    # And the frame of such a pick: the CPU picks, no hint, TAKE not struck out.
    s = r.app.screen
    g = s.game
    g.player = 1
    g.phase = fz.PH_TAKE
    s.mask = 0
    s._sync()
    for m in range(1, 64):
        if m & ~s.scoring == 0 and not s.ok_take[m]:
            s.mask = m
            break
    s._texts()
    assert s.mask and s.t_info == "GREEN PICKS ITS DICE" and s.t_pts == "", s.t_info


# ---- 3. The first game offers EASY; the levels are a choice in view -----------------

def _su_setup(name):
    """A fresh device (its first game), on Shake Up's setup: the rig, the screen."""
    r = ui_rig.Rig(name)
    ui_rig.at_menu(r)
    ui_rig.to_item(r, "SHAKE UP")
    r.press(OK)
    return r, r.app.screen


def test_first_game_offers_easy_and_the_levels_are_a_choice_in_view():
    r, s = _su_setup("pt_easy")
    assert s.NAME == "setup" and bytes(s.seats[:2]) == b"\x00\x01", bytes(s.seats)
    while s.cur != 2:                  # GREEN's row
        r.press(NEXT)
    r.press(OK)                        # its choices, all in view
    assert s.pick == 1 and s.pcur == 1
    compare("setup_pick", r.frame())
    r.press(NEXT)                      # NORMAL: one press from EASY
    ui_rig.assert_full_frame(r)        # (the two rows alone redrawn: the same pixels)
    r.press(PREV)
    r.press(PREV)
    ui_rig.assert_full_frame(r)
    r.press(NEXT)
    r.press(NEXT)
    assert s.pcur == 2
    r.press(OK)
    assert s.pick < 0 and s.seats[1] == 2
    r.press(OK)
    r.press(BACK)                      # BACK closes the choices, the seat as it was
    assert s.pick < 0 and s.seats[1] == 2 and r.screen == "setup"
    while s.cur != s.start_row():
        r.press(NEXT)
    r.press(OK)
    assert r.screen == "shakeup" and bytes(r.app.cpus[:2]) == b"\x00\x02"
    r.press(BACK)
    # The last choice is kept.
    ui_rig.to_item(r, "SHAKE UP")
    r.press(OK)
    if r.screen == "menu":             # (replace the saved game: YES)
        r.press(NEXT)
        r.press(OK)
    s = r.app.screen
    assert s.NAME == "setup" and bytes(s.seats[:2]) == b"\x00\x02"


# ---- 5. A CPU's lines stay long enough; its winning move shows first ----------------

def test_each_cpu_line_stays_long_enough_to_read():
    from ui.cpu_turn import READ_CHAR_MS, READ_MS
    r = _start("pt_lines", "SHAKE UP", 2, (0, 2), seed=9)
    log = Log()
    shown = []  # [line, from, until]

    def each(r):
        app = r.app
        if app.notice is not None and (not shown or shown[-1][1] != app._notice_t):
            if shown and shown[-1][2] is None:
                shown[-1][2] = r.t
            shown.append([app.notice, app._notice_t, None])
        elif app.notice is None and shown and shown[-1][2] is None:
            shown[-1][2] = r.t
        return len(shown) > 30
    play(r, log, until=each)
    lines = [x for x in shown[:-1] if x[2] is not None]
    assert len(lines) >= 20
    for line, t0, t1 in lines:
        need = max(1500, READ_MS + READ_CHAR_MS * len(line))
        assert t1 - t0 >= need - 40, (line, t1 - t0)  # (a frame's rounding)


def _cpu_wins(name):
    # GREEN, a CPU, has 4 pawns SAFE and its fifth on level 3; RED stops with a PAIR,
    # GREEN shakes a BIG: one level can move, the move is made at its STOP, and wins.
    r, s = _su_at(name, (5, 0, 0, 0), (0, 0, 1, 4), _faces(1, 1, 2, 4, 3, 3, 3, 3),
                  b"\0\2")
    r.press(OK)
    r.wait(600)
    r.press(PREV)
    r.press(OK)                        # RED: STOP, a PAIR
    assert s.game.player == 1 and s.lines[0] == "RED PAIR: NO MOVE", s.lines
    for _ in range(600):
        if s.game.phase == 5:
            break
        r.step()
    assert s.game.phase == 5 and r.screen == "shakeup"
    return r, s


def test_a_cpus_winning_move_shows_before_its_winner_screen():
    r, s = _cpu_wins("pt_win")
    t0 = r.t
    assert s.view == ss.RESULT and "GREEN PAWN IS SAFE!" in s.lines, (s.view, s.lines)
    compare("su_cpu_won", r.frame())
    while r.screen == "shakeup" and r.t - t0 < 5000:
        r.step()
    assert r.screen == "win" and r.app.screen.seat == 1
    assert r.t - t0 >= 1500, r.t - t0
    # OK hurries it.
    r, s = _cpu_wins("pt_win_ok")
    r.step()
    r.press(OK)
    assert r.screen == "win"


# ---- 6. Power saving around a CPU's turn; a key on a dark panel ---------------------

def test_the_dim_timer_counts_from_the_humans_turn():
    r = _start("pt_dim", "SHAKE UP", 2, (0, 2), seed=9)
    app = r.app
    app.settings[store.S_DIM] = 1  # 10 s
    app.apply_settings()
    log = Log()
    got = {}

    def each(r):
        s = r.app.screen
        if s.NAME != "shakeup":
            return False
        if "cpu" not in got:
            if r.app.cpus[s.game.player] and s.view == ss.BOARD:
                got["cpu"] = r.t  # the CPU's turn begins
            return False
        # The human's turn begins: its board, the CPU done.
        return not r.app.cpus[s.game.player] and s.view == ss.BOARD
    play(r, log, until=each)
    t_h = r.t
    assert t_h - got["cpu"] > 3000  # a CPU's turn of some length, no key pressed
    assert app.level == 0, "awake when the human's turn begins"
    while app.level == 0 and r.t - t_h < 20000:
        r.step()
    assert app.level == 1 and 9900 <= r.t - t_h <= 10200, r.t - t_h


def _dark(r):
    r.wait(61000)
    assert r.app.level == 2  # OFF


def test_a_key_on_a_dark_panel_acts_where_it_is_safe():
    r, s = _su_at("pt_dark", (5, 0, 0, 0), (5, 0, 0, 0), _faces(1, 2, 4, 6))
    app = r.app
    app.settings[store.S_DIM] = 1
    app.settings[store.S_OFF] = 1
    app.apply_settings()
    _dark(r)
    r.press(OK)                        # the board: OK only wakes it
    r.wait(600)
    assert app.level == 0 and s.view == ss.BOARD
    _dark(r)
    r.wait(500)
    r.shake()                          # a shake rolls (it is time to roll)
    assert app.level == 0 and s.view == ss.DICE and s.game.shakes == 1, s.view
    _dark(r)
    r.press(NEXT)                      # a cursor move acts
    assert app.level == 0 and s.cur == 1
    _dark(r)
    r.press(OK)                        # a decision blind does not: it only wakes
    assert app.level == 0 and s.pending == 0 and s.view == ss.DICE
    _dark(r)
    r.press(BACK)
    assert r.screen == "shakeup"
    r.press(OK)                        # awake: acts
    assert s.pending == 2
    # How to play says what a key on a dark screen does.
    from ui import howto
    pages = dict(howto.PAGES)
    text = " ".join(pages["CONTROLS: DARK SCREEN"])
    for want in ("DIM SCREEN ACTS", "< > ACT", "SHAKE ROLLS", "OK AND BACK ONLY"):
        assert want in text, want


def test_the_waking_key_never_chooses_rematch():
    r, s = _cpu_wins("pt_wake_win")
    app = r.app
    r.step()
    r.press(OK)
    assert r.screen == "win"
    w = app.screen
    app.settings[store.S_DIM] = 1
    app.apply_settings()
    r.wait(10500)
    assert app.level == 1              # dimmed on the winner's screen, REMATCH first
    r.press(OK)                        # wakes it: chooses nothing
    assert app.screen is w and app.level == 0
    r.wait(700)
    r.press(NEXT)
    r.press(OK)                        # MENU, awake
    assert r.screen == "menu"


# ---- 7. Solo Frenzy: the rounds it took --------------------------------------------

def test_solo_frenzy_scores_its_rounds_and_skips_the_summary():
    from frenzy_pilot import Pilot, start_game
    r = ui_rig.scripted("pt_solo", bytes((0,)) + _faces(1, 1, 1, 5, 5))
    start_game(r, 1, fz.RELAY)
    s = r.app.screen
    r.press(OK)
    r.wait(600)                        # the Common Die: 1
    r.press(OK)
    r.wait(600)                        # 1 1 1 5 5
    r.press(OK)                        # TAKE the best
    assert ui_rig.to_item(r, fs.IT_STOP)
    r.press(OK)
    # No summary: the next round at once, a line tells this one.
    assert s.view == fs.V_PLAY and s.game.round == 2 and s.game.phase == fz.PH_COMMON
    assert r.app.notice == "ROUND 1: +1500, TOTAL 1500", r.app.notice
    p = Pilot(r, 7)
    p.shadow = fz.Game.from_bytes(s.game.to_bytes())
    p.play()
    assert s.view == fs.V_WINNER and p.seen.get("summary", 0) == 0
    rounds = s.game.round
    assert s.t_line1 == "10,000 IN %d ROUNDS" % rounds, s.t_line1
    r.step()
    compare("fz_solo_winner", r.frame())
    st = r.app.store.load_stats()
    assert store.stat(st, games.ST_FF_SOLO) == rounds
    # The stats keep the fewest: a longer game leaves it.
    store.record_game(st, games.FRENZY, 0, 0, 10000, None, rounds + 5)
    assert store.stat(st, games.ST_FF_SOLO) == rounds
    store.record_game(st, games.FRENZY, 0, 0, 10000, None, rounds - 1)
    assert store.stat(st, games.ST_FF_SOLO) == rounds - 1
    r.wait(700)
    r.press(NEXT)
    r.press(OK)                        # MENU
    ui_rig.to_item(r, "STATS")
    r.press(OK)
    assert "SOLO BEST: %d ROUNDS" % rounds in r.app.screen.lines, r.app.screen.lines


def test_a_stats_file_from_before_the_solo_record_loads():
    from cpu_pilot import old_stats
    st, ba = old_stats("pt_oldstats", 112, games.ST_FF_GAMES, 3)
    assert store.stat(ba, games.ST_FF_SOLO) == 0


# ---- 8. A margin of 1 px at the right edge on every golden frame ---------------------

def _lit(f, x, y):
    return f[(y >> 3) * 128 + x] >> (y & 7) & 1


def test_every_golden_frame_keeps_a_right_margin():
    # Column 127 stays dark for every drawing (text, boxes, the riser, the scroll bar),
    # but where a bar or a frame spans the whole panel: lit at column 0 too.
    names = [n for n in os.listdir(GOLDEN) if n.endswith(".bin")]
    assert len(names) >= 30
    bad = ["%s: row %d" % (n, y) for n in sorted(names) for f in [_golden(n)]
           for y in range(64) if _lit(f, 127, y) and not _lit(f, 0, y)]
    assert not bad, bad


def _golden(name):
    with open(GOLDEN + name, "rb") as fh:
        return fh.read()


# ---- 9. The simulator's text line follows every screen -----------------------------

def test_the_simulators_text_line_follows_the_screens():
    import simrun
    r, s = _su_setup("pt_prompt")
    p = simrun._prompt(s)
    assert p == "SHAKE UP / > START", p
    r.press(NEXT)                      # PLAYERS
    assert simrun._prompt(s) == "SHAKE UP / > PLAYERS: 2"
    r.press(NEXT)
    r.press(NEXT)                      # GREEN
    assert simrun._prompt(s) == "SHAKE UP / > GREEN: CPU EASY"
    r.press(OK)
    assert simrun._prompt(s) == "GREEN PLAYS AS / > CPU EASY (FIRST GAMES) / OK: CHOOSE"
    r.press(PREV)
    r.press(OK)                        # GREEN: HUMAN
    assert simrun._prompt(s) == "SHAKE UP / > GREEN: HUMAN"
    while s.cur != s.start_row():
        r.press(NEXT)
    r.press(OK)
    for _ in range(10):                # the roll-off: RED, then the pass to GREEN
        if r.screen == "pass":
            break
        r.press(OK)
        r.wait(600)
    assert r.screen == "pass"
    p = simrun._prompt(r.app.screen)
    assert p.endswith("PASS TO GREEN / OK WHEN READY"), p
    r.press(BACK)
    m = r.app.screen
    ui_rig.to_item(r, "FARKLE FRENZY")
    r.press(OK)
    assert m.ask is not None
    assert simrun._prompt(m) == "FARKLE FRENZY / REPLACE SAVED GAME? / > NO"
    r.press(NEXT)
    assert simrun._prompt(m).endswith("> YES")
    r.press(BACK)
    ui_rig.to_item(r, "STATS")
    r.press(OK)
    st = r.app.screen
    assert simrun._prompt(st).startswith("STATS / SHAKE UP: 0 GAMES")
    r.press(NEXT)
    r.press(OK)                        # CPUS
    p = simrun._prompt(st)
    assert p.startswith("AGAINST CPUS / SHAKE UP / EASY: WON 0 OF 0") and \
        p.endswith("> PLAYERS"), p
