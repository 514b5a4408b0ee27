# portable: runs under MicroPython too
"""CPU players through the App: the setup, whole games with CPU seats in both games
(and both Frenzy schedules), the pass screens, saves and Continue in the middle of a
CPU's turn, the stats against CPUs, a 3-button board, and golden frames of CPU turns.

The humans' side is played by a simple pilot through the buttons; the CPUs play by
themselves (ui.cpu_turn), the frames running on the rig's virtual clock."""
import ui_rig
from core import games
from golden_frames import compare
from ui import frenzy_screen as fs
from ui import shakeup_screen as ss

from system import store
from cpu_pilot import Log, _cpu_acts, _start, old_stats, play

OK = ui_rig.OK
NEXT = ui_rig.NEXT
PREV = ui_rig.PREV
BACK = ui_rig.BACK


def _cpu_stat(st, kind, level, won=0):
    return store.stat(st, store.ST_CPU + (kind - 1) * 6 + (level - 1) * 2 + won)


def test_shakeup_against_cpus_to_the_end():
    r = _start("cpu_su", "SHAKE UP", 3, (0, 2, 3))
    assert r.screen == "shakeup" and bytes(r.app.cpus) == b"\x00\x02\x03\x00"
    log = Log()
    play(r, log)
    assert log.winner >= 0
    assert not log.passes, "one human: no pass screen at all"
    text = " | ".join(log.lines)
    for want in ("KEEPS ", "ROLLS ", "MOVES UP FROM LEVEL "):
        assert want in text, (want, text[:400])
    # Counted against the strongest CPU (HARD), apart from the all-human counters.
    st = r.app.store.load_stats()
    assert _cpu_stat(st, games.SHAKEUP, 3) == 1
    assert _cpu_stat(st, games.SHAKEUP, 3, 1) == (1 if log.winner == 0 else 0)
    assert store.stat(st, games.ST_SU_GAMES) == 0
    assert not r.app.store.has_game()


def _frenzy(schedule, name, seats, seed):
    r = _start(name, "FARKLE FRENZY", len(seats), seats, seed=seed, schedule=schedule)
    assert r.app.screen.game.schedule == schedule
    log = Log()
    play(r, log)
    assert log.winner >= 0
    text = " | ".join(log.lines)
    for want in ("KEEPS ", "ROLLS ", "STOPS WITH "):
        assert want in text, (want, text[:400])
    st = r.app.store.load_stats()
    lv = max(seats)
    assert _cpu_stat(st, games.FRENZY, lv) == 1
    assert _cpu_stat(st, games.FRENZY, lv, 1) == (0 if seats[log.winner] else 1)
    assert store.stat(st, games.ST_FF_GAMES) == 0
    return log


def test_frenzy_relay_against_cpus_to_the_end():
    log = _frenzy(0, "cpu_fz_relay", (0, 1, 3), 4)
    assert not log.passes


def test_frenzy_lockstep_against_a_hard_cpu_to_the_end():
    log = _frenzy(1, "cpu_fz_lock", (2, 0), 6)
    assert not log.passes


def test_pass_screens_only_between_humans():
    # RED and BLUE human, GREEN a CPU: a pass screen before each human's turn when
    # the other human held the device, none before GREEN.
    r = _start("cpu_pass", "SHAKE UP", 3, (0, 1, 0), seed=8)
    log = Log()
    play(r, log, until=lambda r: len(log.passes) >= 6)
    assert len(log.passes) >= 6
    for seat, before in log.passes:
        assert seat in (0, 2) and before in (0, 2) and before != seat, log.passes


def test_setup_first_time_then_the_last_one_again():
    r = ui_rig.Rig("cpu_setup")
    ui_rig.at_menu(r)
    ui_rig.to_item(r, "SHAKE UP")
    r.press(OK)
    s = r.app.screen
    # The first time: you against one EASY CPU, the cursor on START.
    assert s.NAME == "setup" and s.n == 2 and bytes(s.seats[:2]) == b"\x00\x01"
    assert s.cur == s.start_row()
    compare("setup_su", r.frame())
    r.press(BACK)
    # Frenzy: 3 players, its schedule changed on the setup screen, then started.
    ui_rig.setup_game(r, "FARKLE FRENZY", 3, (1, 0, 3), press=False)
    s = r.app.screen
    was = r.app.settings[store.S_SCHEDULE]
    while s.cur != s.mode_row():
        r.press(NEXT)
    r.press(OK)
    assert r.app.settings[store.S_SCHEDULE] == was ^ 1
    compare("setup_fz", r.frame())
    while s.cur != s.start_row():
        r.press(NEXT)
    r.press(OK)
    assert r.screen == "frenzy" and r.app.screen.game.schedule == was ^ 1
    assert bytes(r.app.cpus) == b"\x01\x00\x03\x00"
    r.press(BACK)
    # A new App on the same files: the last setup is offered again.
    r2 = ui_rig.Rig("cpu_setup", fs=r.root)
    ui_rig.at_menu(r2)
    s = _open_setup(r2, "FARKLE FRENZY")
    assert s.NAME == "setup" and s.n == 3 and bytes(s.seats[:3]) == b"\x01\x00\x03"
    r2.press(OK)
    assert r2.screen == "frenzy" and bytes(r2.app.cpus) == b"\x01\x00\x03\x00"


def _open_setup(r, item):
    # From the menu, the game's setup (past "replace saved game?": YES).
    ui_rig.to_item(r, item)
    r.press(OK)
    if r.screen == "menu":
        r.press(NEXT)
        r.press(OK)
    return r.app.screen


def test_setup_keeps_one_human():
    r = ui_rig.Rig("cpu_human")
    ui_rig.at_menu(r)
    ui_rig.setup_game(r, "FARKLE FRENZY", 1, (0,), press=False)
    s = r.app.screen
    while s.cur != 1:
        r.press(NEXT)
    r.press(OK)  # RED's choices
    for _ in range(3):  # EASY, NORMAL, HARD: each refused
        r.press(NEXT)
        r.press(OK)
        assert s.seats[0] == 0, "the only seat stays human"
        assert s.pick == 0, "its choices stay open"
    assert r.app.notice == "ONE PLAYER MUST BE HUMAN"


def test_old_settings_file_loads_with_the_first_setup():
    root = ui_rig.tmpdir("cpu_oldset")
    old = bytes((0, 99, 1, 0, 1, 4, 0, 3, 2, 10, 0, 0))  # 12 bytes: before the setups
    with open(root + "/" + store.SETTINGS, "wb") as f:
        f.write(store.pack(0x53, old))
    st = store.Store(root)
    s = st.load_settings()
    assert st.problem is None and bytes(s[:12]) == old
    assert s[store.S_SETUP:store.S_SETUP + 4] == store.SETTINGS_DEFAULT[12:16]


def test_old_stats_file_loads_and_counts_cpu_games_apart():
    st, ba = old_stats("cpu_oldstats", 64, games.ST_SU_GAMES, 7)
    root = st.root
    st.finish_game(games.SHAKEUP, 1, cpus=b"\x00\x01\x02")  # GREEN, an EASY CPU, won
    st.finish_game(games.SHAKEUP, 0, cpus=b"\x00\x01\x02")
    ba = store.Store(root).load_stats()
    assert store.stat(ba, games.ST_SU_GAMES) == 7 and store.stat(ba, games.ST_SU_WINS) == 0
    assert _cpu_stat(ba, games.SHAKEUP, 2) == 2 and _cpu_stat(ba, games.SHAKEUP, 2, 1) == 1


def _to_cpu_dice(r, log):
    """Play until a CPU sets its dice aside in Shake Up (a die picked, not shaken)."""
    def mid(r):
        s = r.app.screen
        return (s.NAME == "shakeup" and s.view == ss.DICE and r.app.cpus[s.game.player]
                and s.pending != s.game.held and not r.app.tumbling)
    play(r, log, until=mid)


def test_continue_in_the_middle_of_a_cpu_turn():
    # Two games from the same seed: one left (BACK) while the CPU sets dice aside and
    # continued, one played straight on: the CPU's turn ends the same way.
    logs = []
    ends = []
    for leave in (False, True):
        r = _start("cpu_cont%d" % leave, "SHAKE UP", 2, (0, 2), seed=11)
        log = Log()
        _to_cpu_dice(r, log)
        if leave:
            r.press(BACK)
            assert r.screen == "menu"
            kind, blob, ui = r.app.store.load_game()
            assert ui[0] & 0x80 and ui[1] == 0x08, ui[:2]  # GREEN: NORMAL
            r.app.cpus[:] = bytes(4)  # Continue restores them from the save
            r.app.screen.enter()
            ui_rig.to_item(r, "CONTINUE")
            r.press(OK)
            assert r.screen == "shakeup" and bytes(r.app.cpus) == b"\x00\x02\x00\x00"
        seat = r.app.screen.game.player
        # On by itself (no key) until the human's turn.
        for _ in range(3000):
            s = r.app.screen
            if s.NAME == "shakeup" and s.game.player != seat and not s.ack:
                break
            r.step()
        s = r.app.screen
        assert s.NAME == "shakeup" and s.game.player != seat, "the CPU's turn resumed"
        ends.append(s.game.to_bytes())
        logs.append(log)
    assert ends[0] == ends[1]


def test_frenzy_cpu_saves_its_seats_and_continues():
    r = _start("cpu_fzcont", "FARKLE FRENZY", 2, (3, 0), seed=5)
    log = Log()

    def cpu_picking(r):
        s = r.app.screen
        return (s.NAME == "frenzy" and s.view == fs.V_PLAY and r.app.cpus[s.game.player]
                and s.game.phase == 3 and s.mask)
    play(r, log, until=cpu_picking)
    g0 = r.app.screen.game.to_bytes()
    r.press(BACK)
    kind, blob, ui = r.app.store.load_game()
    assert kind == games.FRENZY and blob == g0 and ui[0] & 0x80 and ui[1] == 0x03
    ui_rig.to_item(r, "CONTINUE")
    r.press(OK)
    assert r.screen == "frenzy" and bytes(r.app.cpus) == b"\x03\x00\x00\x00"
    play(r, log)
    assert log.winner >= 0


def _no_data(name):
    return None  # core.data.open_data as without the data/ folder


def _hide_data():
    # core.data as loaded now (the app forgets it with a game's modules: hidden again
    # after each return to the menu) finds no data file.
    import sys
    import core.data  # noqa: F401
    sys.modules["core.data"].open_data = _no_data


def test_hard_without_its_table_plays_as_normal_and_is_not_offered():
    # The same game from the same seed twice, GREEN's seat saved as NORMAL, then as
    # HARD and continued without HARD's table: it says so once, then plays NORMAL's
    # game, line for line, to the same end. Then its setup offers EASY and NORMAL only,
    # and a last setup with HARD comes back as NORMAL.
    from app import forget
    runs = []
    try:
        for hard in (False, True):
            r = _start("cpu_nohard%d" % hard, "SHAKE UP", 2, (0, 3 if hard else 2), seed=11)
            r.press(BACK)  # saved at the roll-off, GREEN a CPU
            assert r.screen == "menu" and r.app.store.has_game()
            if hard:
                _hide_data()  # the table is gone
            ui_rig.to_item(r, "CONTINUE")
            r.press(OK)
            if hard:
                _hide_data()  # (a game's start forgets the menu's screens' core.data)
            assert r.screen == "shakeup" and bytes(r.app.cpus) == (
                b"\x00\x03\x00\x00" if hard else b"\x00\x02\x00\x00")
            g = r.app.screen.game
            log = Log()
            play(r, log)
            runs.append((log.winner, g.to_bytes(), log.lines))
        (w0, g0, lines0), (w1, g1, lines1) = runs
        told = [ln for ln in lines1 if ln == "GREEN PLAYS AS NORMAL"]
        assert len(told) == 1 and not [ln for ln in lines0 if "PLAYS AS" in ln]
        assert [ln for ln in lines1 if ln not in told] == lines0, (lines0[:8], lines1[:8])
        assert w0 == w1 and g0 == g1 and "KEEPS " in " | ".join(lines0)
        # The setup, still without the table.
        r.press(OK)
        r.wait(600)
        if r.screen != "menu":
            r.press(BACK)
        r.app.settings[store.S_SETUP + 1] = 0x03 << 2  # last time: RED HUMAN, GREEN HARD
        ui_rig.at_menu(r)
        _hide_data()
        s = _open_setup(r, "SHAKE UP")
        assert s.NAME == "setup" and bytes(s.seats[:2]) == b"\x00\x02", bytes(s.seats)
        while s.cur != 2:  # GREEN's row
            r.press(NEXT)
        r.press(OK)  # its choices: HUMAN, EASY, NORMAL (no HARD)
        assert s.pick == 1 and s.pcur == 2
        seen = []
        for _ in range(6):
            r.press(NEXT)
            seen.append(s.pcur)
        assert seen == [0, 1, 2, 0, 1, 2], seen
    finally:
        forget(("core.data",))  # loaded again as it is
    # With the table HARD is offered again (the choices opened again).
    r.press(BACK)
    r.press(OK)
    assert s.offer == 4 and s.pcur == 2
    r.press(NEXT)
    r.press(OK)
    assert s.seats[1] == 3 and s.pick < 0


def test_ok_fast_forwards_a_cpu_turn():
    # The CPU's first turn (from its BOARD view to the human's): pressing OK through it
    # takes far fewer frames than watching it, and ends the same way.
    frames = []
    ends = []
    for fast in (False, True):
        r = _start("cpu_fast%d" % fast, "SHAKE UP", 2, (2, 0), seed=2)
        app = r.app
        log = Log()
        play(r, log, until=lambda r: r.app.screen.NAME == "shakeup" and r.app.screen.view
             == ss.BOARD and r.app.cpus[r.app.screen.game.player])
        n = 0
        while n < 4000:
            s = app.screen
            if s.view == ss.BOARD and not app.cpus[s.game.player]:
                break
            if app.tumbling:  # as long either way
                r.step()
            elif fast and _cpu_acts(s):
                r.press(OK, 0)
                n += 1
            else:
                r.step()
                n += 1
        frames.append(n)
        ends.append(s.game.to_bytes())
    assert frames[1] * 2 < frames[0], frames
    assert ends[0] == ends[1]


class _Clock:
    """A clock for CpuTurn: every reading 5 ms later, as if each step took 5 ms."""

    def __init__(self, ms=0, period=0):
        self.ms = ms
        self.period = period  # a clock that wraps there (as ticks_ms does), if not 0

    def __call__(self):
        self.ms += 5
        if self.period:
            self.ms %= self.period
        return self.ms

    def diff(self, a, b):
        # As time.ticks_diff: the signed distance, also across the wrap.
        if not self.period:
            return a - b
        h = self.period // 2
        return (a - b + h) % self.period - h


def _decision(steps):
    for _ in range(steps):
        yield None
    yield 0x123


def test_thinking_takes_its_share_of_each_frame():
    # _work() steps while less than 12 ms of the frame is used: three 5 ms steps a
    # frame; one in a frame that redraws; the value, or _END when the steps run out.
    # The same across the clock's wrap (ticks_ms counts modulo 2 ** 30): the share is
    # measured with the app's ticks_diff, not by subtraction.
    from ui.cpu_turn import CpuTurn
    app = ui_rig.Rig("cpu_share").app
    for clock in (_Clock(), _Clock(2 ** 30 - 7, 2 ** 30)):
        c = CpuTurn(app, clock, clock.diff)
        for dirty, steps, frames in ((False, 10, 4), (False, 2, 1), (True, 10, 11)):
            it = _decision(steps)
            got = []
            while not got or got[-1] is None:
                got.append(c._work(it, dirty))
            assert got == [None] * (frames - 1) + [0x123], (dirty, steps, got)
        assert c._work(iter(()), False) == -1


def test_a_cpu_shows_its_dice_before_it_picks():
    # However soon it has decided (here in the frame the dice land), the first die it
    # sets aside shows no sooner than 700 ms after; OK skips the wait.
    waits = []
    for fast in (False, True):
        r = _start("cpu_look%d" % fast, "SHAKE UP", 2, (0, 2), seed=21)
        log = Log()

        def landed(r):
            s = r.app.screen
            return (s.NAME == "shakeup" and s.view == ss.DICE and r.app.cpus[s.game.player]
                    and not r.app.tumbling and s.game.shakes == 1)
        play(r, log, until=landed)
        s = r.app.screen
        t0 = r.t
        while s.pending == s.game.held and s.cur != 5 and r.t - t0 < 5000:
            if fast:
                r.press(OK)
            else:
                r.step()
        waits.append(r.t - t0)
    assert waits[0] >= 700 and waits[0] < 1000, waits
    assert waits[1] < 400, waits  # two presses: 330 ms


def test_golden_cpu_turns():
    r = _start("cpu_gold", "SHAKE UP", 2, (0, 2), seed=21)
    log = Log()
    shots = {}

    def keeps(r):
        s = r.app.screen
        if s.NAME != "shakeup" or not r.app.cpus[s.game.player] or r.app.tumbling:
            return False
        n = r.app.notice or ""
        if s.view == ss.DICE and n.startswith("KEEPS") and "keeps" not in shots:
            shots["keeps"] = r.frame()
        if s.view == ss.MOVE and n.startswith("MOVES UP") and "move" not in shots:
            shots["move"] = r.frame()
        return len(shots) == 2
    play(r, log, until=keeps)
    compare("cpu_su_keeps", shots["keeps"])
    compare("cpu_su_move", shots["move"])
    r = _start("cpu_gold_fz", "FARKLE FRENZY", 2, (0, 3), seed=21)

    def take(r):
        s = r.app.screen
        return (s.NAME == "frenzy" and s.view == fs.V_PLAY and r.app.cpus[s.game.player]
                and (r.app.notice or "").startswith("KEEPS"))
    play(r, log, until=take)
    r.step()
    compare("cpu_fz_keeps", r.frame())


def test_three_button_board_sets_up_and_leaves_a_cpu_turn():
    if not ui_rig.have_sim():
        return
    r = ui_rig.Rig("cpu_3b", seed=4, board="lolin32_oled")
    assert r.app.dev.buttons.three
    ui_rig.at_menu(r)
    ui_rig.setup_game(r, "SHAKE UP", 2, (1, 0))  # NEXT and OK only
    assert r.screen == "shakeup" and bytes(r.app.cpus[:2]) == b"\x01\x00"
    r.step(10)
    s = r.app.screen
    assert r.app.cpus[s.game.player] and s.view == ss.ROLLOFF
    r.long_ok()  # BACK on this board, in the middle of the CPU's turn
    assert r.screen == "menu" and r.app.store.has_game()


def test_a_plain_move_hands_over_with_one_press():
    # Two humans; RED starts (roll-off 6 against 1) and shakes three 1s: a MOVE, and
    # with every pawn on level 1 only one level can move. After STOP the move is made
    # and told on the pass screen: one press (was: result, move, notice, pass: four).
    r = ui_rig.scripted("cpu_handover", ui_rig.faces(6, 1, 1, 1, 1, 2))
    ui_rig.at_menu(r)
    ui_rig.setup_game(r, "SHAKE UP", 2, (0, 0))
    for _ in range(20):  # the roll-off, by OK presses
        s = r.app.screen
        if s.NAME == "shakeup" and s.view == ss.BOARD:
            break
        r.press(OK)
        r.wait(600)
    s = r.app.screen
    assert s.view == ss.BOARD and s.game.player == 0 and r.app.holder == 0
    r.press(OK)
    r.wait(600)
    assert s.view == ss.DICE and sorted(s.game.dice) == [1, 1, 1, 2]
    while s.cur != 5:
        r.press(NEXT)
    r.press(OK)  # STOP: the turn's last decision
    p = r.app.screen
    assert p.NAME == "pass" and p.seat == 1, p.NAME
    assert p.note and p.note[0] == "RED: MOVE" and "RED UP FROM LEVEL 1" in p.note, p.note
    assert s.game.count(0, 2) == 1  # the move is made
    compare("su_pass_note", r.frame())
    r.press(OK)  # the one press
    assert r.app.screen is s and s.view == ss.BOARD and s.game.player == 1
    assert r.app.holder == 1


def test_stats_and_how_to_play_tell_of_the_cpus():
    r = ui_rig.Rig("cpu_stats")
    r.wait(1500)
    st = r.app.store.load_stats()
    store.record_game(st, games.FRENZY, 0, cpus=b"\x00\x02")  # a human beat NORMAL
    store.record_game(st, games.FRENZY, 1, cpus=b"\x00\x02")
    store.record_game(st, games.SHAKEUP, 2, cpus=b"\x01\x00\x03")
    r.app.store.save_stats(st)
    ui_rig.to_item(r, "STATS")
    r.press(OK)
    s = r.app.screen
    assert s.NAME == "stats" and s.lines[2] == "FRENZY: 0 GAMES", s.lines
    assert s.cpu_lines == ["SHAKE UP", "EASY: WON 0 OF 0", "NORMAL: WON 0 OF 0",
                           "HARD: WON 0 OF 1", "FRENZY", "EASY: WON 0 OF 0",
                           "NORMAL: WON 1 OF 2", "HARD: WON 0 OF 0"], s.cpu_lines
    r.press(NEXT)  # CPUS
    r.press(OK)
    assert s.page == 1
    compare("stats_cpu", r.frame())
    r.press(OK)  # LINK: the linked games' page, then PLAYERS again
    assert s.page == 2 and s.link_lines == ("FRENZY: 0 GAMES", "THIS HANDHELD WON 0")
    compare("stats_link", r.frame())
    r.press(OK)
    assert s.page == 0
    r.press(PREV)  # MENU
    r.press(OK)
    assert r.screen == "menu"
    from ui import howto
    titles = [p[0] for p in howto.PAGES]
    assert "CPU PLAYERS" in titles
    text = " ".join(howto.PAGES[titles.index("CPU PLAYERS")][1])
    for want in ("EASY", "NORMAL", "HARD", "OK HURRIES"):
        assert want in text, want


def test_frenzy_tables_load_in_a_cpus_wait():
    """The round's summary's code (ui.frenzy_tables) loads in the first wait of a CPU's
    turn, not in the frame of the decision that ends a round (the frame model's worst
    decision was a CPU's STOP that loaded it)."""
    import sys
    sys.modules.pop("ui.frenzy_tables", None)  # (an earlier test's game may have left it)
    r = _start("cpu_tables", "FARKLE FRENZY", 2, (1, 0), seed=5)
    app = r.app
    s = app.screen
    assert s.NAME == "frenzy" and app.cpus[s.game.player], s.NAME
    for _ in range(200):
        if "ui.frenzy_tables" in sys.modules:
            break
        assert s.view == fs.V_PLAY and s.game.round == 1  # no summary yet
        r.step()
    assert "ui.frenzy_tables" in sys.modules
    assert s.view == fs.V_PLAY and s.game.round == 1
