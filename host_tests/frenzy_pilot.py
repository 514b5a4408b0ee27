"""A Farkle Frenzy game from the menu and a pilot that plays it through the buttons."""
import ui_rig
from core import frenzy as fz
from core.frenzy_score import COMMON_BIT, ones_table, points_of
from ui import frenzy_screen as fs


OK = ui_rig.OK


NEXT = ui_rig.NEXT


PREV = ui_rig.PREV


S_SCHEDULE = 2


class Pilot(ui_rig.Player):
    def __init__(self, rig, seed):
        super().__init__(rig, seed)
        self.passes = 0
        self.seen = {}   # view or phase name -> times seen (coverage of the run)
        self.warned = 0
        self.best = 0    # best counted round score (the stats keep it)

    def saw(self, what):
        self.seen[what] = self.seen.get(what, 0) + 1

    def to_item(self, item):
        s = self.scr()
        b = NEXT if self.pick(3) else PREV
        for _ in range(s.nitems + 1):
            if s.items[s.cur] == item:
                return
            self.r.press(b)
        raise AssertionError("cursor never reached item %d" % item)

    def shake(self):
        # A pause first: the sensor ignores motion for a moment after each roll.
        self.r.wait(500)
        self.r.shake()

    def roll_action(self):
        # Half the time shake the device, else press OK on ROLL (the fallback).
        if self.pick(2):
            self.shake()
        else:
            self.to_item(fs.IT_ROLL)
            self.r.press(OK)
            self.r.wait(600)

    def apply(self, d, game, values=None):
        sh = self.shadow
        assert d in sh.legal(), "screen applied %x, not legal in the shadow" % d
        sh.apply(d, values)
        self.decisions += 1
        for n in sh.notes:
            if n[0] == "round_end":
                self.best = max([self.best] + sh.round_scores)

    def same(self, game):
        assert game.to_bytes() == self.shadow.to_bytes(), "screen and shadow differ"

    def rolled(self, game):
        return bytes(game.rolled[:game.nrolled])

    def choose_take(self, legal):
        # Mostly the best-scoring selection with the fewest dice (keeps dice to roll),
        # sometimes any legal one: every kind of selection gets offered and taken.
        sh = self.shadow
        if self.pick(4) == 0:
            return legal[self.pick(len(legal))] & 0x3F
        best = None
        for d in legal:
            m = d & 0x3F
            p = sh.points(m)
            n = bin(m & 0x1F).count("1")
            key = p * 8 - n
            if best is None or key > best[0]:
                best = (key, m)
        return best[1]

    def play(self, limit=20000):
        r = self.r
        for _ in range(limit):
            app = r.app
            s = app.screen
            name = s.NAME
            if name == "pass":
                assert self.shadow is not None and s.seat == self.shadow.player
                self.passes += 1
                r.press(OK)
                continue
            assert name == "frenzy", name
            g = s.game
            if self.shadow is None:
                self.shadow = fz.Game(g.players, g.schedule, g.ones)
            self.same(g)
            v = s.view
            if v == fs.V_WINNER:
                self.saw("winner")
                return g.winner
            if v == fs.V_WARN:
                # The warning offers NO first; say NO once in a while, then YES.
                self.saw("warn")
                assert s.items[s.cur] == fs.IT_NO
                if self.pick(3) == 0:
                    r.press(OK)
                    assert s.view == fs.V_PLAY and s.game.phase == fz.PH_DECIDE
                    continue
                r.press(NEXT)
                r.press(OK)
                self.apply(fz.STOP, g)
                continue
            if v != fs.V_PLAY:
                self.saw(("farkle", "notice", "warn", "summary")[v - 1])
                r.press(OK)
                continue
            assert g.players == 1 or app.holder == g.player, "acting without the device"
            ph = g.phase
            seat = g.player
            if ph == fz.PH_COMMON:
                self.saw("common")
                assert s.rolling and s.tumble_mask == 0x20
                self.roll_action()
                self.apply(fz.COMMON_ROLL, g, (g.common,))
            elif ph == fz.PH_ROLL:
                self.saw("roll")
                assert s.rolling
                self.roll_action()
                self.apply(fz.ROLL, g, self.rolled(g))
            elif ph == fz.PH_WILD:
                self.saw("wild")
                # The picker's best points per WILD value, against points() of
                # every selection; its scratch table (TAKE's) is left clear.
                t = ones_table(g.ones)
                for v in range(1, 7):
                    best = max(points_of(g.rolled, g.nrolled, v, m, t) for m in range(64))
                    assert s.wbest[v] * 50 == best, (v, bytes(g.rolled[:g.nrolled]))
                assert not any(s.ok_take)
                want = 1 + self.pick(6)
                for _ in range(7):
                    if s.wildv == want:
                        break
                    r.press(NEXT)
                assert s.wildv == want
                r.press(OK)
                if g.phase == fz.PH_WILD:
                    # A value that makes the roll a Farkle asks first: OK again.
                    assert s.wask and s.t_pts == "FARKLE", (s.wask, s.t_pts)
                    r.press(OK)
                self.apply(fz.DECLARE | want, g)
            elif ph == fz.PH_TAKE:
                self.saw("take")
                legal = self.shadow.legal()
                # The cursor offers the Common Die exactly when some selection uses it.
                has_c = False
                for i in range(s.nitems):
                    has_c = has_c or s.items[i] == fs.IT_COMMON
                assert has_c == any(d & COMMON_BIT for d in legal)
                # It offers exactly the dice some selection counts, and opens on TAKE
                # with the best one marked: the most points (no other has as many).
                offered = 0
                for i in range(s.nitems):
                    it = s.items[i]
                    offered |= COMMON_BIT if it == fs.IT_COMMON else (1 << it if it < 5 else 0)
                anyd = 0
                for d in legal:
                    anyd |= d & 0x3F
                assert offered == anyd, (offered, anyd)
                assert s.items[s.cur] == fs.IT_TAKE
                top = max(self.shadow.points(d & 0x3F) for d in legal)
                assert [d & 0x3F for d in legal if self.shadow.points(d & 0x3F) == top] \
                    == [s.mask], (s.mask, top)
                m = self.choose_take(legal)
                change = m ^ s.mask  # the dice to toggle from the marked selection
                for i in range(s.nitems):
                    it = s.items[i]
                    bit = COMMON_BIT if it == fs.IT_COMMON else (1 << it if it < 5 else 0)
                    if change & bit:
                        self.to_item(it)
                        r.press(OK)
                assert s.mask == m
                assert s.t_pts == "+%d" % self.shadow.points(m)
                self.to_item(fs.IT_TAKE)
                r.press(OK)
                self.apply(fz.TAKE | m, g)
            elif ph == fz.PH_DECIDE:
                self.saw("decide")
                sh = self.shadow
                run = sh.running(seat)
                full = sh.riser(seat) == 5
                goal = 350 + 50 * self.pick(14)
                stop = run >= goal and not (full and self.pick(2))
                if self.pick(25) == 0:
                    stop = True  # now and then below 400: the warning
                if stop:
                    self.to_item(fs.IT_STOP)
                    r.press(OK)
                    if s.view == fs.V_WARN:
                        self.warned += 1
                        continue
                    self.apply(fz.STOP, g)
                else:
                    on = s.roll_on
                    assert s.rolling == on
                    if on and self.pick(2):
                        self.shake()
                    else:
                        self.to_item(fs.IT_ROLL)
                        r.press(OK)
                        if on:
                            r.wait(600)
                    self.apply(fz.ROLL, g)
                    # The screen predicted whether the next roll is this player's now.
                    assert on == (sh.phase == fz.PH_ROLL and sh.player == seat)
                    if on:
                        # Keeping on rolled the dice at once for this same player.
                        assert sh.phase == fz.PH_ROLL and sh.player == seat
                        self.apply(fz.ROLL, g, self.rolled(g))
            else:
                raise AssertionError("phase %d in play" % ph)
        raise AssertionError("game did not end")


def start_game(r, players, schedule):
    ui_rig.at_menu(r)
    r.app.settings[S_SCHEDULE] = schedule
    ui_rig.setup_game(r, "FARKLE FRENZY", players)
    assert r.screen == "frenzy", r.screen
