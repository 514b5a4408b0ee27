"""Farkle Frenzy's live round (docs/playing.md, "House rules", "Live"): one
handheld per player, everybody rolling at once, the host's handheld deciding.

`Live(game)` runs the rounds of a core.frenzy.Game (made with dice=None: the host
passes every roll's values, drawn from its own hardware RNG) with every seat playing at
its own pace. The Game stays the one source of truth for everything but the order of
play: the round starts with its COMMON_ROLL, each roll and take is scored by
core.frenzy_score as the engine scores them, and the round ends with Game.settle(),
the engine's own end of a round (2X, the 400 entry, the goal, tie rounds, the next
roller). What is live is only who is stopped when:

- Every seat in the round rolls, sets dice aside and rolls on or stops as in any
  round, on its own (phases L_ROLL, L_TAKE, L_DECIDE; L_WILD: the roller's first roll
  with the WILD showing, declared before anyone rolls: the others wait).
- The host applies decisions one at a time in the order it receives them, then
  announces (announce()): a fill stops every other seat still rolling, except those
  whose fill came in the same batch (received before that announcement), who may all
  roll on with five dice. A seat stopped with a roll it has not yet set dice aside from
  keeps its running total without that roll.
- The round ends when nobody is rolling.

Decisions are core.frenzy's codes: ROLL, DECLARE | value, TAKE | mask, STOP (ROLL in
L_DECIDE means roll on). apply() raises ValueError for an illegal one (nothing
changes). to_bytes()/from_bytes(): the Game's bytes and the live block after them.
Notes (the last apply() or announce()): ("roll", s), ("farkle", s), ("take", s,
points), ("fill", s), ("stop", s, running), ("stopped_by", s, filler, running),
("wild", s, v), then the Game's ("round_end", r), ("tie", mask), ("win", s).
"""
from micropython import const

from core.dice import TWOX, WILD
from core.frenzy import COMMON_ROLL, DECLARE, FARKLED, OUT, PH_COMMON, PH_OVER, \
    ROLL, ROLLING, STOP, STOPPED, TAKE, TOTAL_MAX, Game
from core.frenzy_score import COMMON_BIT, dice_in, farkle_of, ones_table, points_of

L_ROLL = const(0)
L_WILD = const(1)
L_TAKE = const(2)
L_DECIDE = const(3)
L_DONE = const(4)

_VERSION = const(1)
_SEAT = const(16)  # bytes per seat in the live block


class Live:
    def __init__(self, game):
        self.g = game
        n = game.players
        self.t = ones_table(game.ones)
        self.ph = bytearray(n)
        self.st = bytearray(n)
        self.riser = bytearray(n)
        self.cused = bytearray(n)
        self.by = bytearray(n)  # 1 + the seat whose fill stopped it
        self.fills = bytearray(n)  # fills this round
        self.nrolled = bytearray(n)
        self.rolled = [bytearray(5) for _ in range(n)]
        self.run = [0] * n
        self.batch = 0  # seats that filled since the last announce()
        self.first = -1  # the first of them
        self.notes = []
        for s in range(n):
            self.st[s] = OUT
            self.ph[s] = L_DONE

    # ---- the round's start -------------------------------------------------------

    def start(self, face):
        """The host rolled the Common Die (its face: 1, 5, TWOX, WILD): the round starts
        for every seat that plays it."""
        g = self.g
        if g.phase != PH_COMMON:
            raise ValueError("the round is already under way")
        g.apply(COMMON_ROLL, (face,))
        self.notes = list(g.notes)
        for s in range(g.players):
            self.st[s] = ROLLING if g.in_round >> s & 1 else OUT
            self.ph[s] = L_ROLL if self.st[s] == ROLLING else L_DONE
            self.riser[s] = self.cused[s] = self.by[s] = self.fills[s] = 0
            self.nrolled[s] = 0
            self.run[s] = 0
        self.batch = 0
        self.first = -1

    # ---- what a seat sees ----------------------------------------------------------

    def waiting_wild(self):
        """True while the WILD shows and the roller has not declared it yet."""
        g = self.g
        return g.phase != PH_COMMON and g.common == WILD and not g.wild

    def usable(self, s):
        """The Common Die's number for the seat's current (L_TAKE) or next roll, or 0."""
        g = self.g
        num = g.common
        if num == WILD:
            num = g.wild
        elif num == TWOX:
            num = 0
        if not num:
            return 0
        if self.riser[s] == 5 and self.ph[s] != L_TAKE:
            return num  # five dice again: it counts again
        return 0 if self.cused[s] else num

    def to_roll(self, s):
        r = self.riser[s]
        return 5 if r == 5 else 5 - r

    def points(self, s, mask):
        if self.ph[s] != L_TAKE:
            return 0
        return points_of(self.rolled[s], self.nrolled[s], self.usable(s), mask, self.t)

    def rolling(self):
        m = 0
        for s in range(self.g.players):
            if self.st[s] == ROLLING:
                m |= 1 << s
        return m

    # ---- decisions -------------------------------------------------------------------

    def apply(self, s, d, values=None):
        """Seat s's decision d (values: the dice of a ROLL, drawn by the host)."""
        g = self.g
        if not isinstance(s, int) or s < 0 or s >= g.players or not isinstance(d, int):
            raise ValueError("no such seat or decision")
        ph = self.ph[s]
        kind = d & 0xF00
        arg = d & 0xFF
        self.notes = []
        if g.phase == PH_COMMON or g.phase == PH_OVER or self.st[s] != ROLLING:
            raise ValueError("that seat is not rolling")
        if ph == L_ROLL and d == ROLL:
            if self.waiting_wild() and s != g.roller:
                raise ValueError("wait for the WILD's value")
            n = self.to_roll(s)
            if values is None or len(values) != n:
                raise ValueError("a roll of %d dice needs %d values" % (n, n))
            for v in values:
                if not isinstance(v, int) or v < 1 or v > 6:
                    raise ValueError("a die shows 1-6")
            if self.riser[s] == 5:
                self.riser[s] = 0
                self.cused[s] = 0
            r = self.rolled[s]
            for i in range(5):
                r[i] = values[i] if i < n else 0
            self.nrolled[s] = n
            self.notes.append(("roll", s))
            if self.waiting_wild():
                self.ph[s] = L_WILD
                return
            self._farkle(s)
            return
        if ph == L_WILD and kind == DECLARE and 1 <= arg <= 6 and d == DECLARE | arg:
            g.wild = arg
            self.notes.append(("wild", s, arg))
            self._farkle(s)
            return
        if ph == L_TAKE and kind == TAKE:
            p = self.points(s, arg)
            if p <= 0:
                raise ValueError("that selection does not score")
            run = self.run[s] + p
            if g.totals[s] + run * 2 > TOTAL_MAX:
                raise ValueError("running total out of range")
            self.run[s] = run
            self.riser[s] += dice_in(arg)
            if arg & COMMON_BIT:
                self.cused[s] = 1
            self.notes.append(("take", s, p))
            if self.riser[s] == 5:
                self.fills[s] += 1
                if not self.batch:
                    self.first = s
                self.batch |= 1 << s
                self.notes.append(("fill", s))
            self.ph[s] = L_DECIDE
            return
        if ph == L_DECIDE and (d == ROLL or d == STOP):
            if d == STOP:
                self.st[s] = STOPPED
                self.ph[s] = L_DONE
                self.notes.append(("stop", s, self.run[s]))
                self._end_if_done()
            else:
                self.ph[s] = L_ROLL
            return
        raise ValueError("not a decision for now")

    def _farkle(self, s):
        if farkle_of(self.rolled[s], self.nrolled[s], self.usable(s)):
            self.st[s] = FARKLED
            self.ph[s] = L_DONE
            self.run[s] = 0
            self.notes.append(("farkle", s))
            self._end_if_done()
        else:
            self.ph[s] = L_TAKE

    def announce(self):
        """The host tells everyone what it received since the last call: fills in it
        stop every other seat still rolling. Returns the notes it made."""
        out = []
        b = self.batch
        if b:
            f = self.first
            for s in range(self.g.players):
                if self.st[s] == ROLLING and not b >> s & 1:
                    self.st[s] = STOPPED
                    self.ph[s] = L_DONE
                    self.by[s] = f + 1
                    self.nrolled[s] = 0  # a roll not yet set aside counts for nothing
                    out.append(("stopped_by", s, f, self.run[s]))
            self.batch = 0
            self.first = -1
        self.notes = out
        self._end_if_done()
        return self.notes

    def _end_if_done(self):
        g = self.g
        if self.batch or g.phase == PH_COMMON or g.phase == PH_OVER:
            return  # a fill waits for its announcement first
        runs = [0] * g.players
        for s in range(g.players):
            st = self.st[s]
            if st == ROLLING:
                return
            runs[s] = -1 if st == FARKLED else self.run[s]
        g.settle(runs)
        self.notes.extend(g.notes)

    # ---- saving --------------------------------------------------------------------

    def to_bytes(self):
        gb = self.g.to_bytes()
        n = self.g.players
        b = bytearray(len(gb) + 4 + n * _SEAT)
        b[:len(gb)] = gb
        j = len(gb)
        b[j] = _VERSION
        b[j + 1] = self.batch
        b[j + 2] = self.first + 1
        b[j + 3] = n
        j += 4
        for s in range(n):
            b[j] = self.ph[s]
            b[j + 1] = self.st[s]
            b[j + 2] = self.riser[s]
            b[j + 3] = self.cused[s]
            b[j + 4] = self.by[s]
            b[j + 5] = self.fills[s]
            b[j + 6] = self.nrolled[s]
            b[j + 7:j + 12] = self.rolled[s]
            v = self.run[s]
            b[j + 12] = v >> 24 & 0xFF
            b[j + 13] = v >> 16 & 0xFF
            b[j + 14] = v >> 8 & 0xFF
            b[j + 15] = v & 0xFF
            j += _SEAT
        return b

    @classmethod
    def from_bytes(cls, b):
        """The Live saved by to_bytes(); ValueError when malformed."""
        if not isinstance(b, (bytes, bytearray)) or len(b) < 30:
            raise ValueError("saved live game too short")
        n = b[1]
        if n < 1 or n > 4 or len(b) < 4 + n * _SEAT:
            raise ValueError("saved live game: bad players")
        cut = len(b) - 4 - n * _SEAT
        g = Game.from_bytes(bytes(b[:cut]))
        j = cut
        if b[j] != _VERSION or b[j + 3] != n or b[j + 1] >> n or b[j + 2] > n:
            raise ValueError("saved live game: bad live block")
        lv = cls(g)
        lv.batch = b[j + 1]
        lv.first = b[j + 2] - 1
        if (lv.batch == 0) != (lv.first < 0):
            raise ValueError("saved live game: bad batch")
        j += 4
        for s in range(n):
            ph, st, ri, cu, by, fi, nr = b[j:j + 7]
            run = b[j + 12] << 24 | b[j + 13] << 16 | b[j + 14] << 8 | b[j + 15]
            if ph > L_DONE or st > OUT or ri > 5 or cu > 1 or by > n or nr > 5 \
                    or run % 50 or run > TOTAL_MAX or (st == ROLLING) == (ph == L_DONE):
                raise ValueError("saved live game: bad seat %d" % s)
            for v in b[j + 7:j + 7 + nr]:
                if v < 1 or v > 6:
                    raise ValueError("saved live game: bad die")
            lv.ph[s], lv.st[s], lv.riser[s], lv.cused[s], lv.by[s], lv.fills[s] = \
                ph, st, ri, cu, by, fi
            lv.nrolled[s] = nr
            lv.rolled[s][:] = b[j + 7:j + 12]
            lv.run[s] = run
            j += _SEAT
        if g.phase == PH_COMMON or g.phase == PH_OVER:
            for s in range(n):
                if lv.st[s] == ROLLING:
                    raise ValueError("saved live game: rolling between rounds")
        return lv
