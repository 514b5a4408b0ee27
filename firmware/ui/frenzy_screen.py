"""Farkle Frenzy: the game screen (state, input, texts and drawing).

One screen object shows the whole game. Its PLAY view follows the core's phase:
  PH_COMMON  the round's roller shakes the Common Die (shake, or OK on ROLL)
  PH_ROLL    the player's dice are rolled (shake, or OK on ROLL); odds hint shown
  PH_WILD    the roller picks the WILD value with PREV/NEXT, OK declares it; the
             picker starts on the value that scores best, shows the best points
             of the value under the cursor, and a value that makes the roll a
             Farkle takes a second OK
  PH_TAKE    the dice with a cursor: PREV/NEXT move over the dice some selection
             counts (the Common Die too, when usable), OK toggles one; OK on TAKE sets
             the selection aside (offered only when it scores); the selection's points
             are shown live. It opens on TAKE with the best selection marked (the most
             points): one OK takes it
  PH_DECIDE  ROLL (keep rolling; a shake does the same) or STOP (bank); stopping below
             400 before entering the score sheet asks first (the WARN view)
Every choice bar starts on the same item: TAKE (with the best selection), ROLL, NO
(never where the cursor was in the previous phase).
Overlays queued by a decision's notes are shown in order, each closed with OK:
FARKLE, the "GREEN filled the riser: you stop with 450" notice, the round summary,
the winner. Then the device is handed to the next deciding player (app.hand_to shows
"Pass to ..." only when the seat changes). A Farkle folds into the next screen where
nothing hides it (_fold): the summary at a round's end, the pass screen in Lockstep.

Relay keeps each player's round private until the summary: notices about other
seats are only shown in Lockstep, where everyone plays in view. A CPU's round is
hidden too while a human still plays after it in this round (`hid`, its seat: the
screen says it is playing, not its dice, scores or sounds; ui.frenzy_cpu plays it
without its lines and draws it); the summary tells it. A CPU after every human plays
in view, as in Lockstep. Where the choice bar
has one item (the Common Die's and a round's first roll), PREV or NEXT show the
SCORES view: every seat's sheet total, and this round's running totals as far as
the schedule shows them (Lockstep: all; Relay: the player's own); any key closes it.

The ui bytes (for Continue) are `_pack()`: the open overlays with their data, the
cursor, the selection and the best round so far, so a restored game shows exactly
the same view (`_restore`).

Texts are formatted when the state changes (`_sync`), never while drawing, so a frame
allocates nothing. 128x64 layout of the play view:
  y 0   colour label, round, the player's score sheet total
  y 9   the rolled dice (17 px) | the Common Die at the right
  y 27  the cursor caret (or the WILD mark under the Common Die)
  y 33  the running total in big digits (x2 when the Common Die shows 2X), the
        selection's points, the riser (5 steps, filled as dice go on it); 3 rows
        below the caret, which read as one glyph with the digit under it (a "Ô")
  y 48  one info line: the odds hint ("FARKLE RISK 8%") or what to do
  y 57  the choices: TAKE / ROLL / STOP (inverted = cursor; underlined = not possible),
        in the small font, inside the last display page: a cursor move between a die
        and TAKE sends 2 pages (the caret's and this one), not 3
"""
from core.dice import TWOX, WILD
from core.frenzy import COMMON_ROLL, DECLARE, ENTRY, FARKLED, GOAL, LOCKSTEP, PH_COMMON, PH_DECIDE, \
    PH_OVER, PH_ROLL, PH_TAKE, PH_WILD, RELAY, RISK, ROLL, ROLLING, STOP, TAKE
from core.frenzy_score import COMMON_BIT, ones_table, wild_into
from core.games import FRENZY
from ui import gfx
from ui.gfx import DIE_L
from ui.screens import BACK, COLOURS, DIRTY_CURSOR, DIRTY_DICE, DIRTY_PICK, DIRTY_ROLL, NEXT, OK, PREV, Screen, \
    end_choices, grace, key, mark, rematch
from system.store import S_ODDS
from ui.sounds import BANK, FARKLE, LAND, NOPE, SAFE, SELECT, WIN

from micropython import const

# Views: V_PLAY follows the game's phase; the others are overlays, each closed with OK.
V_PLAY = const(0)
V_FARKLE = const(1)
V_NOTICE = const(2)  # someone filled the riser: who stops with what
V_WARN = const(3)  # stop below 400 before entering the score sheet?
V_SUMMARY = const(4)
V_WINNER = const(5)
V_SCORES = const(6)  # PREV/NEXT where the bar has one choice: every total in view

# Cursor items (self.items holds them for the current view); 0-4 are the rolled dice.
IT_COMMON = const(5)
IT_TAKE = const(6)
IT_ROLL = const(7)
IT_STOP = const(8)
IT_NO = const(9)
IT_YES = const(10)

_QMAX = const(6)
_NMAX = const(3)
_WIN_GRACE = const(600)  # ms the winner stays before OK leaves

# self.ov: the overlays' and selection's state, kept at its offsets in the ui bytes
# (_pack; bytes 1 and 9-11 are filled from the screen's attributes there).
_UI_LEN = const(49)
_UI_VERSION = const(2)
_VIEW = const(1)     # the view shown
_NQ = const(2)       # overlays queued
_Q = const(3)        # the queue (_QMAX bytes)
_CUR = const(9)      # the cursor
_MASK = const(10)    # PH_TAKE: the selection being built
_WILDV = const(11)   # PH_WILD: the value offered
_TAKEN = const(12)   # PH_DECIDE: the mask just set aside (drawing)
_DICE = const(13)    # the dice row as shown (5 bytes)
_ND = const(18)
_FSEAT = const(19)   # FARKLE: the seat that farkled
_FLOST = const(20)   # FARKLE: the points it lost (3 bytes)
_NN = const(23)      # "filled the riser" notices
_NI = const(24)      # the notice shown
_NSF = const(25)     # per notice: stopped seat << 4 | filling seat (_NMAX bytes)
_NRUN = const(28)    # per notice: the stopped seat's total (3 bytes each)
_SROUND = const(37)  # the summarised round (2 bytes)
_SFLAGS = const(39)  # bit 0: 2X doubled this round; high nibble: seats in a tie round next
_SIN = const(40)     # seats that played the summarised round
_BEST = const(41)    # best counted round score so far, for the stats (3 bytes)
_SCUT = const(44)    # per seat: a later fill cut its round: filler << 6 | step (1-63)
_SFARK = const(48)   # seats that farkled in the summarised round
_WIN_T0 = const(49)  # when the winner was shown (4 bytes; past the ui bytes)

# Drawing
_DX = const(19)   # dice pitch
_CX = const(106)  # Common Die x
_DY = const(9)    # dice row y
_BY = const(57)   # buttons row y: label rows 57-63, page 7 alone
_UNKNOWN = const(9)  # gfx.die draws "?"

# Farkle risk (%, rounded) of the roller's first roll of n dice while the WILD is
# not declared yet, index n. The roller picks the WILD's value after seeing the roll,
# so the roll farkles only when no value helps: no 1, no 5 and no pair (a pair plus
# the WILD is a triple), i.e. n different dice among 2, 3, 4, 6: 4!/(4-n)! of the
# 6^n rolls: 4/6, 12/36, 24/216, 24/1296, 0.
WILD_RISK = b"\x00\x43\x21\x0b\x02\x00"


class FrenzyScreen(Screen):
    NAME = "frenzy"
    KIND = FRENZY

    def __init__(self, app, game, ui=None):
        """ui: Continue's ui bytes (_pack()), or None for a new game. Bytes of another
        layout (from an older firmware) are ignored: the game itself is intact, so it
        resumes in its plain play view."""
        Screen.__init__(self, app)
        self.game = game
        self.view = V_PLAY
        self.items = bytearray(8)  # the cursor's items in the current view
        self.nitems = 0
        self.cur = 0
        self.mask = 0  # PH_TAKE: the selection being built
        self.wildv = 1  # PH_WILD: the value offered
        self.wbest = bytearray(7)  # PH_WILD: per value, the roll's best points / 50
        self.wask = False  # PH_WILD: OK on a Farkle value asked "sure?"
        self.ok_take = bytearray(64)  # PH_TAKE: points // 50 of TAKE|mask (0: not legal)
        self.scoring = 0  # PH_TAKE: the dice (mask) some selection counts
        self.best = 0  # PH_TAKE: the selection TAKE opens with (the most points)
        self.scored = -1  # the roll ok_take was made for (see _sync)
        self.roll_on = False  # PH_DECIDE: ROLL rolls at once for this player
        self.hid = -1  # the CPU seat whose Relay round is hidden (drawn once), else -1
        self.by_cpu = 0  # the last decision was a CPU's: its Farkle closes by itself
        # The dice row as shown is a snapshot, so overlays keep the roll they are about
        # (the core keeps the dice past nrolled at 0).
        ov = self.ov = bytearray(_UI_LEN + 4)
        ov[_DICE:_DICE + 5] = game.rolled
        ov[_ND] = game.nrolled
        # The texts, formatted when the state changes (never while drawing): the
        # play view's, then an overlay's lines from the top.
        self.t_head = ""  # "ROUND 3"
        self.t_sheet = ""  # the player's score sheet total
        self.t_run = ""  # the running total
        self.t_pts = ""  # the selection's points, or "FULL!"
        self.t_info = ""  # the odds hint or what to do
        self.t_line1 = ""
        self.t_line2 = ""
        self.t_line3 = ""
        # The summary's and the winner's table (per row colour, round score, total):
        # made when one of them is shown, () otherwise.
        self.t_rows = self.t_cols = self.t_tot = self.t_tags = ()
        self.rank = b""  # the winner view: the other seats' rows by total
        self.t_fark = ""  # "RED FARKLED: 2 3 4", a Farkle folded into the summary
        self.note = None  # lines for the pass screen (a Farkle folded into it)
        self.bar = 255  # the view << 4 | phase the cursor was placed for
        if ui:
            self._restore(ui)
            self.bar = self.view << 4 | game.phase  # the cursor as it was saved
        self._sync()

    # ---- app protocol ---------------------------------------------------------

    def enter(self):
        self.dirty = True
        if self.view == V_PLAY and self.game.phase != PH_OVER:
            self.app.hand_to(self.game.player, self.note)  # what happened, if folded
        self.note = None

    def leave(self):
        """BACK: to the menu; the game stays saved with this very view (overlays
        closed since the last decision are not saved otherwise)."""
        if self.game.phase != PH_OVER:
            self.app.save(self.KIND, self.game, self._pack())
        self.app.menu()

    def close_view(self):
        """OK on an overlay: the next one, or the play view."""
        self._next_view()
        self._settle(False)

    def decide(self, d):
        """Apply decision d as the play view's OK does (ui.cpu_turn's too)."""
        if d & 0xF00 == TAKE:
            self.ov[_TAKEN] = self.mask
        self._apply(d)
        self._settle()

    def update(self, q):
        app = self.app
        buf = q.buf
        g = self.game
        v = self.view
        if g.phase != PH_OVER and (
                self.by_cpu and (v == V_FARKLE or v == V_NOTICE) if v != V_PLAY
                else app.cpus[g.player]):
            app.cpu_turn(self, q)  # a CPU plays (or its Farkle shows)
            return
        for i in range(q.n):
            k = key(buf[i])
            if k < 0:
                continue
            if k == BACK:
                self.leave()
                return
            self._key(k)
            if app.screen is not self or app.tumbling:
                return

    def roll(self):
        """The tumble ended: the dice land now (values from the game's Dice)."""
        g = self.game
        ph = g.phase
        if self.view != V_PLAY:
            return
        if ph == PH_COMMON:
            self._apply(COMMON_ROLL)
        elif ph == PH_ROLL:
            self._apply(ROLL)
        elif ph == PH_DECIDE:
            seat = g.player
            self._apply(ROLL)  # keep rolling: ends this step
            if g.phase == PH_ROLL and g.player == seat:
                self._apply(ROLL)  # and the dice roll at once
        self._settle()

    # ---- input ------------------------------------------------------------------

    def _key(self, k):
        v = self.view
        app = self.app
        if v == V_WINNER:
            # REMATCH (first) or MENU; after a grace, so a mashed OK is not lost on it.
            if k == PREV or k == NEXT:
                self.cur ^= 1
                self.dirty = mark(self.dirty, DIRTY_CURSOR)  # the choices alone (draw)
                app.play(SELECT)
            elif k == OK and grace(app, int.from_bytes(self.ov[_WIN_T0:], "big"), _WIN_GRACE):
                if self.cur:
                    app.menu()
                else:
                    rematch(app, self.KIND)
            return
        was = self.dirty
        self.dirty = True
        if v == V_SCORES:
            self.view = V_PLAY  # any key closes it
            self._sync()
            return
        if v == V_WARN:
            if k == PREV or k == NEXT:
                self.cur ^= 1
                app.play(SELECT)
            elif k == OK:
                self.view = V_PLAY
                if self.items[self.cur] == IT_YES:
                    self._apply(STOP)
                    self._settle()
                else:
                    self._sync()
            return
        if v != V_PLAY:
            if k == OK:
                self.close_view()
            return
        g = self.game
        ph = g.phase
        n = self.nitems
        if ph == PH_WILD:
            if k == PREV or k == NEXT:
                # Every value may be declared: the cursor cycles through 1-6.
                self.wildv = (self.wildv + (0 if k == NEXT else 4)) % 6 + 1
                self.wask = False
                self._texts()
                app.play(SELECT)
            elif k == OK and not self.wbest[self.wildv] and not self.wask:
                self.wask = True  # this value makes the roll a Farkle: sure?
                self._texts()
                app.play(NOPE)
            elif k == OK:
                self.wask = False
                self._apply(DECLARE | self.wildv)
                self._settle()
            return
        if k == PREV or k == NEXT:
            if n > 1:
                self.cur = (self.cur + (1 if k == NEXT else n - 1)) % n
                self.dirty = mark(was, DIRTY_CURSOR)  # the caret and the choices alone
            else:
                self.view = V_SCORES  # nothing to choose: the scores instead
                self._sync()
            app.play(SELECT)
            return
        if k != OK or not n:
            return
        it = self.items[self.cur]
        if it <= IT_COMMON:
            self.mask ^= (COMMON_BIT if it == IT_COMMON else 1 << it)
            self._sync()  # the selection's points and what to do about them
            # Not the header nor the running total.
            self.dirty = mark(was, DIRTY_PICK)
            app.play(SELECT)
        elif it == IT_TAKE:
            if self.ok_take[self.mask]:
                self.decide(TAKE | self.mask)
            else:
                app.play(NOPE)
        elif it == IT_ROLL:
            if ph == PH_DECIDE and not self.roll_on:
                self._apply(ROLL)  # Lockstep: the next roll comes in turn
                self._settle()
            else:
                self.dirty = was  # start_roll() marks what the tumble changes (DIRTY_ROLL)
                app.start_roll()
        elif it == IT_STOP:
            # Stopping below 400 before entering the score sheet asks first.
            seat = g.player
            run = g.running(seat) * (2 if g.common == TWOX else 1)
            if not g.totals[seat] and run < ENTRY:
                self.view = V_WARN
                self._sync()
                self.cur = 0  # NO first: stopping for nothing takes a second press
            else:
                self._apply(STOP)
                self._settle()

    # ---- decisions and their notes ----------------------------------------------

    def _apply(self, d):
        g = self.game
        app = self.app
        ov = self.ov
        actor = g.player
        step = min(g.step, 63)  # a fill's cut happens in the step just played
        self.by_cpu = app.cpus[actor]
        lost = g.running(actor)
        doubled = g.common == TWOX  # as it is before a round end
        was_in = g.in_round
        hide = self.hid >= 0  # the decision of a hidden CPU round: no sound, no overlay
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
                if not hide:
                    v = V_FARKLE
                    app.play(FARKLE)
            elif t == "stopped_by":
                s = nt[1]
                ov[_SCUT + s] = nt[2] << 6 | step
                i = ov[_NN]
                if (sch == LOCKSTEP or s == actor and not hide) and i < _NMAX:
                    # bit 3: below the entry, before the sheet: this counts 0
                    zero = not g.totals[s] and nt[3] * (2 if doubled else 1) < ENTRY
                    ov[_NSF + i] = s << 4 | nt[2] | (8 if zero else 0)
                    ov[_NRUN + 3 * i:_NRUN + 3 * i + 3] = min(nt[3], 0xFFFFFF).to_bytes(3, "big")
                    if not i:
                        v = V_NOTICE
                    ov[_NN] = i + 1
            elif t == "common":
                ov[_SCUT:_SCUT + 4] = b"\0\0\0\0"  # a new round: no cuts yet
            elif hide:
                pass  # (its sounds would tell its round)
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
                f = 0
                for s in range(g.players):
                    if was_in >> s & 1 and g.status(s) == FARKLED:
                        f |= 1 << s
                ov[_SFARK] = f
                b = max(int.from_bytes(ov[_BEST:_BEST + 3], "big"), max(g.round_scores))
                ov[_BEST:_BEST + 3] = min(b, 0xFFFFFF).to_bytes(3, "big")
                v = V_SUMMARY
                if g.players == 1:
                    # Solo, the summary would show nothing new (the round's score was
                    # on screen, a Farkle has its own): a line says it, no press.
                    v = 0
                    if not f and g.phase != PH_OVER:  # (the end says it all)
                        from ui.frenzy_tables import solo_line
                        app.say(solo_line(g, nt[1]))
            elif t == "tie":
                ov[_SFLAGS] = ov[_SFLAGS] & 1 | nt[1] << 4
            elif t == "win":
                v = V_WINNER
            if v and ov[_NQ] < _QMAX:
                ov[_Q + ov[_NQ]] = v
                ov[_NQ] += 1
        self._fold(actor)
        if g.phase == PH_OVER:
            app.finish(self.KIND, g, int.from_bytes(ov[_BEST:_BEST + 3], "big"),
                       g.totals[g.winner], g.round if g.players == 1 else 0)
        if self.view == V_PLAY and ov[_NQ]:
            self._next_view()

    def _fold(self, actor):
        """A Farkle's screen is no choice: it folds into the next screen, so it costs
        no press. At a round's end the summary tells it (the FARKLE row, the dice in
        the footer); in Lockstep, where everyone sees everything, a Farkle before
        the device goes to another human is told on the pass screen. (Relay hides a
        round until the summary: there the Farkle keeps its screen.)"""
        ov = self.ov
        g = self.game
        n = ov[_NQ]
        self.t_fark = ""
        if not n or ov[_Q] != V_FARKLE:
            return  # (a Farkle's screen is queued first: its roll's first note)
        t = COLOURS[ov[_FSEAT]] + " FARKLED:"
        for i in range(ov[_ND]):
            t += " %d" % ov[_DICE + i]
        summary = False
        for i in range(1, n):
            summary = summary or ov[_Q + i] == V_SUMMARY
        if summary:
            ov[_Q:_Q + n - 1] = ov[_Q + 1:_Q + n]
            ov[_NQ] = n - 1
            self.t_fark = t
        elif n == 1 and g.schedule == LOCKSTEP and g.player != actor and \
                self.app.passes(g.player):
            ov[_NQ] = 0
            lost = int.from_bytes(ov[_FLOST:_FLOST + 3], "big")
            self.note = (t, "LOST %d" % lost) if lost else (t,)

    def _next_view(self):
        """Close the current overlay (a notice may have more pages); open the next.
        Both callers _settle() next, whose _sync() formats the view's texts."""
        ov = self.ov
        if self.view == V_NOTICE and ov[_NI] + 1 < ov[_NN]:
            ov[_NI] += 1
            return
        if self.view == V_NOTICE:
            ov[_NN] = 0
            ov[_NI] = 0
        n = ov[_NQ]
        if n:
            self.view = ov[_Q]
            ov[_Q:_Q + n - 1] = ov[_Q + 1:_Q + n]
            ov[_NQ] = n - 1
            if self.view == V_WINNER:
                ov[_WIN_T0:] = min(self.app.now, 0xFFFFFFFF).to_bytes(4, "big")
                self.app.play(WIN)
            elif self.view == V_NOTICE:
                self.app.play(SAFE)  # a riser filled
        else:
            self.view = V_PLAY

    def _settle(self, save=True):
        """After a decision (save it, with the view: one write per decision) or a
        closed overlay (no write: Continue shows that overlay again): hand the device
        on when the deciding seat changed."""
        g = self.game
        self._sync()
        if self.hid < 0:
            self.dirty = True
        if g.phase != PH_OVER and self.app.screen is self:
            if save:
                self.app.save(self.KIND, g, self._pack())
            self.enter()

    # ---- derived state and texts (on changes only) ---------------------------------

    def _sync(self):
        g = self.game
        ph = g.phase
        items = self.items
        v = self.view
        n = 0
        can_roll = can_stop = False
        ok_take = self.ok_take
        if v == V_PLAY and ph == PH_TAKE:
            # TAKE|m is legal exactly when m scores: the roll's table of every mask's
            # points (no list of selections: their garbage was the largest block
            # allocated during play), made again only when the roll changed, not per
            # toggled die (the frame model: 63 points() calls were ~1 s on an ESP32).
            st = g.nrolled | (g.usable() or 0) << 3
            for i in range(g.nrolled):
                st = st << 3 | g.rolled[i]
            if st != self.scored:
                self.scored = st
                g.scores(ok_take)
                # The dice some selection counts (the cursor offers only these) and
                # the best selection, the most points (no roll has two such:
                # test_ui_presses checks every roll).
                sc = best = 0
                for m in range(1, 64):
                    p = ok_take[m]
                    if p:
                        sc |= m
                        if p > ok_take[best]:
                            best = m
                self.scoring = sc
                self.best = best
        else:
            self.scored = -1
            for i in range(64):
                ok_take[i] = 0
            # What Game.legal() lists, without building its list: COMMON_ROLL or ROLL,
            # in PH_DECIDE ROLL and STOP (and in PH_WILD every value, which _key allows).
            if v == V_PLAY and ph != PH_OVER and ph != PH_WILD:
                can_roll = True
                can_stop = ph == PH_DECIDE
        self.rolling = False
        self.tumble_mask = 0
        if v == V_PLAY:
            if ph == PH_TAKE:
                sc = self.scoring
                for i in range(g.nrolled):
                    if sc >> i & 1:
                        items[n] = i
                        n += 1
                if sc & COMMON_BIT:  # some selection can count the Common Die
                    items[n] = IT_COMMON
                    n += 1
                items[n] = IT_TAKE
                n += 1
            elif ph == PH_COMMON or ph == PH_ROLL or ph == PH_DECIDE:
                if can_roll:
                    items[n] = IT_ROLL
                    n += 1
                if can_stop:
                    items[n] = IT_STOP
                    n += 1
                self.roll_on = self._rolls_on()
                if can_roll and self.roll_on:
                    self.rolling = True
                    self.tumble_mask = 0x20 if ph == PH_COMMON else (1 << g.to_roll()) - 1
        elif v == V_WARN:
            items[0] = IT_NO
            items[1] = IT_YES
            n = 2
        # Every choice bar starts on the same item (TAKE, ROLL, NO): a new view or
        # phase puts the cursor there, so OK out of habit does the same thing each
        # time (the index once carried over from TAKE's list to STOP).
        bar = v << 4 | ph
        if v == V_PLAY and ph == PH_WILD:
            self._wild_best(bar != self.bar)
        if bar != self.bar or n != self.nitems or self.cur >= n:
            self.cur = 0
            if ph == PH_TAKE and v == V_PLAY and bar != self.bar and \
                    not self.app.cpus[g.player]:
                # TAKE's bar opens on TAKE with the best selection marked: one OK
                # takes it; the dice stay free to change first.
                self.mask = self.best
                self.cur = n - 1
        self.nitems = n
        self.bar = bar
        if self.app.cpus[g.player]:
            self.rolling = False  # a CPU rolls when it is ready (ui.cpu_turn)
        was = self.hid
        self.hid = -1
        if v == V_PLAY and ph != PH_COMMON and self.app.cpus[g.player]:
            from ui.frenzy_cpu import hides
            self.hid = hides(self)
        self._texts()
        if was < 0 or was != self.hid:
            self.dirty = True  # (a hidden round's decisions change nothing on screen)

    def _wild_best(self, start):
        """Per WILD value, the best points of the roll with the WILD counted as it;
        start: put the picker on the best value (the lowest of equals)."""
        g = self.game
        wb = self.wbest
        # Every value's best at once (378 points() calls were ~200 ms on an ESP32, in
        # the frame the dice land: the frame model).
        wild_into(g.rolled, g.nrolled, ones_table(g.ones), wb)
        top = 0
        for v in range(1, 7):
            if wb[v] > wb[top]:
                top = v
        if start:
            self.wildv = top or 1
            self.wask = False

    def _rolls_on(self):
        """Would ROLL give this same player the next roll at once? Relay: always.
        Lockstep: only when nobody else still rolls in this step or the next one
        (solo, or everyone else done)."""
        g = self.game
        if g.phase != PH_DECIDE or g.schedule == RELAY or g.players == 1:
            return True
        seat = g.player
        filled = g.riser(seat) == 5
        after = False
        for i in range(g.players):
            s = (g.roller + i) % g.players
            if s == seat:
                after = True
            elif g.in_round >> s & 1 and g.status(s) == ROLLING and \
                    (after or not filled or g.riser(s) == 5):
                return False  # plays this step after me, or the next before me
        return True

    def _texts(self):
        g = self.game
        ph = g.phase
        seat = g.player
        v = self.view
        self.t_head = "ROUND %d" % g.round
        if max(g.totals) >= GOAL:
            self.t_head += " TIE"  # the goal is reached: only the tied players play
        self.t_sheet = "SHEET %d" % g.totals[seat]
        self.t_run = str(g.running(seat))
        self.t_info = ""
        self.t_line1 = ""
        self.t_line2 = ""
        self.t_line3 = ""
        if v != V_SUMMARY and v != V_WINNER and v != V_SCORES:
            self.t_rows = self.t_cols = self.t_tot = self.t_tags = ()  # with their overlay
        if v == V_PLAY:
            self.t_pts = ""
            m = self.mask
            if ph == PH_TAKE and self.app.cpus[seat]:
                # A CPU picks its dice one by one: a part of its pick that does not
                # score yet is no mistake, and a human's hints would read as one.
                p = self.ok_take[m] * 50
                self.t_pts = "+%d" % p if p else ""
                self.t_info = COLOURS[seat] + " PICKS ITS DICE"
            elif ph == PH_TAKE and not m:
                self.t_info = "OK: PICK SCORING DICE"
            elif ph == PH_TAKE:
                # The points of the selection, and a line saying what to do about
                # it: a first-time player sees why TAKE cannot be pressed yet.
                p = self.ok_take[m] * 50  # the roll's table (_sync)
                self.t_pts = "+%d" % p if p else "+0"
                if self.ok_take[m]:
                    self.t_info = "TAKE: SET THEM ASIDE"
                elif m == COMMON_BIT:
                    self.t_info = "ADD A ROLLED DIE TOO"
                else:
                    self.t_info = "NOT ALL OF THESE SCORE"
            elif ph == PH_COMMON:
                self.t_info = "SHAKE THE COMMON DIE"
            elif ph == PH_WILD:
                b = self.wbest[self.wildv] * 50
                self.t_pts = "+%d" % b if b else "FARKLE"
                self.t_info = "FARKLE! OK AGAIN: SET IT" if self.wask else \
                    "WILD: PICK ITS VALUE"
            elif ph == PH_ROLL or ph == PH_DECIDE:
                n = g.to_roll()
                if self.app.settings[S_ODDS] and n:
                    # host_only.odds.farkle_risk without its checks (n is 1-5 here)
                    r = WILD_RISK[n] if g.common == WILD and not g.wild else \
                        RISK[(n - 1) * 7 + (g.usable() or 0)]
                    self.t_info = "FARKLE RISK %d%%" % r
                if ph == PH_DECIDE and g.riser(seat) == 5:
                    self.t_pts = "FULL!"
        elif v == V_FARKLE:
            c = COLOURS[self.ov[_FSEAT]]
            lost = int.from_bytes(self.ov[_FLOST:_FLOST + 3], "big")
            # Nothing to lose on a round's first roll: no "LOST 0".
            self.t_line1 = "%s LOST %d" % (c, lost) if lost else c + " FARKLED"
            self.t_line2 = "DONE FOR THIS ROUND"
        elif v == V_NOTICE:
            self._notice_texts()
        elif v == V_WARN:
            self.t_line1 = "BELOW 400: COUNTS 0."
            self.t_line2 = "STOP ANYWAY?"
            r = g.running(seat)
            self.t_line3 = "ROUND SCORE %d" % (r * 2 if g.common == TWOX else r)
        elif v == V_SUMMARY:
            # The tables' texts and drawing are their own module, loaded when first
            # shown (the game's start, when the heap is fullest, holds less code).
            from ui.frenzy_tables import summary_texts
            summary_texts(self)
        elif v == V_SCORES:
            from ui.frenzy_tables import scores_texts
            scores_texts(self)
        else:
            from ui.frenzy_tables import winner_texts
            winner_texts(self)

    def _notice_texts(self):
        """'GREEN FILLED THE RISER: / YOU STOP WITH / 450', for the notice shown."""
        ov = self.ov
        i = ov[_NI]
        s = ov[_NSF + i] >> 4
        self.t_line1 = "%s FILLED THE RISER:" % COLOURS[ov[_NSF + i] & 3]
        if s == self.app.holder or self.game.players == 1:
            self.t_line2 = "YOU STOP WITH"
        else:
            self.t_line2 = "%s STOPS WITH" % COLOURS[s]
        j = _NRUN + 3 * i
        self.t_line3 = str(ov[j] << 16 | ov[j + 1] << 8 | ov[j + 2])
        if ov[_NSF + i] & 8:
            self.t_info = "BELOW 400: COUNTS 0"

    # ---- ui bytes for Continue --------------------------------------------------------

    def _pack(self):
        b = self.ov[:_UI_LEN]
        b[0] = _UI_VERSION
        b[_VIEW] = self.view
        b[_CUR] = self.cur
        b[_MASK] = self.mask
        b[_WILDV] = self.wildv
        return b

    def _restore(self, b):
        """The view _pack() saved; bytes of another layout are ignored."""
        ok = len(b) == _UI_LEN and b[0] == _UI_VERSION and b[_VIEW] <= V_SCORES \
            and b[_NQ] <= _QMAX and b[_ND] <= 5 and b[_NN] <= _NMAX
        for i in range(_QMAX):
            ok = ok and b[_Q + i] <= V_WINNER
        if not ok:
            return
        ov = self.ov
        ov[:_UI_LEN] = b
        self.view = b[_VIEW]
        self.cur = b[_CUR]
        self.mask = b[_MASK] & 0x3F
        self.wildv = b[_WILDV] if 1 <= b[_WILDV] <= 6 else 1
        ov[_TAKEN] &= 0x3F
        ov[_FSEAT] &= 3
        if b[_NI] >= b[_NN]:
            ov[_NI] = 0
        for i in range(_NMAX):
            ov[_NSF + i] &= 0x3B  # stopped seat << 4 | counts 0 << 3 | filling seat
        ov[_SFLAGS] &= 0xF1
        if self.view == V_WINNER and self.game.phase != PH_OVER:
            self.view = V_PLAY
        if self.view == V_NOTICE and not b[_NN]:
            self.view = V_PLAY
        if self.view == V_WINNER:
            # The grace before OK leaves starts again.
            ov[_WIN_T0:_WIN_T0 + 4] = min(self.app.now, 0xFFFFFFFF).to_bytes(4, "big")

    # ---- drawing (allocates nothing: every string was formatted by _sync) -------------

    def draw(self, fb):
        v = self.view
        d = self.dirty
        if d is not True and d >= DIRTY_DICE and v != V_PLAY:
            if v == V_WINNER and d == DIRTY_CURSOR:
                fb.fill_rect(0, 55, 128, 9, 0)  # REMATCH / MENU: the bar alone
                end_choices(fb, self.cur)
                return
            fb.fill(0)  # a frame over the last one (_draw_play): not this view
        if v == V_PLAY:
            self._draw_play(fb)
        elif v == V_FARKLE:
            gfx.center(fb, "FARKLE", 1, 1, gfx.MEDIUM, 2)
            ov = self.ov
            n = ov[_ND]
            x0 = (128 - (n * _DX - 2)) // 2
            for i in range(n):
                gfx.die(fb, x0 + i * _DX, 19, ov[_DICE + i])
            gfx.center(fb, self.t_line1, 40, 1, gfx.MEDIUM)
            gfx.center(fb, self.t_line2, 50, 1, gfx.MEDIUM)
            gfx.right(fb, "OK", 127, 58)
        elif v == V_NOTICE:
            gfx.banner(fb, "RISER FILLED", 0)
            gfx.center(fb, self.t_line1, 16)
            gfx.center(fb, self.t_line2, 26, 1, gfx.MEDIUM)
            gfx.center(fb, self.t_line3, 38, 1, gfx.MEDIUM, 2)
            gfx.text(fb, self.t_info, 2, 58)
            gfx.right(fb, "OK", 127, 58)
        elif v == V_WARN:
            gfx.banner(fb, "STOP?", 0)
            gfx.center(fb, self.t_line1, 16, 1, gfx.MEDIUM)
            gfx.center(fb, self.t_line2, 28, 1, gfx.MEDIUM)
            gfx.text(fb, self.t_line3, 4, 41, 1, gfx.MEDIUM)
            x = 40  # NO and YES about the middle
            for i in range(2):
                x = _button(fb, "NO" if self.items[i] == IT_NO else "YES", x, i == self.cur)
                x += 16
        else:  # the summary, the scores, the winner
            from ui.frenzy_tables import draw
            draw(self, fb)

    def _draw_play(self, fb):
        g = self.game
        app = self.app
        ph = g.phase
        seat = g.player
        if self.hid >= 0:
            from ui.frenzy_cpu import draw_hidden
            draw_hidden(self, fb)
            return
        tumbling = app.tumbling
        frame = app.frame
        # DIRTY_DICE, a tumble's frame (app.step): fb holds the last one, the tumbling
        # dice are erased and drawn again, what does not move is drawn over itself, the
        # rest is left (the same pixels as a full draw: host_tests/test_tumble_draw.py).
        # DIRTY_ROLL (app.start_roll: the tumble starts): the same, and first the
        # dice row (the dice set aside go), the info line and the choices are erased.
        rolled = self.dirty == DIRTY_ROLL
        if rolled:
            if ph != PH_COMMON:
                fb.fill_rect(0, _DY, _CX - 5, DIE_L + 1, 0)
            fb.fill_rect(0, 48, 128, 16, 0)
        dice = self.dirty == DIRTY_DICE or rolled
        # DIRTY_CURSOR (_key: PREV/NEXT over the dice or the choices): only the
        # caret's rows under the dice and the choices' row are erased and drawn again.
        moved = self.dirty == DIRTY_CURSOR
        if moved:
            fb.fill_rect(0, 27, 122, 6, 0)  # the caret and the WILD's mark (the riser from x 122)
            fb.fill_rect(0, _BY, 128, 64 - _BY, 0)
        # DIRTY_PICK (_key: OK on a die): the dice row down to the caret, the
        # selection's points (from where the running total ends), the info line and
        # the choices are erased and drawn again.
        picked = self.dirty == DIRTY_PICK
        if picked:
            fb.fill_rect(0, _DY, 122, 33 - _DY, 0)
            x = gfx.text(None, self.t_run, 0, 33, 1, gfx.MEDIUM, 2)
            if g.common == TWOX:
                x = gfx.text(None, "^2", x + 1, 40, 1, gfx.MEDIUM)
            fb.fill_rect(x, 40, 98 - x, 7, 0)
            fb.fill_rect(0, 48, 128, 16, 0)
        if not dice and not moved and not picked:
            # The header: colour label, round, the player's score sheet total.
            w = gfx.label(fb, COLOURS[seat], 0, 0)
            gfx.text(fb, self.t_head, w + 3, 1)
            gfx.right(fb, self.t_sheet, 127, 1)
        cur_item = self.items[self.cur] if self.nitems else 255
        caret = ph == PH_TAKE and cur_item == IT_COMMON
        c = g.common
        # The rolled dice (or the ones about to be rolled).
        if moved:
            if c == WILD and g.wild and not caret:
                gfx.text(fb, "W", _CX + 7, 28)
        elif ph == PH_COMMON:
            pass
        elif ph == PH_ROLL or tumbling:
            m = self.tumble_mask
            for i in range(g.to_roll()):
                if tumbling and m >> i & 1:
                    # A face that changes every other frame and differs between dice.
                    if dice:
                        fb.fill_rect(i * _DX, _DY, DIE_L, DIE_L + 1, 0)
                    gfx.die(fb, i * _DX, _DY + ((frame + i) & 1),
                            (frame // 2 * 5 + i * 3 + (frame >> 3) * i) % 6 + 1)
                else:
                    gfx.die(fb, i * _DX, _DY, _UNKNOWN)
        else:
            ov = self.ov
            sel = self.mask if ph == PH_TAKE else ov[_TAKEN] if ph == PH_DECIDE else 0
            for i in range(ov[_ND]):
                gfx.die(fb, i * _DX, _DY, ov[_DICE + i], DIE_L, bool(sel >> i & 1))
        # The Common Die.
        x = _CX
        if not moved:
            fb.vline(x - 5, _DY, 17, 1)
        if moved:
            pass
        elif tumbling and self.tumble_mask & 0x20:
            if dice:
                fb.fill_rect(x, _DY, DIE_L, DIE_L + 1, 0)
            gfx.die(fb, x, _DY + (frame & 1), (frame // 2 * 5 + 15 + (frame >> 3) * 5) % 6 + 1)
        elif ph == PH_COMMON or not c:
            gfx.die(fb, x, _DY, _UNKNOWN)
        elif ph == PH_WILD:
            gfx.die(fb, x, _DY, self.wildv, DIE_L, True)
            gfx.caret(fb, x, 27, 17)
        else:
            face = c
            if c == WILD and g.wild:
                face = g.wild
            sel = ph == PH_TAKE and self.mask & COMMON_BIT
            if ph == PH_DECIDE and self.ov[_TAKEN] & COMMON_BIT:
                sel = True
            gfx.die(fb, x, _DY, face, DIE_L, bool(sel))
            if c == WILD and g.wild and not caret:
                gfx.text(fb, "W", x + 7, 28)
            if (ph == PH_TAKE or ph == PH_ROLL or ph == PH_DECIDE) and face <= 6 \
                    and not sel and g.usable() is None:
                # Counted already in this set of five: struck through.
                for i in range(15):
                    fb.pixel(x + 1 + i, _DY + 15 - i, 1)
        if dice and not rolled:
            return
        if ph == PH_TAKE and cur_item <= IT_COMMON:
            gfx.caret(fb, _CX if caret else cur_item * _DX, 27, 17)
        if moved or rolled:
            pass
        elif picked:
            if self.t_pts:
                gfx.right(fb, self.t_pts, 97, 40, 1, gfx.MEDIUM)
        elif ph != PH_COMMON:
            x = gfx.text(fb, self.t_run, 0, 33, 1, gfx.MEDIUM, 2)
            if c == TWOX:
                gfx.text(fb, "^2", x + 1, 40, 1, gfx.MEDIUM)
            if self.t_pts:
                gfx.right(fb, self.t_pts, 97, 40, 1, gfx.MEDIUM)
            # The riser: 5 steps, filled as dice go on it (x 98-126: the panel's
            # last column stays dark, as for every drawing).
            n = g.riser(seat)
            for i in range(5):
                h = 3 + 3 * i
                x = 98 + 6 * i
                if i < n:
                    fb.fill_rect(x, 46 - h, 5, h, 1)
                else:
                    fb.rect(x, 46 - h, 5, h, 1)
        else:
            gfx.text(fb, "COMMON DIE", 0, 14, 1, gfx.MEDIUM)
            gfx.text(fb, "1 1 5 5 2X WILD", 0, 26)
        if not moved:
            gfx.text(fb, self.t_info, 0, 48)
            if self.nitems == 1 and not tumbling:
                gfx.right(fb, "< >: SCORES", 127, 48)
        if ph == PH_WILD:
            _button(fb, "SURE?" if self.wask else "SET WILD", 0, True)
            gfx.right(fb, "< >", 127, _BY + 1)
            return
        x = 0
        for i in range(self.nitems):
            it = self.items[i]
            cur = i == self.cur
            if it == IT_TAKE:
                # (A CPU's pick part way is no TAKE that cannot be pressed.)
                x = _button(fb, "TAKE", x, cur, self.ok_take[self.mask] != 0 or
                            app.cpus[seat] != 0)
            elif it == IT_ROLL:
                x = _button(fb, "ROLL", x, cur)
            elif it == IT_STOP:
                x = _button(fb, "STOP", x, cur)
        if self.rolling and not tumbling and not app.sensor_missing:
            gfx.right(fb, "OR SHAKE", 127, _BY + 1)


def _button(fb, s, x, cursor, enabled=True):
    """A choice: inverted under the cursor, plain text otherwise. Not possible now
    (TAKE with a selection that does not score): the text stays whole (dithering it
    garbled "TAKE" into "YA !(") over a dotted line, a solid one under the cursor;
    the info line says what is missing."""
    w = gfx.width(s) + 2
    if cursor and enabled:
        gfx.label(fb, s, x, _BY)
        return x + w + 5
    gfx.text(fb, s, x + 1, _BY + 1)
    if not enabled:
        if cursor:
            fb.hline(x, _BY + 6, w, 1)
        else:
            for xx in range(x, x + w, 2):
                fb.pixel(xx, _BY + 6, 1)
    return x + w + 5
