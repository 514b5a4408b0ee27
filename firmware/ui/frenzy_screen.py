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

Memory: the overlays' texts (ui.frenzy_text, ui.frenzy_table), the setup
(ui.frenzy_start) and Continue's restoring of the ui bytes (ui.frenzy_resume) are
loaded when needed and dropped right after (core.frenzy._aside): on state changes,
never per frame. The odds hint reads core.frenzy.RISK.
"""
from core import frenzy as fz
from ui import frenzy_draw, screens
from ui.sounds import FARKLE as FARKLE_SOUND
from ui.sounds import BANK, LAND, NOPE, SAFE, SELECT, WIN
from ui.screens import COLOURS, key

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_TYPES = const(0)  # the attributes' types, for pyright (on the device "if 0:" is no code)
if _TYPES:
    from core.frenzy import Game

_KIND = const(2)  # store.KIND_FRENZY
# Codes of core.frenzy_names (see there: private consts cost no heap).
_COMMON = const(0)  # core.frenzy_names.COMMON
_RELAY = const(0)  # core.frenzy_names.RELAY
_ROLLING = const(0)  # core.frenzy_names.ROLLING
_LOCKSTEP = const(1)  # core.frenzy_names.LOCKSTEP
_PH_ROLL = const(1)  # core.frenzy_names.PH_ROLL
_PH_WILD = const(2)  # core.frenzy_names.PH_WILD
_PH_TAKE = const(3)  # core.frenzy_names.PH_TAKE
_DECIDE = const(4)  # core.frenzy_names.DECIDE
_OVER = const(5)  # core.frenzy_names.OVER
_COMMON_BIT = const(0x20)  # core.frenzy_names.COMMON_BIT
_COMMON_ROLL = const(0x100)  # core.frenzy_names.COMMON_ROLL
_ENTRY = const(400)  # core.frenzy_names.ENTRY
_ROLL = const(0x200)  # core.frenzy_names.ROLL
_DECLARE = const(0x300)  # core.frenzy_names.DECLARE
_TAKE = const(0x400)  # core.frenzy_names.TAKE
_STOP = const(0x500)  # core.frenzy_names.STOP
_GOAL = const(10000)  # core.frenzy_names.GOAL
_PREV = const(0)  # ui.screens.PREV (the buttons)
_NEXT = const(1)  # ui.screens.NEXT
_OK = const(2)  # ui.screens.OK
_BACK = const(3)  # ui.screens.BACK
_S_ODDS = const(6)  # store.S_ODDS (ui does not import the app's modules)

# Views: PLAY follows the game's phase; the others are overlays.
_PLAY = const(0)  # ui.frenzy_views.PLAY
_FARKLE = const(1)  # ui.frenzy_views.FARKLE
_NOTICE = const(2)  # ui.frenzy_views.NOTICE
_WARN = const(3)  # ui.frenzy_views.WARN
_SUMMARY = const(4)  # ui.frenzy_views.SUMMARY
_WINNER = const(5)  # ui.frenzy_views.WINNER

# Cursor items (self.items holds them for the current view).
_IT_COMMON = const(5)  # ui.frenzy_views.IT_COMMON (0-4 are the rolled dice)
_IT_TAKE = const(6)  # ui.frenzy_views.IT_TAKE
_IT_ROLL = const(7)  # ui.frenzy_views.IT_ROLL
_IT_STOP = const(8)  # ui.frenzy_views.IT_STOP
_IT_NO = const(9)  # ui.frenzy_views.IT_NO
_IT_YES = const(10)  # ui.frenzy_views.IT_YES

# The texts in self.t: the play view's, then an overlay's three lines.
_T_HEAD = const(0)  # ui.frenzy_views.T_HEAD
_T_SHEET = const(1)  # ui.frenzy_views.T_SHEET
_T_RUN = const(2)  # ui.frenzy_views.T_RUN
_T_PTS = const(3)  # ui.frenzy_views.T_PTS
_T_INFO = const(4)  # ui.frenzy_views.T_INFO
_T_A = const(5)  # ui.frenzy_views.T_A
_T_B = const(6)  # ui.frenzy_views.T_B
_T_C = const(7)  # ui.frenzy_views.T_C
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

    # Set by ui.frenzy_start (annotations only: no code, no heap on the device).
    game: "Game"
    view: int
    items: bytearray                # the cursor's items in the current view
    nitems: int
    cur: int
    mask: int                       # PH_TAKE: the selection being built
    wildv: int                      # PH_WILD: the value offered
    ok_take: bytearray              # PH_TAKE: 1 where TAKE|mask is legal
    roll_on: bool                   # DECIDE: ROLL rolls at once for this player
    ov: bytearray                   # the overlays' state, _pack()'s bytes (+ 4)
    t: list                         # the texts (_T_*), formatted when the state changes
    t_rows: "list | tuple"          # the summary's and the winner's table, () else
    t_cols: "list | tuple"
    t_tot: "list | tuple"

    def __init__(self, app, game, ui=None):
        # Once per game: the setup (ui.frenzy_start) and Continue's restoring of the
        # view (ui.frenzy_resume; bytes of another layout, from an older firmware, are
        # ignored: the game itself is intact, so it resumes in its plain play view),
        # each loaded for its call and dropped after.
        fz._aside("ui", "frenzy_start", self, app, game)
        if ui:
            fz._aside("ui", "frenzy_resume", self, ui)
        self._sync()

    # ---- app protocol ---------------------------------------------------------

    def enter(self):
        self.dirty = True
        if self.view == _PLAY and self.game.phase != _OVER:
            self.app.hand_to(self.game.player)

    def update(self, q):
        app = self.app
        buf = q.buf
        for i in range(q.n):
            k = key(buf[i])
            if k < 0:
                continue
            if k == _BACK:
                # To the menu; the game stays saved with this very view (overlays
                # closed since the last decision are not saved otherwise).
                if self.game.phase != _OVER:
                    app.save(_KIND, self.game, self._pack())
                app.menu()
                return
            self._key(k)
            if app.screen is not self or app.tumbling:
                return

    def roll(self):
        """The tumble ended: the dice land now (values from the game's Dice)."""
        g = self.game
        ph = g.phase
        if self.view != _PLAY:
            return
        if ph == _COMMON:
            self._apply(_COMMON_ROLL)
        elif ph == _PH_ROLL:
            self._apply(_ROLL)
        elif ph == _DECIDE:
            seat = g.player
            self._apply(_ROLL)  # keep rolling: ends this step
            if g.phase == _PH_ROLL and g.player == seat:
                self._apply(_ROLL)  # and the dice roll at once
        self._settle()

    draw = frenzy_draw.draw  # draw(self, fb): the drawing lives in ui.frenzy_draw

    # ---- input ------------------------------------------------------------------

    def _key(self, k):
        v = self.view
        app = self.app
        if v == _WINNER:
            if k == _OK and app.elapsed(int.from_bytes(self.ov[_WIN_T0:], "big")) >= _WIN_GRACE:
                app.menu()
            return
        self.dirty = True
        if v == _WARN:
            if k == _PREV or k == _NEXT:
                self.cur ^= 1
                app.play(SELECT)
            elif k == _OK:
                self.view = _PLAY
                if self.items[self.cur] == _IT_YES:
                    self._apply(_STOP)
                    self._settle()
                else:
                    self._sync()
            return
        if v != _PLAY:
            if k == _OK:
                self._next_view()
                self._settle(False)
            return
        g = self.game
        ph = g.phase
        n = self.nitems
        if ph == _PH_WILD:
            if k == _PREV or k == _NEXT:
                # Every value may be declared: the cursor cycles through 1-6.
                self.wildv = (self.wildv + (0 if k == _NEXT else 4)) % 6 + 1
                app.play(SELECT)
            elif k == _OK:
                self._apply(_DECLARE | self.wildv)
                self._settle()
            return
        if k == _PREV or k == _NEXT:
            if n > 1:
                self.cur = (self.cur + (1 if k == _NEXT else n - 1)) % n
                app.play(SELECT)
            return
        if k != _OK or not n:
            return
        it = self.items[self.cur]
        if it <= _IT_COMMON:
            self.mask ^= (_COMMON_BIT if it == _IT_COMMON else 1 << it)
            self._sync()  # the selection's points and what to do about them
            app.play(SELECT)
        elif it == _IT_TAKE:
            if self.ok_take[self.mask]:
                self.ov[_TAKEN] = self.mask
                self._apply(_TAKE | self.mask)
                self._settle()
            else:
                app.play(NOPE)
        elif it == _IT_ROLL:
            if ph == _DECIDE and not self.roll_on:
                self._apply(_ROLL)  # Lockstep: the next roll comes in turn
                self._settle()
            else:
                app.start_roll()
        elif it == _IT_STOP:
            # Stopping below 400 before entering the score sheet asks first.
            seat = g.player
            run = g.running(seat) * (2 if g.common == 7 else 1)
            if not g.totals[seat] and run < _ENTRY:
                self.view = _WARN
                self._sync()
                self.cur = 0  # NO first: stopping for nothing takes a second press
            else:
                self._apply(_STOP)
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
                v = _FARKLE
                app.play(FARKLE_SOUND)
            elif t == "stopped_by":
                i = ov[_NN]
                if (sch == _LOCKSTEP or nt[1] == actor) and i < _NMAX:
                    ov[_NSF + i] = nt[1] << 4 | nt[2]
                    ov[_NRUN + 3 * i:_NRUN + 3 * i + 3] = min(nt[3], 0xFFFFFF).to_bytes(3, "big")
                    if not i:
                        v = _NOTICE
                    ov[_NN] = i + 1
            elif t == "fill":
                app.play(SAFE)
            elif t == "wild":
                app.play(LAND)  # the Common Die set on its face
            elif t == "stop":
                app.play(BANK)
            elif t == "round_end":
                ov[_SROUND] = nt[1] >> 8
                ov[_SROUND + 1] = nt[1] & 0xFF
                ov[_SFLAGS] = 1 if doubled else 0  # and no tie yet
                ov[_SIN] = was_in
                b = max(int.from_bytes(ov[_BEST:_BEST + 3], "big"), max(g.round_scores))
                ov[_BEST:_BEST + 3] = min(b, 0xFFFFFF).to_bytes(3, "big")
                v = _SUMMARY
            elif t == "tie":
                ov[_SFLAGS] = ov[_SFLAGS] & 1 | nt[1] << 4
            elif t == "win":
                v = _WINNER
            if v and ov[_NQ] < _QMAX:
                ov[_Q + ov[_NQ]] = v
                ov[_NQ] += 1
        if g.phase == _OVER:
            app.finish(_KIND, g, int.from_bytes(ov[_BEST:_BEST + 3], "big"), g.totals[g.winner])
        if self.view == _PLAY and ov[_NQ]:
            self._next_view()

    def _next_view(self):
        """Close the current overlay (a notice may have more pages); open the next.
        Both callers _settle() next, whose _sync() formats the view's texts: formatting
        them here too loaded ui.frenzy_text twice, the first time deep inside the
        decision (the fullest moment of a Frenzy game)."""
        ov = self.ov
        if self.view == _NOTICE and ov[_NI] + 1 < ov[_NN]:
            ov[_NI] += 1
            return
        if self.view == _NOTICE:
            ov[_NN] = 0
            ov[_NI] = 0
        n = ov[_NQ]
        if n:
            self.view = ov[_Q]
            ov[_Q:_Q + n - 1] = ov[_Q + 1:_Q + n]
            ov[_NQ] = n - 1
            if self.view == _WINNER:
                ov[_WIN_T0:] = min(self.app.now, 0xFFFFFFFF).to_bytes(4, "big")
                self.app.play(WIN)
            elif self.view == _NOTICE:
                self.app.play(SAFE)  # a riser filled
        else:
            self.view = _PLAY

    def _settle(self, save=True):
        """After a decision (save it, with the view: one write per decision) or a
        closed overlay (no write: Continue shows that overlay again): hand the device
        on when the deciding seat changed."""
        g = self.game
        self._sync()
        self.dirty = True
        if g.phase != _OVER and self.app.screen is self:
            if save:
                self.app.save(_KIND, g, self._pack())
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
        if v == _PLAY and ph == _PH_TAKE:
            # TAKE|m is legal exactly when m scores: asking the points of each mask
            # builds no list of selections (their garbage was the largest block
            # allocated during play).
            for m in range(1, 64):
                if g.points(m):
                    ok_take[m] = 1
        elif v == _PLAY and ph != _OVER:
            # What Game.legal() lists, without building its list: COMMON_ROLL or ROLL,
            # in DECIDE ROLL and STOP (and in WILD every value, which _key allows).
            if ph != _PH_WILD:
                can_roll = True
                can_stop = ph == _DECIDE
        self.rolling = False
        self.tumble_mask = 0
        if v == _PLAY:
            if ph == _PH_TAKE:
                for i in range(g.nrolled):
                    items[n] = i
                    n += 1
                for m in range(_COMMON_BIT + 1, 64):
                    if ok_take[m]:  # some selection can count the Common Die
                        items[n] = _IT_COMMON
                        n += 1
                        break
                items[n] = _IT_TAKE
                n += 1
            elif ph == _COMMON or ph == _PH_ROLL or ph == _DECIDE:
                if can_roll:
                    items[n] = _IT_ROLL
                    n += 1
                if can_stop:
                    items[n] = _IT_STOP
                    n += 1
                # Would ROLL give this same player the next roll at once? Relay:
                # always. Lockstep: only when nobody else still rolls in this step
                # or the next one (solo, or everyone else done).
                ro = ph != _DECIDE or g.schedule == _RELAY or g.players == 1
                if not ro:
                    ro = True
                    filled = g.riser(seat) == 5
                    after = False
                    for i in range(g.players):
                        s = (g.roller + i) % g.players
                        if s == seat:
                            after = True
                        elif g.in_round >> s & 1 and g.status(s) == _ROLLING and \
                                (after or not filled or g.riser(s) == 5):
                            ro = False  # plays this step after me, or the next before me
                            break
                self.roll_on = ro
                if can_roll and ro:
                    self.rolling = True
                    self.tumble_mask = 0x20 if ph == _COMMON else (1 << g.to_roll()) - 1
        elif v == _WARN:
            items[0] = _IT_NO
            items[1] = _IT_YES
            n = 2
        if n != self.nitems or self.cur >= n:
            self.cur = 0
            if ph == _PH_TAKE and v == _PLAY:
                self.mask &= 0x3F
        self.nitems = n
        # The texts.
        self.t[_T_HEAD] = "ROUND %d" % g.round
        if max(g.totals) >= _GOAL:
            self.t[_T_HEAD] += " TIE"  # the goal is reached: only the tied players play
        self.t[_T_SHEET] = "SHEET %d" % g.totals[seat]
        self.t[_T_RUN] = str(g.running(seat))
        self.t[_T_INFO] = ""
        self.t[_T_A] = ""
        self.t[_T_B] = ""
        self.t[_T_C] = ""
        if v != _SUMMARY and v != _WINNER:
            # The table's 12 texts go with its overlay (ui.frenzy_table makes them).
            self.t_rows = self.t_cols = self.t_tot = ()
        if v == _PLAY:
            self.t[_T_PTS] = ""
            m = self.mask
            if ph == _PH_TAKE and not m:
                self.t[_T_INFO] = "OK: PICK SCORING DICE"
            elif ph == _PH_TAKE:
                # The points of the selection, and a line saying what to do about
                # it: a first-time player sees why TAKE cannot be pressed yet.
                p = g.points(m)
                self.t[_T_PTS] = "+%d" % p if p else "+0"
                if ok_take[m]:
                    self.t[_T_INFO] = "TAKE: SET THEM ASIDE"
                elif m == _COMMON_BIT:
                    self.t[_T_INFO] = "ADD A ROLLED DIE TOO"
                else:
                    self.t[_T_INFO] = "NOT ALL OF THESE SCORE"
            elif ph == _COMMON:
                self.t[_T_INFO] = "SHAKE THE COMMON DIE"
            elif ph == _PH_WILD:
                self.t[_T_INFO] = "WILD: PICK ITS VALUE"
            elif ph == _PH_ROLL or ph == _DECIDE:
                n = g.to_roll()
                if self.app.settings[_S_ODDS] and n:
                    # core.odds.farkle_risk without its checks (n is 1-5 here)
                    r = WILD_RISK[n] if g.common == 8 and not g.wild else \
                        fz.RISK[(n - 1) * 7 + (g.usable() or 0)]
                    self.t[_T_INFO] = "FARKLE RISK %d%%" % r
                if ph == _DECIDE and g.riser(seat) == 5:
                    self.t[_T_PTS] = "FULL!"
        elif v == _FARKLE:
            c = COLOURS[self.ov[_FSEAT]]
            lost = int.from_bytes(self.ov[_FLOST:_FLOST + 3], "big")
            # Nothing to lose on a round's first roll: no "LOST 0".
            self.t[_T_A] = "%s LOST %d" % (c, lost) if lost else c + " FARKLED"
            self.t[_T_B] = "DONE FOR THIS ROUND"
        else:
            fz._aside("ui", "frenzy_table" if v >= _SUMMARY else "frenzy_text", self, g, v,
                      seat)
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
