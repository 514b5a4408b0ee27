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

from micropython import const

BIG = const(3)
MOVE = const(2)
PAIR = const(1)
NONE = const(0)

ROLLOFF = const(0)
SHAKE = const(1)
CHOOSE = const(2)
MOVING = const(3)
PENALTY = const(4)
OVER = const(5)

ROLL = const(0x100)
STOP = const(0x200)
UP = const(0x300)
PEN = const(0x400)
SKIP = const(0x500)
AGAIN = const(0x600)

SAFE = const(4)
PAWNS = const(5)

VERSION = const(1)
ALL4 = const(15)
# Indices in Game._pawns after the 16 counts: the roll-off's seat masks.
RO_IN = const(16)    # seats in the roll-off
RO_TODO = const(17)  # those still to shake in this roll-off round
# Distinct-value masks (bit v for value v) of the three runs of four.
_RUNS4 = (0x1E, 0x3C, 0x78)


def classify(dice):
    """The class (BIG, MOVE, PAIR or NONE) of 4 dice values 1-6."""
    if len(dice) != 4:
        from core.shakeup_why import DICE_COUNT
        raise ValueError(DICE_COUNT % (len(dice),))
    counts = bytearray(7)
    for v in dice:
        if not isinstance(v, int) or v < 1 or v > 6:
            from core.shakeup_why import DIE_VALUE
            raise ValueError(DIE_VALUE % (v,))
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


def movable(pawns, spots=False, at=-1):
    """Sorted levels (1-3) a pawn may move up from; pawns: 5 positions 1-3 or 4 (SAFE).
    at >= 0 (the game's own use): pawns are counts per level, levels 1-3 from index at."""
    if at < 0:
        if len(pawns) != PAWNS:
            from core.shakeup_why import PAWN_COUNT
            raise ValueError(PAWN_COUNT % (PAWNS, len(pawns)))
        c = bytearray(5)
        for p in pawns:
            if not isinstance(p, int) or p < 1 or p > SAFE:
                from core.shakeup_why import PAWN_LEVEL
                raise ValueError(PAWN_LEVEL % (p,))
            c[p] += 1
        pawns = c
        at = 1
    c1 = pawns[at]
    c2 = pawns[at + 1]
    c3 = pawns[at + 2]
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


class Game:
    def __init__(self, players, spots=False, dice=None):
        if not isinstance(players, int) or players < 2 or players > 4:
            from core.shakeup_why import PLAYERS
            raise ValueError(PLAYERS % (players,))
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
        # Counts per seat per level: index seat * 4 + level - 1, levels 1-4; then the
        # roll-off's seat masks (RO_IN, RO_TODO): small ints in one object.
        self._pawns = p = bytearray(18)
        for s in range(players):
            p[s * 4] = PAWNS
        p[RO_IN] = p[RO_TODO] = (1 << players) - 1
        self.notes = []

    def to_shake(self):
        """Roll-off: the seats still to shake one die in this round of it (a mask)."""
        return self._pawns[RO_TODO] if self.phase == ROLLOFF else 0

    def count(self, seat, level):
        if seat < 0 or seat >= self.players or level < 1 or level > SAFE:
            from core.shakeup_why import SEAT_LEVEL
            raise ValueError(SEAT_LEVEL % (seat, level))
        return self._pawns[seat * 4 + level - 1]

    def legal(self):
        # Loops, not comprehensions: each comprehension is one more function held.
        ph = self.phase
        out = []
        if ph == CHOOSE:
            h = self.held
            for m in range(h, ALL4):
                if m & h == h:
                    out.append(ROLL | m)
            out.append(STOP)
        elif ph == MOVING:
            p = self._pawns
            i = self.player * 4
            for lv in movable(p, self.spots, i):
                out.append(UP | lv)
        elif ph == PENALTY:
            # Opponent pawns that a penalty can send back: levels 2 and 3 only.
            for s in range(self.players):
                if s != self.player:
                    for lv in (2, 3):
                        if self._pawns[s * 4 + lv - 1]:
                            out.append(PEN | s << 2 | lv)
            out.append(SKIP if self.shakes == 1 else AGAIN)
        elif ph != OVER:  # ROLLOFF, SHAKE
            out.append(ROLL)
        return out

    def apply(self, d, values=None):
        # One method for every decision (fewer functions held while playing); the
        # parts meet at the end: a pawn sent back, then the next turn.
        if not isinstance(d, int) or d < 0 or d > 0xFFF:
            from core.shakeup_why import DECISION
            raise ValueError(DECISION % (d,))
        if d not in self.legal():
            # Every message is worded by core.shakeup_why, loaded only for an error.
            from core.shakeup_why import why
            raise ValueError(why(self, d))
        kind = d & 0xF00
        a = d & 0xFF
        if values is not None and kind != ROLL:
            from core.shakeup_why import VALUES_ROLL_ONLY
            raise ValueError(VALUES_ROLL_ONLY)
        self.notes = notes = []
        seat = self.player
        n = self.players
        p = self._pawns
        i = seat * 4
        ph = self.phase
        nxt = (seat + 1) % n  # whose turn begins at the end (default: the next seat)
        again = 0
        back = 0  # seat << 2 | level of a pawn sent back to level 1
        if kind == ROLL:
            # The dice being shaken: one in the roll-off, else those not set aside.
            k = 1
            if ph != ROLLOFF:
                k = 0
                for j in range(4):
                    if not a >> j & 1:
                        k += 1
            if values is None:
                if self._dice is None:
                    from core.shakeup_why import NO_SOURCE
                    raise ValueError(NO_SOURCE)
            else:
                if len(values) != k:
                    from core.shakeup_why import VALUE_COUNT
                    raise ValueError(VALUE_COUNT % (k, len(values)))
                for v in values:
                    if not isinstance(v, int) or v < 1 or v > 6:
                        from core.shakeup_why import DIE_VALUE
                        raise ValueError(DIE_VALUE % (v,))
            if ph == ROLLOFF:
                v = self._dice.d6() if values is None else values[0]  # pyright: ignore[reportOptionalMemberAccess] (checked above)
                ro = self.rolloff
                ro[seat] = v
                notes.append(("rolloff", seat, v))
                todo = p[RO_TODO] & ~(1 << seat)
                tied = 0
                if not todo:
                    inn = p[RO_IN]
                    best = 0
                    for t in range(n):
                        if inn >> t & 1:
                            if ro[t] > best:
                                best = ro[t]
                                tied = 0
                            if ro[t] == best:
                                tied |= 1 << t
                    if tied & (tied - 1):
                        # Ties shake again among themselves; the others are out of it.
                        for t in range(n):
                            if not tied >> t & 1:
                                ro[t] = 0
                        p[RO_IN] = todo = tied
                        notes.append(("tie", tied))
                    else:
                        p[RO_IN] = 0
                p[RO_TODO] = todo
                m = todo or tied
                t = 0
                while not m >> t & 1:
                    t += 1
                if todo:
                    self.player = t
                    return
                self.starter = nxt = t
                notes.append(("starts", t))
            else:
                k = 0
                for j in range(4):
                    if not a >> j & 1:
                        self.dice[j] = self._dice.d6() if values is None else values[k]  # pyright: ignore[reportOptionalMemberAccess]
                        k += 1
                self.held = a
                if ph == SHAKE:
                    self.result = -1
                self.shakes += 1
                if self.shakes < 3:
                    self.phase = CHOOSE
                    return
                kind = STOP  # the third shake ends the turn
        if kind == STOP:
            cls = classify(self.dice)
            self.result = cls
            notes.append(("result", seat, cls, self.shakes))
            if cls >= MOVE:
                if movable(p, self.spots, i):
                    self.phase = MOVING
                    return
                # Not reachable under these rules, kept as the rules say: the move
                # is lost and the other effects still happen.
                notes.append(("lost_move", seat))
                kind = UP
            elif cls == NONE:
                # The own highest pawn on level 3 or 2 goes back to level 1.
                back = seat << 2 | (3 if p[i + 2] else (2 if p[i + 1] else 0))
        elif kind == UP:
            p[i + a - 1] -= 1
            p[i + a] += 1
            notes.append(("up", seat, a))
            if a == 3:
                notes.append(("safe", seat))
                if p[i + 3] == PAWNS:
                    self.winner = seat
                    self.phase = OVER
                    notes.append(("win", seat))
                    return
        elif kind == PEN:
            back = a
            again = self.shakes == 1
        elif kind != ROLL:  # SKIP or AGAIN
            again = 1
        if kind == UP and self.result == BIG:
            self.phase = PENALTY
            if len(self.legal()) > 1:
                return
            # No penalty could do anything: Special Advantage skips it, BIG on
            # shake 2/3 takes the extra turn.
            again = 1
        if back & 3:
            j = (back >> 2) * 4
            p[j + (back & 3) - 1] -= 1
            p[j] += 1
            notes.append(("penalty", back >> 2, back & 3))
        if again:
            notes.append(("again", seat))
            nxt = seat
        self.phase = SHAKE
        self.player = nxt
        self.held = 0
        self.shakes = 0
        notes.append(("turn", nxt))

    def to_bytes(self):
        b = bytearray((VERSION, self.players, self.spots, self.phase, self.player,
                       0, 0, 0, 0, self.held, self.shakes, self.result + 1,
                       self.winner + 1, self.starter + 1, self._pawns[RO_IN],
                       self._pawns[RO_TODO],
                       0, 0, 0, 0))
        b[5:9] = self.dice
        b[16:16 + self.players] = self.rolloff
        return bytes(b + self._pawns[:16])

    @classmethod
    def from_bytes(cls, b, dice=None):
        """The game saved by to_bytes; ValueError when b is malformed."""
        # Loading and its checks live apart (Continue only): a new game never holds them.
        from core.shakeup_load import load
        return load(cls, b, dice, classify)

