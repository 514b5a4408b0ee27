"""Shake Up (Jax, 1997) as a state machine; the rules are shared/RULES.md section 1.

Result classes: BIG = 3, MOVE = 2, PAIR = 1, NONE = 0 (`classify(dice)`).

Phases (`Game.phase`):
  ROLLOFF = 0  `player` shakes one die for the start roll-off (legal: ROLL)
  SHAKE   = 1  start of a turn: shake all 4 dice (legal: ROLL)
  CHOOSE  = 2  after shake 1 or 2: ROLL | hold mask, or STOP
  MOVING  = 3  choose the level to move a pawn up from (UP | level). Named MOVING
               because MOVE is the result class.
  PENALTY = 4  PEN | seat << 2 | level, plus SKIP (after a Special Advantage) or
               AGAIN (after BIG on shake 2/3)
  OVER    = 5  `winner` is set; nothing is legal

Decisions are small ints, kind in bits 8-11, argument in bits 0-7:
  ROLL  = 0x100 | mask of the dice set aside after this decision (a superset of
          `held`, never 15: set aside all 4 is STOP); 0 for the roll-off and shake 1
  STOP  = 0x200
  UP    = 0x300 | level 1-3
  PEN   = 0x400 | seat << 2 | level 2-3
  SKIP  = 0x500 (decline the Special Advantage penalty)
  AGAIN = 0x600 (after BIG on shake 2/3: another turn instead of a penalty)

`apply(d, values=None)`: `values` forces the dice of a ROLL (the values of the dice
being shaken, in index order; one value in the roll-off). Illegal decisions and bad
values raise ValueError. Every move phase is presented, also when only one level
is possible; the interface never sees a penalty that can do nothing: with no
penalizable opponent pawn, a Special Advantage goes straight on to the extra turn,
and a BIG on shake 2/3 takes the extra turn automatically.

`dice` keeps the last shown values (0 before the first shake of the game) until
the next shake; `result` is the class of the turn just finished, -1 from the first
shake of a turn until it finishes. `rolloff[seat]` is that seat's last roll-off
value; seats knocked out by a tie go back to 0; the deciding round stays visible.

`notes`: tuples the last apply produced for the interface: ("rolloff", seat, v),
("tie", mask_of_tied_seats), ("starts", seat), ("turn", seat),
("result", seat, cls, shake_no), ("up", seat, from_level), ("safe", seat),
("penalty", seat, from_level), ("again", seat), ("lost_move", seat), ("win", seat).
Notes are transient: from_bytes() restores a game with no notes.

Pawns on a level are interchangeable, so the state holds counts per seat and level
(1-3, 4 = SAFE) in a bytearray. to_bytes() is 36 bytes with a leading version byte.
"""

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

BIG = 3
MOVE = 2
PAIR = 1
NONE = 0

ROLLOFF = 0
SHAKE = 1
CHOOSE = 2
MOVING = 3
PENALTY = 4
OVER = 5

ROLL = 0x100
STOP = 0x200
UP = 0x300
PEN = 0x400
SKIP = 0x500
AGAIN = 0x600

SAFE = 4
PAWNS = 5

_VERSION = const(1)
_SIZE = const(36)
_ALL4 = const(15)
# Distinct-value masks (bit v for value v) of the three runs of four.
_RUNS4 = (0x1E, 0x3C, 0x78)


def classify(dice):
    """The class (BIG, MOVE, PAIR or NONE) of 4 dice values 1-6."""
    if len(dice) != 4:
        raise ValueError("classify needs 4 dice, got %d" % len(dice))
    counts = bytearray(7)
    for v in dice:
        if not isinstance(v, int) or v < 1 or v > 6:
            raise ValueError("die value must be 1-6, got %r" % (v,))
        counts[v] += 1
    distinct = 0
    top = 0
    pairs = 0
    for v in range(1, 7):
        c = counts[v]
        if c:
            distinct |= 1 << v
            if c > top:
                top = c
            if c == 2:
                pairs += 1
    if top == 4 or distinct in _RUNS4:
        return BIG
    if top == 3 or pairs == 2 or distinct & (distinct >> 1) & (distinct >> 2):
        return MOVE
    if pairs:
        return PAIR
    return NONE


def _movable(c1, c2, c3, spots):
    # 2-Pawn Rule: at least 2 pawns on the level, or the level is the lowest one the
    # player occupies (Decision: lowest occupied, not only level 1).
    out = []
    low = 1 if c1 else (2 if c2 else (3 if c3 else 0))
    if c1 and (c1 >= 2 or low == 1) and not (spots and c2 >= 4):
        out.append(1)
    if c2 and (c2 >= 2 or low == 2) and not (spots and c3 >= 3):
        out.append(2)
    if c3 and (c3 >= 2 or low == 3):
        out.append(3)
    return out


def movable(pawns, spots=False):
    """Sorted levels (1-3) a pawn may move up from; pawns: 5 positions 1-3 or 4 (SAFE)."""
    if len(pawns) != PAWNS:
        raise ValueError("need %d pawn positions, got %d" % (PAWNS, len(pawns)))
    c = bytearray(5)
    for p in pawns:
        if not isinstance(p, int) or p < 1 or p > SAFE:
            raise ValueError("pawn position must be 1-4, got %r" % (p,))
        c[p] += 1
    return _movable(c[1], c[2], c[3], spots)


class Game:
    def __init__(self, players, spots=False, dice=None):
        if not isinstance(players, int) or players < 2 or players > 4:
            raise ValueError("Shake Up needs 2-4 players, got %r" % (players,))
        self.players = players
        self.spots = bool(spots)
        self._dice = dice
        self.phase = ROLLOFF
        self.player = 0
        self.dice = bytearray(4)
        self.held = 0
        self.shakes = 0
        self.result = -1
        self.winner = -1
        self.starter = -1
        self.rolloff = bytearray(players)
        all_seats = (1 << players) - 1
        self._ro_in = all_seats  # seats in the roll-off
        self._ro_todo = all_seats  # seats still to shake in this roll-off round
        # Counts per seat per level: index seat * 4 + level - 1, levels 1-4.
        self._pawns = bytearray(16)
        for s in range(players):
            self._pawns[s * 4] = PAWNS
        self.notes = []

    # ---- queries -------------------------------------------------------------

    def count(self, seat, level):
        if seat < 0 or seat >= self.players or level < 1 or level > SAFE:
            raise ValueError("no seat %r / level %r" % (seat, level))
        return self._pawns[seat * 4 + level - 1]

    def _levels(self, seat):
        i = seat * 4
        p = self._pawns
        return _movable(p[i], p[i + 1], p[i + 2], self.spots)

    def _targets(self):
        # Opponent pawns that a penalty can send back: levels 2 and 3 only.
        out = []
        for s in range(self.players):
            if s == self.player:
                continue
            for lv in (2, 3):
                if self._pawns[s * 4 + lv - 1]:
                    out.append(PEN | s << 2 | lv)
        return out

    def legal(self):
        ph = self.phase
        if ph == ROLLOFF or ph == SHAKE:
            return [ROLL]
        if ph == CHOOSE:
            h = self.held
            out = [ROLL | m for m in range(h, _ALL4) if m & h == h]
            out.append(STOP)
            return out
        if ph == MOVING:
            return [UP | lv for lv in self._levels(self.player)]
        if ph == PENALTY:
            out = self._targets()
            out.append(SKIP if self.shakes == 1 else AGAIN)
            return out
        return []

    # ---- applying decisions --------------------------------------------------

    def apply(self, d, values=None):
        if not isinstance(d, int) or d < 0 or d > 0xFFF:
            raise ValueError("a decision is a small int, got %r" % (d,))
        if d not in self.legal():
            # The reason is worded by core.shakeup_why, loaded only for a rejection.
            import sys
            from core import shakeup_why
            why = shakeup_why.reject(self, d)
            sys.modules.pop("core.shakeup_why", None)
            pkg = sys.modules.get("core")
            if pkg is not None and hasattr(pkg, "shakeup_why"):
                delattr(pkg, "shakeup_why")
            raise ValueError(why)
        kind = d & 0xF00
        if values is not None and kind != ROLL:
            raise ValueError("values only go with ROLL")
        self.notes = []
        if kind == ROLL:
            self._roll(d & 0xFF, values)
        elif kind == STOP:
            self._finish()
        elif kind == UP:
            self._up(d & 0xFF)
        elif kind == PEN:
            a = d & 0xFF
            self._send_back(a >> 2, a & 3)
            if self.shakes == 1:
                self._again()
            else:
                self._pass()
        else:  # SKIP or AGAIN
            self._again()

    def _shake(self, n, values):
        # The values of the n dice being shaken: forced ones (validated) or fresh rolls.
        if values is None:
            if self._dice is None:
                raise ValueError("no dice source: pass values")
            return [self._dice.d6() for _ in range(n)]
        if len(values) != n:
            raise ValueError("%d dice are shaken, got %d values" % (n, len(values)))
        for v in values:
            if not isinstance(v, int) or v < 1 or v > 6:
                raise ValueError("die value must be 1-6, got %r" % (v,))
        return values

    def _roll(self, mask, values):
        if self.phase == ROLLOFF:
            self._rolloff_roll(self._shake(1, values)[0])
            return
        if self.phase == SHAKE:
            vals = self._shake(4, values)
            self.held = 0
            self.result = -1
            for i in range(4):
                self.dice[i] = vals[i]
        else:
            free = [i for i in range(4) if not mask >> i & 1]
            vals = self._shake(len(free), values)
            self.held = mask
            for j in range(len(free)):
                self.dice[free[j]] = vals[j]
        self.shakes += 1
        if self.shakes >= 3:
            self._finish()
        else:
            self.phase = CHOOSE

    def _rolloff_roll(self, v):
        s = self.player
        self.rolloff[s] = v
        self.notes.append(("rolloff", s, v))
        self._ro_todo &= ~(1 << s)
        if self._ro_todo:
            self.player = _low_bit(self._ro_todo)
            return
        best = 0
        for t in range(self.players):
            if self._ro_in >> t & 1 and self.rolloff[t] > best:
                best = self.rolloff[t]
        tied = 0
        for t in range(self.players):
            if self._ro_in >> t & 1 and self.rolloff[t] == best:
                tied |= 1 << t
        if tied & (tied - 1):
            # Ties shake again among themselves; the others are out of it.
            for t in range(self.players):
                if not tied >> t & 1:
                    self.rolloff[t] = 0
            self._ro_in = tied
            self._ro_todo = tied
            self.player = _low_bit(tied)
            self.notes.append(("tie", tied))
            return
        self._ro_in = 0
        self.starter = _low_bit(tied)
        self.notes.append(("starts", self.starter))
        self._begin_turn(self.starter)

    def _finish(self):
        seat = self.player
        cls = classify(self.dice)
        self.result = cls
        self.notes.append(("result", seat, cls, self.shakes))
        if cls == BIG or cls == MOVE:
            if self._levels(seat):
                self.phase = MOVING
            else:
                # Not reachable under these rules, kept as the rules say: the move
                # is lost and the other effects still happen.
                self.notes.append(("lost_move", seat))
                self._after_move()
        elif cls == PAIR:
            self._pass()
        else:
            i = seat * 4
            if self._pawns[i + 2]:
                self._send_back(seat, 3)
            elif self._pawns[i + 1]:
                self._send_back(seat, 2)
            self._pass()

    def _up(self, lv):
        seat = self.player
        i = seat * 4 + lv - 1
        self._pawns[i] -= 1
        self._pawns[i + 1] += 1
        self.notes.append(("up", seat, lv))
        if lv == 3:
            self.notes.append(("safe", seat))
            if self._pawns[seat * 4 + 3] == PAWNS:
                self.winner = seat
                self.phase = OVER
                self.notes.append(("win", seat))
                return
        self._after_move()

    def _after_move(self):
        if self.result != BIG:
            self._pass()
        elif self._targets():
            self.phase = PENALTY
        else:
            # No penalty could do anything: Special Advantage skips it, BIG on
            # shake 2/3 takes the extra turn.
            self._again()

    def _send_back(self, seat, lv):
        i = seat * 4
        self._pawns[i + lv - 1] -= 1
        self._pawns[i] += 1
        self.notes.append(("penalty", seat, lv))

    def _again(self):
        self.notes.append(("again", self.player))
        self._begin_turn(self.player)

    def _pass(self):
        self._begin_turn((self.player + 1) % self.players)

    def _begin_turn(self, seat):
        self.phase = SHAKE
        self.player = seat
        self.held = 0
        self.shakes = 0
        self.notes.append(("turn", seat))

    # ---- serialization -------------------------------------------------------

    def to_bytes(self):
        b = bytearray(_SIZE)
        b[0] = _VERSION
        b[1] = self.players
        b[2] = 1 if self.spots else 0
        b[3] = self.phase
        b[4] = self.player
        b[5:9] = self.dice
        b[9] = self.held
        b[10] = self.shakes
        b[11] = self.result + 1
        b[12] = self.winner + 1
        b[13] = self.starter + 1
        b[14] = self._ro_in
        b[15] = self._ro_todo
        for s in range(self.players):
            b[16 + s] = self.rolloff[s]
        b[20:36] = self._pawns
        return bytes(b)

    @classmethod
    def from_bytes(cls, b, dice=None):
        """The game saved by to_bytes; ValueError when b is malformed."""
        # Loading and its checks live apart (core.shakeup_load): a new game never
        # holds their memory, and a restored one lets it go at once.
        import sys
        from core import shakeup_load
        try:
            return shakeup_load.load(cls, b, dice)
        finally:
            sys.modules.pop("core.shakeup_load", None)
            pkg = sys.modules.get("core")
            if pkg is not None and hasattr(pkg, "shakeup_load"):
                delattr(pkg, "shakeup_load")


def _low_bit(mask):
    s = 0
    while not mask >> s & 1:
        s += 1
    return s
