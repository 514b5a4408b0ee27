"""Farkle Frenzy rules engine (RULES.md section 2), a state machine over step records.

The scoring a game needs (points_of, the Farkle test) is below; the checked public
helpers score, is_farkle and selections are in core.frenzy_score.

A round is a pure function of the players' per-step records (`resolve`). Each seat
keeps one bytearray, 4 bytes per step: a code byte and its running total after the
step in units of 50 (3 bytes, big-endian). Code byte: bits 0-1 the outcome
(PENDING while the step is being played, CONT, STOP or FARKLE), bit 2 FILLED (the
take of this step put the 5th die on the riser), bits 3-5 dice on the riser after
the step, bit 6 the Common Die already counted in the current set of five.

Both schedules append to the same records and call the same `resolve`:
- LOCKSTEP: step by step; within a step the roller first, then the seats going
  round from the roller. The resolution runs after every player's step.
- RELAY: each player in turn from the roller plays all their steps; after every
  step the resolution runs over all records so far and the player keeps rolling
  only while it says so (a later player's fill cuts earlier records retroactively).

Names: the contract's phases ROLL, WILD and TAKE share their names with the
decisions ROLL and TAKE and with the Common Die face WILD (8, from core.dice), so
the phases are PH_COMMON, PH_ROLL, PH_WILD, PH_TAKE, PH_DECIDE, PH_OVER (values
0-5 as in the contract; COMMON, DECIDE and OVER also exist unprefixed) while ROLL
and TAKE are the decisions and WILD/TWOX the faces. They are defined in
core.frenzy_names; the firmware uses private const copies, and frenzy.ROLL still
works for host code (the module __getattr__ reads core.frenzy_names).

Flow of one step of a player: phase PH_ROLL (decision ROLL rolls the free dice;
after a fill all five) -> [phase PH_WILD for the roller's first roll when the Common
Die shows WILD: DECLARE | value] -> a Farkle is resolved at once, else phase PH_TAKE
(TAKE | mask) -> phase PH_DECIDE (ROLL = keep rolling, STOP = bank). ROLL in
PH_DECIDE only ends the step; the dice are rolled by the ROLL decision of the next
PH_ROLL phase, which is the same player's at once in Relay and, in Lockstep, comes
after the other players' rolls of this step. When a TAKE does not fill the riser
while someone else already filled in this step (as far as the records go), the
player is stopped at once (note "stopped_by"): the choice could change nothing.

`usable()`: in PH_TAKE the Common Die's number for this roll; in PH_ROLL and
PH_DECIDE for the player's next roll (a fill makes it usable again); else None.
`to_roll()`: dice of the current player's next roll. `round_raw`: the last round's
scores after the 2X doubling but before the 400 entry rule.

Notes (transient, not saved): ("common", seat, face), ("wild", seat, value),
("roll", seat), ("farkle", seat), ("take", seat, points), ("fill", seat),
("stopped_by", seat, filler_seat, running), ("stop", seat, running),
("round_end", round), ("tie", mask_of_tied_seats), ("win", seat). In Relay a
"stopped_by" may name an earlier player whose record a later fill cut.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_TYPES = const(0)  # for pyright only (on the device "if 0:" is no code)
if _TYPES:
    from core.dice import Dice

# Common Die faces (core.dice.TWOX and WILD)
_TWOX = const(7)
_WILD = const(8)

# ---- scoring kernel -----------------------------------------------------------
# What a game needs to score lives here; the checked public helpers (score,
# is_farkle, selections) are in core.frenzy_score, which a game never loads.
# A set of dice (rolled dice plus the Common Die's number when it is used) scores
# when ALL of it splits into combinations; its score is the best such split. Every
# combination except the six-dice ones (straight, three pairs, four of a kind plus a
# pair, two triplets) uses one value only, so the best split is the sum of the best
# split of each value's count, compared with the six-dice combinations when there
# are six dice. Sets are handled as a "key": the count of value v in bits
# 3(v-1)..3(v-1)+2.

_COMMON_BIT = const(0x20)  # core.frenzy_names.COMMON_BIT: the Common Die in a mask
_B = const(255)  # (in the table) these dice cannot all be used

# Best score of k dice (k = 0..6) all showing value v, in units of 50; _B (\xff)
# when they cannot all be used. Row v-1 of 7 entries; first 42 bytes for three 1s =
# 300, the next 42 for three 1s = 1000. Worked out per count:
#   1s: 1 -> 100, 2 -> 200, 3 -> 300|1000, 4 -> four of a kind 1000 (or with
#       the 1000 table three 1s + a 1 = 1100), 5 -> 2000, 6 -> 3000
#   5s: 50, 100, 500, 1000, 2000, 3000
#   2,3,4,6: only 3+ of them: N x 100, 1000, 2000, 3000
# Then (offset 84) the population count of 5-bit masks, 32 bytes.
_PER_VALUE = (  # one bytes literal: a tuple of ints would stay in RAM too
    b"\x00\x02\x04\x06\x14\x28\x3c"
    b"\x00\xff\xff\x04\x14\x28\x3c"
    b"\x00\xff\xff\x06\x14\x28\x3c"
    b"\x00\xff\xff\x08\x14\x28\x3c"
    b"\x00\x01\x02\x0a\x14\x28\x3c"
    b"\x00\xff\xff\x0c\x14\x28\x3c"
    b"\x00\x02\x04\x14\x16\x28\x3c"
    b"\x00\xff\xff\x04\x14\x28\x3c"
    b"\x00\xff\xff\x06\x14\x28\x3c"
    b"\x00\xff\xff\x08\x14\x28\x3c"
    b"\x00\x01\x02\x0a\x14\x28\x3c"
    b"\x00\xff\xff\x0c\x14\x28\x3c"
    b"\x00\x01\x01\x02\x01\x02\x02\x03\x01\x02\x02\x03\x02\x03\x03\x04"
    b"\x01\x02\x02\x03\x02\x03\x03\x04\x02\x03\x03\x04\x03\x04\x04\x05"
)
_POP = const(84)

# ---- generated by tools/gen_odds.py: do not edit ----
# Farkle risk (%, rounded) of a roll: index (ndice - 1) * 7 + the Common Die's usable
# number (0 when it is not usable); exact, by enumeration (core.odds checks arguments).
RISK = (
    b"\x43\x43\x43\x43\x43\x43\x43\x2c\x2c\x2a\x2a\x2a\x2c\x2a"
    b"\x1c\x1c\x18\x18\x18\x1c\x18\x10\x10\x0c\x0c\x0c\x10\x0c"
    b"\x08\x08\x03\x03\x03\x08\x03"
)
# ---- end of generated ----


def _score_key(key, n, t):
    """Best complete split of the set `key` of `n` dice; 0 if none."""
    tot = 0
    k = key
    i = t
    while k:
        x = _PER_VALUE[i + (k & 7)]
        if x == _B:
            tot = -1
            break
        tot += x
        k >>= 3
        i += 7
    best = tot * 50 if tot > 0 else 0
    if n == 6:
        # Six-dice combinations: count how many values show 1, 2, 3 or 4 times.
        k = key
        ones_ = twos = threes = fours = 0
        while k:
            c = k & 7
            if c == 1:
                ones_ += 1
            elif c == 2:
                twos += 1
            elif c == 3:
                threes += 1
            elif c == 4:
                fours += 1
            k >>= 3
        six = 0
        if threes == 2:
            six = 2500
        elif ones_ == 6 or twos == 3 or (fours and twos):
            six = 1500  # straight, three pairs, four of a kind plus a pair
        if six > best:
            best = six
    return best


def _is_farkle(rolled, n, common):
    # Without the Common Die a roll scores when it has a 1, a 5 or three of a kind.
    # With its number c it also scores with two c's (three of a kind) or with two
    # pairs beside a single c (three pairs). Everything bigger contains one of these.
    c = _cnt
    for i in range(7):
        c[i] = 0
    for i in range(n):
        v = rolled[i]
        if v == 1 or v == 5:
            return False
        c[v] += 1
        if c[v] >= 3:
            return False
    if common is None:
        return True
    if c[common] >= 2:
        return False
    if c[common] == 1 and n == 5:
        pairs = 0
        for v in (2, 3, 4, 6):
            if c[v] == 2:
                pairs += 1
        if pairs == 2:
            return False
    return True


_cnt = bytearray(7)


def points_of(rolled, n, common, mask, t):
    """Points of one selection `mask` of the first n rolled dice (0 if it does not score)."""
    if mask & ~(((1 << n) - 1) | _COMMON_BIT) or not mask & 0x1F:
        return 0
    key = 0
    k = 0
    for i in range(n):
        if mask >> i & 1:
            key += 1 << 3 * (rolled[i] - 1)
            k += 1
    if mask & _COMMON_BIT:
        if common is None:
            return 0
        key += 1 << 3 * (common - 1)
        k += 1
    return _score_key(key, k, t)


# The codes of core.frenzy_names, as private consts (no heap; see there).
_RELAY = const(0)  # core.frenzy_names.RELAY
_COMMON = const(0)  # core.frenzy_names.COMMON (phases)
_PH_ROLL = const(1)  # core.frenzy_names.PH_ROLL
_PH_WILD = const(2)  # core.frenzy_names.PH_WILD
_PH_TAKE = const(3)  # core.frenzy_names.PH_TAKE
_DECIDE = const(4)  # core.frenzy_names.DECIDE
_COMMON_ROLL = const(0x100)  # core.frenzy_names.COMMON_ROLL (decisions)
_ROLL = const(0x200)  # core.frenzy_names.ROLL
_DECLARE = const(0x300)  # core.frenzy_names.DECLARE
_TAKE = const(0x400)  # core.frenzy_names.TAKE
_STOP = const(0x500)  # core.frenzy_names.STOP
_ROLLING = const(0)  # core.frenzy_names.ROLLING (seat status)
_STOPPED = const(1)  # core.frenzy_names.STOPPED
_FARKLED = const(2)  # core.frenzy_names.FARKLED
_OUT = const(3)  # core.frenzy_names.OUT

# A step record's outcome (bits 0-1 of its code byte)
_R_PENDING = const(0)
_R_CONT = const(1)
_R_STOP = const(2)
_R_FARKLE = const(3)
_FILLED = const(4)
_CUSED = const(0x40)


def resolve(recs, mask, roller, st, end, by):
    """The step resolution of RULES.md over the records so far.

    recs: one bytearray per seat (4 bytes per step, see the module doc); mask: the
    seats in the round; roller: where the order within a step starts. Fills, per
    seat, st (ROLLING, STOPPED, FARKLED or OUT), end (how many of its steps count)
    and by (1 + the seat whose fill stopped it, or 0). A seat whose records run out
    while it is still active, or whose last step is still being played (PENDING),
    is ROLLING.
    """
    n = len(recs)
    active = 0
    for s in range(n):
        by[s] = 0
        end[s] = 0
        if mask >> s & 1:
            st[s] = _ROLLING
            active |= 1 << s
        else:
            st[s] = _OUT
    k = 0
    while active:
        filled = 0
        going = 0
        first = -1
        j = k * 4
        for i in range(n):
            s = (roller + i) % n
            if not active >> s & 1:
                continue
            r = recs[s]
            if j >= len(r):
                continue  # not played this step yet: still rolling
            c = r[j]
            o = c & 3
            end[s] = k + 1
            if o == _R_PENDING:
                continue  # this step is being played: still rolling
            if o == _R_FARKLE:
                st[s] = _FARKLED
            elif o == _R_STOP:
                st[s] = _STOPPED
            else:
                going |= 1 << s
            if c & _FILLED:
                filled |= 1 << s
                if first < 0:
                    first = s
        if filled:
            for s in range(n):
                if going >> s & 1 and not filled >> s & 1:
                    st[s] = _STOPPED
                    by[s] = first + 1
            going &= filled
        active = going
        k += 1


def __getattr__(name):
    """frenzy.ROLL and the other public codes, for host code (tests, tools): they live
    in core.frenzy_names, which the firmware never loads (it uses the private consts)."""
    if name[:2] == "__":
        raise AttributeError(name)  # CPython's import asks for __path__ and the like
    from core import frenzy_names
    return getattr(frenzy_names, name)


def _aside(pkg, name, *args):
    """<pkg>.<name>.run(*args), imported for this one call and dropped right after
    (from sys.modules and the package), so a game never holds that code: a new game's
    setup (core.frenzy_new), the end of a round (core.frenzy_round), a save
    (core.frenzy_save), the wording of a rejected decision (core.frenzy_why), loading a
    save (core.frenzy_load), and ui.frenzy_screen's rarer texts (ui.frenzy_text,
    ui.frenzy_table), its setup (ui.frenzy_start) and Continue (ui.frenzy_resume).
    Under CPython (tests, tools) the module stays: memory is no concern there, and
    importing it again at every save made long self-play runs ~3x slower. The unix
    port's runs (bench, portable tests) take the device's path."""
    import gc
    full = pkg + "." + name
    if not hasattr(gc, "mem_free"):
        return getattr(__import__(full), name).run(*args)
    import sys
    gc.collect()  # the module's code then finds whole free pieces of the heap
    try:
        return getattr(__import__(full), name).run(*args)
    finally:
        sys.modules.pop(full, None)
        p = sys.modules.get(pkg)
        if p is not None and hasattr(p, name):
            delattr(p, name)


class Game:
    # Set by core.frenzy_new (annotations only: no code, no heap on the device).
    players: int
    schedule: int
    ones: int
    round: int
    roller: int
    step: int
    phase: int
    player: int
    common: int
    wild: int
    rolled: bytearray
    nrolled: int
    totals: list
    round_scores: list
    round_raw: list
    in_round: int
    winner: int
    notes: list
    _t: int
    _dice: "Dice"  # or None: then apply() takes the values
    _next: int
    _rin: int
    _recs: list
    _st: bytearray
    _end: list
    _by: bytearray

    def __init__(self, players, schedule=_RELAY, ones=300, dice=None):
        # The checks and the setup run once per game: their code is in core.frenzy_new,
        # loaded for this call and dropped after.
        _aside("core", "frenzy_new", self, players, schedule, ones, dice)

    # ---- queries -------------------------------------------------------------

    def _last(self, seat):
        # Code byte of the last counted step of seat, or -1 before any.
        if not isinstance(seat, int) or seat < 0 or seat >= self.players:
            raise ValueError("no seat %r" % (seat,))
        e = self._end[seat]
        return self._recs[seat][e * 4 - 4] if e else -1

    def riser(self, seat):
        """Dice on the seat's riser now (0-5)."""
        c = self._last(seat)
        return c >> 3 & 7 if c >= 0 else 0

    def running(self, seat):
        """The seat's running total this round (as the resolution counts it)."""
        if self._last(seat) < 0 or self._st[seat] == _FARKLED:
            return 0
        r = self._recs[seat]
        j = self._end[seat] * 4 - 3
        return (r[j] << 16 | r[j + 1] << 8 | r[j + 2]) * 50

    def status(self, seat):
        self._last(seat)  # checks the seat
        return self._st[seat]

    def to_roll(self):
        """How many dice the current player's next roll takes (0 outside phases ROLL/DECIDE)."""
        if self.phase != _PH_ROLL and self.phase != _DECIDE:
            return 0
        r = self.riser(self.player)
        return 5 if r == 5 else 5 - r

    def usable(self, now=False):
        """The Common Die's number: in PH_TAKE for this roll, in PH_ROLL and DECIDE
        for the next one; else None. now: for the roll just made, whatever the phase."""
        ph = self.phase
        if not now and ph != _PH_TAKE and ph != _PH_ROLL and ph != _DECIDE:
            return None
        num = self.common
        if num == _WILD:
            num = self.wild  # 0 until declared
        elif num != 1 and num != 5:
            num = 0  # 2X is no number
        if not num:
            return None
        c = self._last(self.player)
        if c < 0 or (c >> 3 & 7 == 5 and ph != _PH_TAKE):
            return num  # none yet, or a fill: five dice again, it counts again
        return None if c & _CUSED else num

    def points(self, mask):
        """Points of the selection `mask` of the current roll (0 if it does not score)."""
        if self.phase != _PH_TAKE or not isinstance(mask, int):
            return 0
        return points_of(self.rolled, self.nrolled, self.usable(), mask, self._t)

    def legal(self):
        """The legal decisions now, as a list (for tests and tools; the screen derives
        them from the phase and points(), so a game never loads this code)."""
        from core.frenzy_score import legal
        return legal(self)

    # ---- applying decisions --------------------------------------------------

    def apply(self, d, values=None):
        # Only whether d is legal is checked here; why not is worded by _why.
        ph = self.phase
        ok = isinstance(d, int) and 0 <= d <= 0xFFF
        if ok:
            kind = d & 0xF00
            arg = d & 0xFF
            if values is not None and not (kind == _ROLL and ph == _PH_ROLL) \
                    and kind != _COMMON_ROLL:
                ok = False
            elif ph == _COMMON or ph == _PH_ROLL:
                ok = d == (_COMMON_ROLL if ph == _COMMON else _ROLL) \
                    and (values is not None or self._dice is not None)
            elif ph == _PH_WILD:
                ok = kind == _DECLARE and 1 <= arg <= 6
            elif ph == _PH_TAKE:
                ok = kind == _TAKE
                cn = self.usable()
                p = points_of(self.rolled, self.nrolled, cn, arg, self._t) if ok else 0
                ok = p > 0
            else:
                ok = ph == _DECIDE and (d == _ROLL or d == _STOP)
        if not ok:
            raise ValueError(_aside("core", "frenzy_why", self, d, values))
        seat = self.player
        rolled = self.rolled
        if ph == _COMMON:
            if values is None:
                face = self._dice.common()
            else:
                face = values[0] if len(values) == 1 else 0
                if face not in (1, 5, _TWOX, _WILD):
                    raise ValueError(_aside("core", "frenzy_why", self, d, values))
            self.notes = []
            self.notes.append(("common", self.roller, face))
            self.common = face
            self.wild = 0
            for r in self._recs:
                r[:] = b""
            self._rin = self.in_round
            resolve(self._recs, self._rin, self.roller, self._st, self._end, self._by)
            self.step = 1
            self.phase = _PH_ROLL
            return
        r = self._recs[seat]
        j = len(r) - 4
        if ph == _PH_TAKE:
            c = r[j]
            riser = (c >> 3 & 7) + _PER_VALUE[_POP + (arg & 0x1F)]
            c = (c & 3) | riser << 3 | (c & _CUSED)
            if arg & _COMMON_BIT:
                c |= _CUSED
            run = (r[j + 1] << 16 | r[j + 2] << 8 | r[j + 3]) + p // 50
            if run > 0xFFFFFF:
                raise ValueError("running total out of range")
            self.notes = []
            self.notes.append(("take", seat, p))
            r[j + 1] = run >> 16
            r[j + 2] = run >> 8 & 0xFF
            r[j + 3] = run & 0xFF
            if riser == 5:
                r[j] = c | _FILLED
                self.notes.append(("fill", seat))
                self.phase = _DECIDE
                return
            # Would keeping on make any difference? Not when someone already filled
            # in this step: then the player is stopped here whatever they choose.
            r[j] = c | _R_CONT
            resolve(self._recs, self._rin, self.roller, _SCR_ST, _SCR_END, _SCR_BY)
            if _SCR_ST[seat] == _STOPPED:
                self._end_step()
                return
            r[j] = c
            self.phase = _DECIDE
            return
        self.notes = []
        if ph == _DECIDE:
            r[j] = (r[j] & ~3) | (_R_STOP if d == _STOP else _R_CONT)
            if d == _STOP:
                self.notes.append(("stop", seat, (r[j + 1] << 16 | r[j + 2] << 8 | r[j + 3]) * 50))
            self._end_step()
            return
        if ph == _PH_ROLL:
            c = self._last(seat)
            riser = cused = 0
            run = b"\0\0\0"
            if c >= 0:
                riser = c >> 3 & 7
                cused = c & _CUSED
                run = r[j + 1:]
                if riser == 5:
                    riser = cused = 0  # took all five dice again: a new set
            n = 5 - riser
            if values is None:
                for i in range(n):
                    rolled[i] = self._dice.d6()
            else:
                if len(values) != n:
                    raise ValueError(_aside("core", "frenzy_why", self, d, values))
                for v in values:
                    if not isinstance(v, int) or v < 1 or v > 6:
                        raise ValueError(_aside("core", "frenzy_why", self, d, values))
                for i in range(n):
                    rolled[i] = values[i]
            for i in range(n, 5):
                rolled[i] = 0
            self.nrolled = n
            r.append(_R_PENDING | riser << 3 | cused)
            r.extend(run)
            self._end[seat] = len(r) // 4
            self.notes.append(("roll", seat))
            if self.common == _WILD and not self.wild:
                self.phase = _PH_WILD  # only the roller's first roll of the round gets here
                return
        else:  # PH_WILD
            self.wild = arg
            self.notes.append(("wild", seat, arg))
        # The roll is made (and a WILD declared): a Farkle ends the step at once.
        if _is_farkle(rolled, self.nrolled, self.usable(True)):
            j = len(r) - 4
            r[j] = (r[j] & ~3) | _R_FARKLE
            r[j + 1] = r[j + 2] = r[j + 3] = 0
            self.notes.append(("farkle", seat))
            self._end_step()
        else:
            self.phase = _PH_TAKE

    def _end_step(self):
        n = self.players
        st = self._st
        end = self._end
        by = self._by
        old = bytes(st) + bytes(by)
        old_end = list(end)
        resolve(self._recs, self._rin, self.roller, st, end, by)
        for s in range(n):
            b = by[s]
            if b and (b != old[n + s] or old[s] != _STOPPED or old_end[s] != end[s]):
                self.notes.append(("stopped_by", s, b - 1, self.running(s)))
        seat = self.player
        rin = self._rin
        pos = (seat - self.roller) % n
        k = self.step
        if self.schedule == _RELAY:
            if st[seat] == _ROLLING:
                self.step += 1
                self.phase = _PH_ROLL
                return
            k = 1
            for i in range(pos + 1, n):
                s = (self.roller + i) % n
                if rin >> s & 1 and not self._recs[s]:
                    self.player = s
                    self.step = k
                    self.phase = _PH_ROLL
                    return
        else:
            # Later in this step, else the first still rolling in the next one.
            for i in range(pos + 1, n + n):
                s = (self.roller + i) % n
                if i == n:
                    k += 1
                if st[s] == _ROLLING and rin >> s & 1 and \
                        (i >= n or len(self._recs[s]) == (k - 1) * 4):
                    self.player = s
                    self.step = k
                    self.phase = _PH_ROLL
                    return
        # The round is over: its scoring, the winner or a tie, the next round's roller
        # (core.frenzy_round, loaded for this once-a-round call and dropped after).
        _aside("core", "frenzy_round", self)

    # ---- serialization -------------------------------------------------------

    def to_bytes(self):
        """The whole state: version byte, header, per seat scores and step records, as
        a bytearray (written by core.frenzy_save, loaded for each save and dropped
        after)."""
        return _aside("core", "frenzy_save", self)

    @classmethod
    def from_bytes(cls, b, dice=None):
        """The game saved by to_bytes; ValueError when b is malformed."""
        # Loading and its checks live apart: a new game never holds their memory,
        # and a restored one lets it go at once.
        return _aside("core", "frenzy_load", cls, b, dice)


# Scratch for a trial resolution (no allocation per take).
_SCR_ST = bytearray(4)
_SCR_END = [0] * 4
_SCR_BY = bytearray(4)
