"""Farkle Frenzy: the game screen (input and flow; the drawing is in ui.frenzy_draw).

One screen object shows the whole game. Its PLAY view follows the core's phase:
  COMMON   the round's roller shakes the Common Die (shake, or OK on ROLL)
  PH_ROLL  the player's dice are rolled (shake, or OK on ROLL); odds hint shown
  PH_WILD  the roller picks the WILD value with PREV/NEXT, OK declares it
  PH_TAKE  the dice with a cursor: PREV/NEXT move, OK toggles a die (or the Common
           Die, when usable); OK on TAKE sets the selection aside (offered only when
           the core lists it); the selection's points are shown live
  DECIDE   ROLL (keep rolling; a shake does the same) or STOP (bank); stopping below
           400 before entering the score sheet asks first
Overlays queued by a decision's notes are shown in order, each closed with OK:
FARKLE, the "GREEN filled the riser: you stop with 450" notice, the round summary,
the winner. Then the device is handed to the next deciding player (app.hand_to shows
"Pass to ..." only when the seat changes).

Relay keeps each player's round private until the summary: notices about other
seats are only shown in Lockstep, where everyone plays in view.

The ui bytes (for Continue) are `_pack()`: the open overlays with their data, the
cursor, the selection and the best round so far, so a restored game shows exactly
the same view.
"""
from ui import screens
from ui.screens import PREV, NEXT, OK, BACK, key, COLOURS
from core import frenzy as fz

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

try:
    from core.odds import farkle_risk
except ImportError:  # the odds table not built yet: no hint
    farkle_risk = None

try:
    from ui import sounds
except ImportError:
    sounds = None

KIND = 2
_S_ODDS = const(6)  # store.S_ODDS (ui does not import the app's modules)

# Views: PLAY follows the game's phase; the others are overlays.
PLAY = const(0)
FARKLE = const(1)
NOTICE = const(2)
WARN = const(3)
SUMMARY = const(4)
WINNER = const(5)

# Cursor items (self.items holds them for the current view).
IT_COMMON = const(5)  # 0-4 are the rolled dice
IT_TAKE = const(6)
IT_ROLL = const(7)
IT_STOP = const(8)
IT_NO = const(9)
IT_YES = const(10)

_QMAX = const(6)
_NMAX = const(3)
_UI_LEN = const(44)
_UI_VERSION = const(1)
_WIN_GRACE = const(600)


def _sfx(name):
    return getattr(sounds, name, None) if sounds is not None else None


_S_SELECT = _sfx("SELECT")
_S_FARKLE = _sfx("FARKLE")
_S_BANK = _sfx("BANK")
_S_NOPE = _sfx("NOPE")
_S_FILL = _sfx("SAFE")    # a riser filled (also opening the "filled the riser" notice)
_S_WILD = _sfx("LAND")    # the WILD declared: the Common Die set on its face
_S_WIN = _sfx("WIN")


def wild_risk(n):
    """Farkle risk (%) of the roller's first roll while the WILD is not declared yet.

    The roller picks the WILD's value after seeing the roll, so the roll farkles only
    when no value helps: no 1, no 5 and no pair (a pair plus the WILD is a triple),
    i.e. n different dice among 2, 3, 4, 6: 4!/(4-n)! of the 6^n rolls.
    """
    ways = 1
    for i in range(n):
        ways *= 4 - i
    if ways <= 0:
        return 0
    return (ways * 200 // 6 ** n + 1) // 2


class FrenzyScreen(screens.Screen):
    NAME = "frenzy"
    KIND = 2

    def __init__(self, app, game, ui=None):
        screens.Screen.__init__(self, app)
        from ui import frenzy_draw  # here: it imports this module
        self._draw = frenzy_draw.draw
        self.game = game
        self.view = PLAY
        self.queue = bytearray(_QMAX)   # overlays still to show after this one
        self.nq = 0
        self.items = bytearray(8)
        self.nitems = 0
        self.cur = 0
        self.mask = 0                   # PH_TAKE: the selection being built
        self.wildv = 1                  # PH_WILD: the value offered
        self.taken = 0                  # DECIDE: the mask just set aside (drawing)
        self.ok_take = bytearray(64)    # PH_TAKE: 1 where TAKE|mask is legal
        self.ok_wild = bytearray(7)
        self.can_roll = False
        self.can_stop = False
        self.roll_on = False            # DECIDE: ROLL rolls at once for this player
        # The dice row as shown (a snapshot, so overlays keep the roll they are about).
        self.dice = bytearray(5)
        self.nd = 0
        # Overlay data.
        self.f_seat = 0
        self.f_lost = 0
        self.nn = 0
        self.n_seat = bytearray(_NMAX)
        self.n_fill = bytearray(_NMAX)
        self.n_run = [0] * _NMAX
        self.ni = 0
        self.s_round = 0
        self.s_flags = 0                # bit 0: 2X doubled this round
        self.s_tie = 0                  # seats playing a tie round next
        self.s_in = 0                   # seats that played the summarised round
        self.best = 0                   # best counted round score so far (stats)
        self.win_t0 = 0
        # Text, formatted when the state changes (never while drawing).
        self.t_head = ""
        self.t_sheet = ""
        self.t_run = ""
        self.t_pts = ""
        self.t_info = ""
        self.t_a = ""
        self.t_b = ""
        self.t_c = ""
        self.t_rows = ["", "", "", ""]
        self.t_cols = ["", "", "", ""]
        self.t_tot = ["", "", "", ""]
        if ui:
            self._unpack(ui)
        else:
            self._snap_dice()
        self._sync()

    # ---- app protocol ---------------------------------------------------------

    def enter(self):
        self.dirty = True
        self._hand_over()

    def update(self, q):
        app = self.app
        buf = q.buf
        for i in range(q.n):
            k = key(buf[i])
            if k < 0:
                continue
            if k == BACK:
                # To the menu; the game stays saved with this very view (overlays
                # closed since the last decision are not saved otherwise).
                if self.game.phase != fz.OVER:
                    app.save(KIND, self.game, self._pack())
                app.menu()
                return
            self._key(k)
            if app.screen is not self or app.tumbling:
                return

    def roll(self):
        """The tumble ended: the dice land now (values from the game's Dice)."""
        g = self.game
        ph = g.phase
        if self.view != PLAY:
            return
        if ph == fz.COMMON:
            self._apply(fz.COMMON_ROLL)
        elif ph == fz.PH_ROLL:
            self._apply(fz.ROLL)
        elif ph == fz.DECIDE:
            seat = g.player
            self._apply(fz.ROLL)  # keep rolling: ends this step
            if g.phase == fz.PH_ROLL and g.player == seat:
                self._apply(fz.ROLL)  # and the dice roll at once
        self._settle()

    def draw(self, fb):
        self._draw(self, fb)

    # ---- input ------------------------------------------------------------------

    def _key(self, k):
        v = self.view
        if v == PLAY:
            self._key_play(k)
        elif v == WARN:
            if k == PREV or k == NEXT:
                self.cur ^= 1
                self._beep(_S_SELECT)
            elif k == OK:
                if self.items[self.cur] == IT_YES:
                    self.view = PLAY
                    self._apply(fz.STOP)
                    self._settle()
                else:
                    self.view = PLAY
                    self._sync()
        elif v == WINNER:
            if k == OK and self.app.elapsed(self.win_t0) >= _WIN_GRACE:
                self.app.menu()
            return
        elif k == OK:
            self._next_view()
            self._settle(False)
        self.dirty = True

    def _key_play(self, k):
        g = self.game
        ph = g.phase
        n = self.nitems
        if ph == fz.PH_WILD:
            if k == PREV or k == NEXT:
                step = 1 if k == NEXT else 5
                v = self.wildv
                for _ in range(6):
                    v = (v - 1 + step) % 6 + 1
                    if self.ok_wild[v]:
                        break
                self.wildv = v
                self._beep(_S_SELECT)
            elif k == OK and self.ok_wild[self.wildv]:
                self._apply(fz.DECLARE | self.wildv)
                self._settle()
            return
        if k == PREV or k == NEXT:
            if n > 1:
                self.cur = (self.cur + (1 if k == NEXT else n - 1)) % n
                self._beep(_S_SELECT)
            return
        if k != OK or not n:
            return
        it = self.items[self.cur]
        if it <= IT_COMMON:
            self.mask ^= (fz.COMMON_BIT if it == IT_COMMON else 1 << it)
            self._fmt_points()
            self._beep(_S_SELECT)
        elif it == IT_TAKE:
            if self.ok_take[self.mask]:
                self.taken = self.mask
                self._apply(fz.TAKE | self.mask)
                self._settle()
            else:
                self._beep(_S_NOPE)
        elif it == IT_ROLL:
            if ph == fz.DECIDE and not self.roll_on:
                self._apply(fz.ROLL)  # Lockstep: the next roll comes in turn
                self._settle()
            else:
                self.app.start_roll()
        elif it == IT_STOP:
            if self._warn_stop():
                self.view = WARN
                self._sync()
                self.cur = 0  # NO first: stopping for nothing takes a second press
            else:
                self._apply(fz.STOP)
                self._settle()

    def _beep(self, s):
        if s is not None:
            self.app.play(s)

    # ---- decisions and their notes ----------------------------------------------

    def _apply(self, d):
        g = self.game
        actor = g.player
        lost = g.running(actor)
        doubled = g.common == 7  # TWOX, as it is before a round end
        was_in = g.in_round
        g.apply(d)
        sch = g.schedule
        for nt in g.notes:
            t = nt[0]
            if t == "roll":
                self.mask = 0
                self.taken = 0
                self._snap_dice()
            elif t == "farkle":
                self.f_seat = nt[1]
                self.f_lost = lost
                self._push(FARKLE)
                self._beep(_S_FARKLE)
            elif t == "stopped_by":
                if (sch == fz.LOCKSTEP or nt[1] == actor) and self.nn < _NMAX:
                    i = self.nn
                    self.n_seat[i] = nt[1]
                    self.n_fill[i] = nt[2]
                    self.n_run[i] = nt[3]
                    if not self.nn:
                        self._push(NOTICE)
                    self.nn += 1
            elif t == "fill":
                self._beep(_S_FILL)
            elif t == "wild":
                self._beep(_S_WILD)
            elif t == "stop":
                self._beep(_S_BANK)
            elif t == "round_end":
                self.s_round = nt[1]
                self.s_flags = 1 if doubled else 0
                self.s_tie = 0
                self.s_in = was_in
                for s in range(g.players):
                    if g.round_scores[s] > self.best:
                        self.best = g.round_scores[s]
                self._push(SUMMARY)
            elif t == "tie":
                self.s_tie = nt[1]
            elif t == "win":
                self._push(WINNER)
        if g.phase == fz.OVER:
            w = g.winner
            self.app.finish(KIND, g, self.best, g.totals[w])
        if self.view == PLAY and self.nq:
            self._next_view()

    def _push(self, v):
        if self.nq < _QMAX:
            self.queue[self.nq] = v
            self.nq += 1

    def _next_view(self):
        """Close the current overlay (a notice may have more pages); open the next."""
        if self.view == NOTICE and self.ni + 1 < self.nn:
            self.ni += 1
            self._sync()
            return
        if self.view == NOTICE:
            self.nn = 0
            self.ni = 0
        if self.nq:
            self.view = self.queue[0]
            for i in range(1, self.nq):
                self.queue[i - 1] = self.queue[i]
            self.nq -= 1
            if self.view == WINNER:
                self.win_t0 = self.app.now
                self._beep(_S_WIN)
            elif self.view == NOTICE:
                self._beep(_S_FILL)
        else:
            self.view = PLAY
        self._sync()

    def _settle(self, save=True):
        """After a decision (save it, with the view: one write per decision) or a
        closed overlay (no write: Continue shows that overlay again): hand the device
        on when the deciding seat changed."""
        g = self.game
        self._sync()
        self.dirty = True
        if g.phase != fz.OVER and self.app.screen is self:
            if save:
                self.app.save(KIND, g, self._pack())
            self._hand_over()

    def _hand_over(self):
        g = self.game
        if self.view == PLAY and g.phase != fz.OVER:
            self.app.hand_to(g.player)

    def _warn_stop(self):
        g = self.game
        seat = g.player
        if g.totals[seat]:
            return False
        run = g.running(seat)
        if g.common == 7:
            run *= 2
        return run < fz.ENTRY

    def _roll_on(self):
        """Would ROLL in DECIDE give this same player the next roll at once?

        Relay: always. Lockstep: only when nobody else still rolls in this step or
        the next one (solo, or everyone else done).
        """
        g = self.game
        if g.schedule == fz.RELAY or g.players == 1:
            return True
        me = g.player
        filled = g.riser(me) == 5
        after = False
        for i in range(g.players):
            s = (g.roller + i) % g.players
            if s == me:
                after = True
                continue
            if not g.in_round >> s & 1 or g.status(s) != fz.ROLLING:
                continue
            if after:
                return False  # plays this step after me
            if not filled or g.riser(s) == 5:
                return False  # still rolling in the next step, before me
        return True

    def _snap_dice(self):
        g = self.game
        n = g.nrolled
        for i in range(5):
            self.dice[i] = g.rolled[i] if i < n else 0
        self.nd = n

    # ---- derived state and text (on changes only) -----------------------------------

    def _sync(self):
        g = self.game
        ph = g.phase
        seat = g.player
        items = self.items
        n = 0
        self.can_roll = self.can_stop = False
        for i in range(64):
            self.ok_take[i] = 0
        for i in range(7):
            self.ok_wild[i] = 0
        if self.view == PLAY and ph != fz.OVER:
            for d in g.legal():
                kd = d & 0xF00
                if kd == fz.TAKE:
                    self.ok_take[d & 0x3F] = 1
                elif kd == fz.DECLARE:
                    self.ok_wild[d & 7] = 1
                elif kd == fz.STOP:
                    self.can_stop = True
                else:
                    self.can_roll = True
        self.rolling = False
        self.tumble_mask = 0
        if self.view == PLAY:
            if ph == fz.PH_TAKE:
                for i in range(g.nrolled):
                    items[n] = i
                    n += 1
                for m in range(fz.COMMON_BIT + 1, 64):
                    if self.ok_take[m]:  # some selection can count the Common Die
                        items[n] = IT_COMMON
                        n += 1
                        break
                items[n] = IT_TAKE
                n += 1
            elif ph == fz.COMMON or ph == fz.PH_ROLL or ph == fz.DECIDE:
                if self.can_roll:
                    items[n] = IT_ROLL
                    n += 1
                if self.can_stop:
                    items[n] = IT_STOP
                    n += 1
                self.roll_on = ph != fz.DECIDE or self._roll_on()
                if self.can_roll and self.roll_on:
                    self.rolling = True
                    self.tumble_mask = 0x20 if ph == fz.COMMON else (1 << g.to_roll()) - 1
            elif ph == fz.PH_WILD:
                if not self.ok_wild[self.wildv]:
                    self.wildv = 1
        elif self.view == WARN:
            items[0] = IT_NO
            items[1] = IT_YES
            n = 2
        if n != self.nitems or self.cur >= n:
            self.cur = 0
            if ph == fz.PH_TAKE and self.view == PLAY:
                self.mask &= 0x3F
        self.nitems = n
        self._format(g, ph, seat)
        self.dirty = True

    def _format(self, g, ph, seat):
        v = self.view
        self.t_head = "ROUND %d" % g.round
        if max(g.totals) >= fz.GOAL:
            self.t_head += " TIE"  # the goal is reached: only the tied players play
        self.t_sheet = "SHEET %d" % g.totals[seat]
        self.t_run = str(g.running(seat))
        self.t_info = ""
        self.t_a = ""
        self.t_b = ""
        self.t_c = ""
        if v == PLAY:
            if ph == fz.PH_TAKE:
                self._fmt_points()
            else:
                self.t_pts = ""
            if ph == fz.COMMON:
                self.t_info = "SHAKE THE COMMON DIE"
            elif ph == fz.PH_WILD:
                self.t_info = "WILD: PICK ITS VALUE"
            elif ph == fz.PH_ROLL or ph == fz.DECIDE:
                self.t_info = self._risk_text(g)
            if ph == fz.DECIDE and g.riser(seat) == 5:
                self.t_pts = "FULL!"
        elif v == FARKLE:
            c = COLOURS[self.f_seat]
            # Nothing to lose on a round's first roll: no "LOST 0".
            self.t_a = "%s LOST %d" % (c, self.f_lost) if self.f_lost else c + " FARKLED"
            self.t_b = "DONE FOR THIS ROUND"
        elif v == NOTICE:
            i = self.ni
            s = self.n_seat[i]
            self.t_a = "%s FILLED THE RISER:" % COLOURS[self.n_fill[i]]
            if s == self.app.holder or g.players == 1:
                self.t_b = "YOU STOP WITH"
            else:
                self.t_b = "%s STOPS WITH" % COLOURS[s]
            self.t_c = str(self.n_run[i])
        elif v == WARN:
            self.t_a = "BELOW 400: COUNTS 0."
            self.t_b = "STOP ANYWAY?"
            r = g.running(seat)
            self.t_c = "ROUND SCORE %d" % (r * 2 if g.common == 7 else r)
        elif v == SUMMARY:
            self.t_a = "ROUND %d" % self.s_round
            if self.s_flags & 1:
                self.t_a += "  2^ DOUBLED"
            for s in range(4):
                if s >= g.players:
                    self.t_rows[s] = ""
                    continue
                self.t_rows[s] = COLOURS[s]
                if not self.s_in >> s & 1:
                    self.t_cols[s] = "-"
                else:
                    c = g.round_scores[s]
                    raw = g.round_raw[s]
                    self.t_cols[s] = "+%d" % c if c or not raw else "%d<400" % raw
                self.t_tot[s] = str(g.totals[s])
            # A tie: the marked rows play one more round.
            self.t_b = "TIE: ONE MORE ROUND" if self.s_tie else "OK"
        elif v == WINNER:
            w = g.winner
            self.t_b = str(g.totals[w])
            k = 0
            for s in range(g.players):
                if s != w:
                    self.t_rows[k] = COLOURS[s]
                    self.t_tot[k] = str(g.totals[s])
                    k += 1
            for s in range(k, 4):
                self.t_rows[s] = ""

    def _fmt_points(self):
        # The points of the selection, and a line saying what to do about it: a
        # first-time player sees why TAKE cannot be pressed yet.
        m = self.mask
        self.dirty = True
        if not m:
            self.t_pts = ""
            self.t_info = "OK: PICK SCORING DICE"
            return
        p = self.game.points(m)
        self.t_pts = "+%d" % p if p else "+0"
        if self.ok_take[m]:
            self.t_info = "TAKE: SET THEM ASIDE"
        elif m == fz.COMMON_BIT:
            self.t_info = "ADD A ROLLED DIE TOO"
        else:
            self.t_info = "NOT ALL OF THESE SCORE"

    def _risk_text(self, g):
        if farkle_risk is None or not self.app.settings[_S_ODDS]:
            return ""
        n = g.to_roll()
        if not n:
            return ""
        if g.common == 8 and not g.wild:
            r = wild_risk(n)
        else:
            r = farkle_risk(n, g.usable())
        return "FARKLE RISK %d%%" % r

    # ---- ui bytes for Continue ----------------------------------------------------

    def _pack(self):
        b = bytearray(_UI_LEN)
        b[0] = _UI_VERSION
        b[1] = self.view
        b[2] = self.nq
        b[3:3 + _QMAX] = self.queue
        b[9] = self.cur
        b[10] = self.mask
        b[11] = self.wildv
        b[12] = self.taken
        b[13:18] = self.dice
        b[18] = self.nd
        b[19] = self.f_seat
        _put24(b, 20, self.f_lost)
        b[23] = self.nn
        b[24] = self.ni
        for i in range(_NMAX):
            b[25 + i] = self.n_seat[i] << 4 | self.n_fill[i]
        for i in range(_NMAX):
            _put24(b, 28 + 3 * i, self.n_run[i])
        b[37] = self.s_round >> 8
        b[38] = self.s_round & 0xFF
        b[39] = self.s_flags | self.s_tie << 4
        b[40] = self.s_in
        _put24(b, 41, self.best)
        return b

    def _unpack(self, b):
        """Restore the view from _pack() bytes. Bytes of another layout (an older
        firmware) are ignored: the game itself is intact, so it resumes in its plain
        play view instead of being thrown away."""
        ok = len(b) == _UI_LEN and b[0] == _UI_VERSION and b[1] <= WINNER \
            and b[2] <= _QMAX and b[18] <= 5 and b[23] <= _NMAX
        for i in range(_QMAX):
            ok = ok and b[3 + i] <= WINNER
        if not ok:
            self._snap_dice()
            return
        self.view = b[1]
        self.nq = b[2]
        self.queue[:] = b[3:3 + _QMAX]
        self.cur = b[9]
        self.mask = b[10] & 0x3F
        self.wildv = b[11] if 1 <= b[11] <= 6 else 1
        self.taken = b[12] & 0x3F
        self.dice[:] = b[13:18]
        self.nd = b[18]
        self.f_seat = b[19] & 3
        self.f_lost = _get24(b, 20)
        self.nn = b[23]
        self.ni = b[24] if b[24] < self.nn else 0
        for i in range(_NMAX):
            self.n_seat[i] = b[25 + i] >> 4 & 3
            self.n_fill[i] = b[25 + i] & 3
            self.n_run[i] = _get24(b, 28 + 3 * i)
        self.s_round = b[37] << 8 | b[38]
        self.s_flags = b[39] & 1
        self.s_tie = b[39] >> 4
        self.s_in = b[40]
        self.best = _get24(b, 41)
        g = self.game
        if self.view == WINNER and g.phase != fz.OVER:
            self.view = PLAY
        if self.view == NOTICE and not self.nn:
            self.view = PLAY
        if self.view == WINNER:
            self.win_t0 = self.app.now


def _put24(b, j, v):
    if v < 0:
        v = 0
    if v > 0xFFFFFF:
        v = 0xFFFFFF
    b[j] = v >> 16
    b[j + 1] = v >> 8 & 0xFF
    b[j + 2] = v & 0xFF


def _get24(b, j):
    return b[j] << 16 | b[j + 1] << 8 | b[j + 2]
