"""A Shake Up game from the menu, a pilot that plays it through the buttons, and a game
set at a given position."""
import ui_rig
from core import shakeup as su
from ui import shakeup_screen as ss


OK = ui_rig.OK


NEXT = ui_rig.NEXT


PREV = ui_rig.PREV


class Pilot(ui_rig.Player):
    def __init__(self, rig, seed):
        super().__init__(rig, seed)
        self.hook = None  # hook(label) -> True stops play() (golden-frame captures)

    def to_cursor(self, want, attr="cur"):
        # As a player reads the DICE view: STOP is drawn first, one PREV from the
        # first die; SHAKE last (one PREV from STOP).
        s = self.scr()
        back = attr == "cur" and s.view == ss.DICE and (
            want == 5 and s.cur != 4 or want == 4 and s.cur == 5)
        for _ in range(12):
            if getattr(s, attr) == want:
                return
            self.r.press(PREV if back else NEXT)
        raise AssertionError("cursor never reached %r" % (want,))

    def roll_action(self):
        # Half the time shake the device, else press OK (the fallback).
        if self.pick(2):
            self.r.shake()
        else:
            self.r.press(OK)
            self.r.wait(600)

    def check(self, d, game, before_free):
        """Replay decision d on the shadow with the dice the screen's game drew."""
        sh = self.shadow
        kind = d & 0xF00
        values = None
        if kind == su.ROLL:
            if sh.phase == su.ROLLOFF:
                values = [n[2] for n in game.notes if n[0] == "rolloff"]
            else:
                values = [game.dice[i] for i in before_free]
        assert d in sh.legal(), "screen applied %x, not legal in the shadow" % d
        sh.apply(d, values)
        if kind in (su.ROLL, su.STOP) and sh.phase == su.MOVING and len(sh.legal()) == 1:
            sh.apply(sh.legal()[0])  # one level can move: the screen makes that move
        assert sh.to_bytes() == game.to_bytes(), "screen and shadow differ after %x" % d
        self.decisions += 1

    def turn_dice(self, g):
        """A decision in CHOOSE: keep dice that already match, stop on MOVE or better."""
        cls = su.classify(g.dice)
        if cls >= su.MOVE or self.pick(8) == 0:
            return su.STOP
        counts = bytearray(7)
        for v in g.dice:
            counts[v] += 1
        mask = g.held
        for i in range(4):
            if counts[g.dice[i]] >= 2 or self.pick(6) == 0:
                mask |= 1 << i
        if mask == 15:
            return su.STOP
        return su.ROLL | mask

    def play(self, limit=8000):
        r = self.r
        for _ in range(limit):
            app = r.app
            s = app.screen
            name = s.NAME
            if self.hook is not None and self.hook(name):
                return None
            if name == "win":
                return s.seat
            if name == "pass":
                # Only shown when the device changes hands.
                assert s.seat == self.shadow.player and s.seat != app.holder
                r.press(OK)
                continue
            assert name == "shakeup", name
            g = s.game
            if self.shadow is None:
                self.shadow = su.Game(g.players, g.spots)
            assert g.to_bytes() == self.shadow.to_bytes()
            v = s.view
            if v in (ss.RESULT, ss.INFO) or (v == ss.ROLLOFF and s.info):
                r.press(OK)
                continue
            assert app.holder == g.player, "acting without the device"
            if v == ss.ROLLOFF or v == ss.BOARD:
                assert s.rolling
                self.roll_action()
                self.check(su.ROLL, g, (0, 1, 2, 3))
                continue
            if v == ss.DICE:
                d = self.turn_dice(g)
                if d == su.STOP:
                    self.to_cursor(5)
                    r.press(OK)
                    self.check(d, g, ())
                    continue
                mask = d & 15
                for i in range(4):
                    if mask >> i & 1 and not g.held >> i & 1:
                        self.to_cursor(i)
                        r.press(OK)
                assert s.pending == mask
                if self.hook is not None and self.hook("aside"):
                    return None
                free = [i for i in range(4) if not mask >> i & 1]
                if self.pick(2):
                    r.shake()
                else:
                    self.to_cursor(4)
                    r.press(OK)
                    r.wait(600)
                self.check(d, g, free)
                continue
            if v == ss.MOVE or v == ss.PENALTY:
                legal = self.shadow.legal()
                assert sorted(s.choices) == sorted(legal), (s.choices, legal)
                d = legal[self.pick(len(legal))]
                if v == ss.PENALTY and self.pick(4):
                    d = legal[-1]  # SKIP / AGAIN: keeps the game from dragging on
                for _ in range(len(legal) + 1):
                    if s.choices[s.cur] == d:
                        break
                    r.press(NEXT)
                r.press(OK)
                self.check(d, g, ())
                continue
            raise AssertionError("unknown view %d" % v)
        raise AssertionError("game did not end")


def start_game(r, players):
    ui_rig.at_menu(r)
    ui_rig.setup_game(r, "SHAKE UP", players)
    assert r.screen in ("shakeup", "pass")


def _su_at(name, red, green, dice, cpus=b"\0\0"):
    """A two-seat Shake Up game shown at RED's turn (its BOARD) with these pawns (per
    seat its counts on levels 1-4), the dice rolling `dice` (faces) first; the App
    plays GREEN as cpus[1] says."""
    from core import shakeup as su
    from core.dice import Dice
    from ui import shakeup_screen as ss
    r = ui_rig.Rig(name)
    r.wait(1500)
    app = r.app
    app.dice = Dice(ui_rig.Script(dice, 5))
    g = su.Game(2, False, app.dice)
    g.phase = su.SHAKE
    g.starter = 0
    p = g._pawns
    p[16] = p[17] = 0  # the roll-off is over
    for lv in range(4):
        p[lv] = red[lv]
        p[4 + lv] = green[lv]
    app.players = 2
    app.holder = 0
    app.cpus[:2] = cpus
    app.show(ss.ShakeUpScreen(app, g, None))
    r.step(2)
    return r, app.screen
