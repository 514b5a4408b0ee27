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

Memory: the overlays' texts (ui.frenzy_text) and restoring the ui bytes
(ui.frenzy_resume) are loaded when needed and dropped right after (core.frenzy._aside):
on state changes, never per frame. The odds hint reads core.frenzy.RISK.
"""
from core import frenzy as fz
from ui import frenzy_draw, screens, sounds
from ui.screens import BACK, COLOURS, NEXT, OK, PREV, key

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

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
# self.ov: overlay and selection state kept at its offsets in the ui bytes (_pack).
_NQ = const(2)       # overlays queued
_Q = const(3)        # the queue (_QMAX bytes)
_TAKEN = const(12)   # DECIDE: the mask just set aside (drawing)
_DICE = const(13)    # the dice row as shown (5 bytes)
_ND = const(18)
_FSEAT = const(19)   # FARKLE: the seat that farkled
_FLOST = const(20)   # FARKLE: the points it lost (3 bytes)
_NN = const(23)      # "filled the riser" notices
_NI = const(24)      # the notice shown
_NSF = const(25)     # per notice: stopped seat << 4 | filling seat (_NMAX bytes)
_SROUND = const(37)  # the summarised round (2 bytes)
_SFLAGS = const(39)  # bit 0: 2X doubled this round; high nibble: seats in a tie round next
_SIN = const(40)     # seats that played the summarised round
_NRUN = const(28)    # per notice: the stopped seat's total (3 bytes each)
_BEST = const(41)    # best counted round score so far, for the stats (3 bytes)
_WIN_T0 = const(44)  # when the winner was shown (4 bytes; past the ui bytes)


# Farkle risk (%, rounded) of the roller's first roll of n dice while the WILD is
# not declared yet, index n. The roller picks the WILD's value after seeing the roll,
# so the roll farkles only when no value helps: no 1, no 5 and no pair (a pair plus
# the WILD is a triple), i.e. n different dice among 2, 3, 4, 6: 4!/(4-n)! of the
# 6^n rolls: 4/6, 12/36, 24/216, 24/1296, 0.
WILD_RISK = b"\x00\x43\x21\x0b\x02\x00"


class FrenzyScreen(screens.Screen):
    NAME = "frenzy"
    KIND = 2

    def __init__(self, app, game, ui=None):
        screens.Screen.__init__(self, app)
        self.game = game
        self.view = PLAY
        self.items = bytearray(8)
        self.nitems = 0
        self.cur = 0
        self.mask = 0                   # PH_TAKE: the selection being built
        self.wildv = 1                  # PH_WILD: the value offered
        self.ok_take = bytearray(64)    # PH_TAKE: 1 where TAKE|mask is legal
        self.ok_wild = bytearray(7)
        self.roll_on = False            # DECIDE: ROLL rolls at once for this player
        # The dice row as shown is a snapshot, so overlays keep the roll they are
        # about (the core keeps the dice past nrolled at 0).
        ov = self.ov = bytearray(_UI_LEN + 4)
        ov[_DICE:_DICE + 5] = game.rolled
        ov[_ND] = game.nrolled
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
            # Bytes of another layout (an older firmware) are ignored: the game
            # itself is intact, so it resumes in its plain play view.
            fz._aside("ui", "frenzy_resume", self, ui)
        self._sync()

    # ---- app protocol ---------------------------------------------------------

    def enter(self):
        self.dirty = True
        if self.view == PLAY and self.game.phase != fz.OVER:
            self.app.hand_to(self.game.player)

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

    draw = frenzy_draw.draw  # draw(self, fb): the drawing lives in ui.frenzy_draw

    # ---- input ------------------------------------------------------------------

    def _key(self, k):
        v = self.view
        app = self.app
        if v == WINNER:
            if k == OK and app.elapsed(int.from_bytes(self.ov[_WIN_T0:], "big")) >= _WIN_GRACE:
                app.menu()
            return
        self.dirty = True
        if v == WARN:
            if k == PREV or k == NEXT:
                self.cur ^= 1
                app.play(sounds.SELECT)
            elif k == OK:
                self.view = PLAY
                if self.items[self.cur] == IT_YES:
                    self._apply(fz.STOP)
                    self._settle()
                else:
                    self._sync()
            return
        if v != PLAY:
            if k == OK:
                self._next_view()
                self._settle(False)
            return
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
                app.play(sounds.SELECT)
            elif k == OK and self.ok_wild[self.wildv]:
                self._apply(fz.DECLARE | self.wildv)
                self._settle()
            return
        if k == PREV or k == NEXT:
            if n > 1:
                self.cur = (self.cur + (1 if k == NEXT else n - 1)) % n
                app.play(sounds.SELECT)
            return
        if k != OK or not n:
            return
        it = self.items[self.cur]
        if it <= IT_COMMON:
            self.mask ^= (fz.COMMON_BIT if it == IT_COMMON else 1 << it)
            self._sync()  # the selection's points and what to do about them
            app.play(sounds.SELECT)
        elif it == IT_TAKE:
            if self.ok_take[self.mask]:
                self.ov[_TAKEN] = self.mask
                self._apply(fz.TAKE | self.mask)
                self._settle()
            else:
                app.play(sounds.NOPE)
        elif it == IT_ROLL:
            if ph == fz.DECIDE and not self.roll_on:
                self._apply(fz.ROLL)  # Lockstep: the next roll comes in turn
                self._settle()
            else:
                app.start_roll()
        elif it == IT_STOP:
            # Stopping below 400 before entering the score sheet asks first.
            seat = g.player
            run = g.running(seat) * (2 if g.common == 7 else 1)
            if not g.totals[seat] and run < fz.ENTRY:
                self.view = WARN
                self._sync()
                self.cur = 0  # NO first: stopping for nothing takes a second press
            else:
                self._apply(fz.STOP)
                self._settle()

    # ---- decisions and their notes ----------------------------------------------

    def _apply(self, d):
        g = self.game
        app = self.app
        ov = self.ov
        actor = g.player
        lost = g.running(actor)
        doubled = g.common == 7  # TWOX, as it is before a round end
        was_in = g.in_round
        g.apply(d)
        sch = g.schedule
        for nt in g.notes:
            t = nt[0]
            v = 0  # an overlay to queue
            if t == "roll":
                self.mask = 0
                ov[_TAKEN] = 0
                ov[_DICE:_DICE + 5] = g.rolled
                ov[_ND] = g.nrolled
            elif t == "farkle":
                ov[_FSEAT] = nt[1]
                ov[_FLOST:_FLOST + 3] = min(lost, 0xFFFFFF).to_bytes(3, "big")
                v = FARKLE
                app.play(sounds.FARKLE)
            elif t == "stopped_by":
                i = ov[_NN]
                if (sch == fz.LOCKSTEP or nt[1] == actor) and i < _NMAX:
                    ov[_NSF + i] = nt[1] << 4 | nt[2]
                    ov[_NRUN + 3 * i:_NRUN + 3 * i + 3] = min(nt[3], 0xFFFFFF).to_bytes(3, "big")
                    if not i:
                        v = NOTICE
                    ov[_NN] = i + 1
            elif t == "fill":
                app.play(sounds.SAFE)
            elif t == "wild":
                app.play(sounds.LAND)  # the Common Die set on its face
            elif t == "stop":
                app.play(sounds.BANK)
            elif t == "round_end":
                ov[_SROUND] = nt[1] >> 8
                ov[_SROUND + 1] = nt[1] & 0xFF
                ov[_SFLAGS] = 1 if doubled else 0  # and no tie yet
                ov[_SIN] = was_in
                b = max(int.from_bytes(ov[_BEST:_BEST + 3], "big"), max(g.round_scores))
                ov[_BEST:_BEST + 3] = min(b, 0xFFFFFF).to_bytes(3, "big")
                v = SUMMARY
            elif t == "tie":
                ov[_SFLAGS] = ov[_SFLAGS] & 1 | nt[1] << 4
            elif t == "win":
                v = WINNER
            if v and ov[_NQ] < _QMAX:
                ov[_Q + ov[_NQ]] = v
                ov[_NQ] += 1
        if g.phase == fz.OVER:
            app.finish(KIND, g, int.from_bytes(ov[_BEST:_BEST + 3], "big"), g.totals[g.winner])
        if self.view == PLAY and ov[_NQ]:
            self._next_view()

    def _next_view(self):
        """Close the current overlay (a notice may have more pages); open the next.
        Both callers _settle() next, whose _sync() formats the view's texts: formatting
        them here too loaded ui.frenzy_text twice, the first time deep inside the
        decision (the fullest moment of a Frenzy game)."""
        ov = self.ov
        if self.view == NOTICE and ov[_NI] + 1 < ov[_NN]:
            ov[_NI] += 1
            return
        if self.view == NOTICE:
            ov[_NN] = 0
            ov[_NI] = 0
        n = ov[_NQ]
        if n:
            self.view = ov[_Q]
            ov[_Q:_Q + n - 1] = ov[_Q + 1:_Q + n]
            ov[_NQ] = n - 1
            if self.view == WINNER:
                ov[_WIN_T0:] = min(self.app.now, 0xFFFFFFFF).to_bytes(4, "big")
                self.app.play(sounds.WIN)
            elif self.view == NOTICE:
                self.app.play(sounds.SAFE)  # a riser filled
        else:
            self.view = PLAY

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
            self.enter()

    # ---- derived state and text (on changes only) -----------------------------------

    def _sync(self):
        g = self.game
        ph = g.phase
        seat = g.player
        items = self.items
        v = self.view
        n = 0
        can_roll = can_stop = False
        ok_take = self.ok_take
        for i in range(64):
            ok_take[i] = 0
        for i in range(7):
            self.ok_wild[i] = 0
        if v == PLAY and ph == fz.PH_TAKE:
            # TAKE|m is legal exactly when m scores: asking the points of each mask
            # builds no list of selections (their garbage was the largest block
            # allocated during play).
            for m in range(1, 64):
                if g.points(m):
                    ok_take[m] = 1
        elif v == PLAY and ph != fz.OVER:
            for d in g.legal():
                kd = d & 0xF00
                if kd == fz.DECLARE:
                    self.ok_wild[d & 7] = 1
                elif kd == fz.STOP:
                    can_stop = True
                else:
                    can_roll = True
        self.rolling = False
        self.tumble_mask = 0
        if v == PLAY:
            if ph == fz.PH_TAKE:
                for i in range(g.nrolled):
                    items[n] = i
                    n += 1
                for m in range(fz.COMMON_BIT + 1, 64):
                    if ok_take[m]:  # some selection can count the Common Die
                        items[n] = IT_COMMON
                        n += 1
                        break
                items[n] = IT_TAKE
                n += 1
            elif ph == fz.COMMON or ph == fz.PH_ROLL or ph == fz.DECIDE:
                if can_roll:
                    items[n] = IT_ROLL
                    n += 1
                if can_stop:
                    items[n] = IT_STOP
                    n += 1
                # Would ROLL give this same player the next roll at once? Relay:
                # always. Lockstep: only when nobody else still rolls in this step
                # or the next one (solo, or everyone else done).
                ro = ph != fz.DECIDE or g.schedule == fz.RELAY or g.players == 1
                if not ro:
                    ro = True
                    filled = g.riser(seat) == 5
                    after = False
                    for i in range(g.players):
                        s = (g.roller + i) % g.players
                        if s == seat:
                            after = True
                        elif g.in_round >> s & 1 and g.status(s) == fz.ROLLING and \
                                (after or not filled or g.riser(s) == 5):
                            ro = False  # plays this step after me, or the next before me
                            break
                self.roll_on = ro
                if can_roll and ro:
                    self.rolling = True
                    self.tumble_mask = 0x20 if ph == fz.COMMON else (1 << g.to_roll()) - 1
            elif ph == fz.PH_WILD:
                if not self.ok_wild[self.wildv]:
                    self.wildv = 1
        elif v == WARN:
            items[0] = IT_NO
            items[1] = IT_YES
            n = 2
        if n != self.nitems or self.cur >= n:
            self.cur = 0
            if ph == fz.PH_TAKE and v == PLAY:
                self.mask &= 0x3F
        self.nitems = n
        # The texts.
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
            self.t_pts = ""
            m = self.mask
            if ph == fz.PH_TAKE and not m:
                self.t_info = "OK: PICK SCORING DICE"
            elif ph == fz.PH_TAKE:
                # The points of the selection, and a line saying what to do about
                # it: a first-time player sees why TAKE cannot be pressed yet.
                p = g.points(m)
                self.t_pts = "+%d" % p if p else "+0"
                if ok_take[m]:
                    self.t_info = "TAKE: SET THEM ASIDE"
                elif m == fz.COMMON_BIT:
                    self.t_info = "ADD A ROLLED DIE TOO"
                else:
                    self.t_info = "NOT ALL OF THESE SCORE"
            elif ph == fz.COMMON:
                self.t_info = "SHAKE THE COMMON DIE"
            elif ph == fz.PH_WILD:
                self.t_info = "WILD: PICK ITS VALUE"
            elif ph == fz.PH_ROLL or ph == fz.DECIDE:
                n = g.to_roll()
                if self.app.settings[_S_ODDS] and n:
                    # core.odds.farkle_risk without its checks (n is 1-5 here)
                    r = WILD_RISK[n] if g.common == 8 and not g.wild else \
                        fz.RISK[(n - 1) * 7 + (g.usable() or 0)]
                    self.t_info = "FARKLE RISK %d%%" % r
                if ph == fz.DECIDE and g.riser(seat) == 5:
                    self.t_pts = "FULL!"
        elif v == FARKLE:
            c = COLOURS[self.ov[_FSEAT]]
            lost = int.from_bytes(self.ov[_FLOST:_FLOST + 3], "big")
            # Nothing to lose on a round's first roll: no "LOST 0".
            self.t_a = "%s LOST %d" % (c, lost) if lost else c + " FARKLED"
            self.t_b = "DONE FOR THIS ROUND"
        else:
            fz._aside("ui", "frenzy_text", self, g, v, seat)
        self.dirty = True

    # ---- ui bytes for Continue (read back by ui.frenzy_resume) ------------------

    def _pack(self):
        b = self.ov[:_UI_LEN]
        b[0] = _UI_VERSION
        b[1] = self.view
        b[9] = self.cur
        b[10] = self.mask
        b[11] = self.wildv
        return b
