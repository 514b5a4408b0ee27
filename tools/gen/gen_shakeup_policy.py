"""Solve 2-player Shake Up exactly and write firmware/data/shakeup2.bin.

V(A, B): the chance that the player about to start a turn, with pawns A, wins
against pawns B when both play optimally: every hold after each shake, the level to
move from, whether and whose pawn to penalize, another turn or a penalty. Positions
are both players' pawn counts per level (56 x 56); both variants of the rules are
solved, without and with the pyramid-spots option (the two tables of the file).

The turn is a DP over dice multisets (core.cpu_shakeup documents it): given the
worth of each end of the turn (BIG on shake 1, BIG on shake 2/3, MOVE, PAIR, NONE),
the best holds and the turn's value follow. The worths are the values of the
positions the end leads to (1 - V(B, A') where the opponent moves next), so the
game is a fixed point, found by Gauss-Seidel value iteration (positions nearer the
end first) until no value moves by more than 1e-12; the Bellman residual of the
result is printed. Values are stored as round(V * 65535), uint16 little-endian.

Run: python tools/gen/gen_shakeup_policy.py [--check] [--spots-only|--plain-only]
  --check: solve, and exit 1 if the file differs from the solution.
"""
import os
import sys
import time
from itertools import combinations_with_replacement, product
from operator import itemgetter

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path[:0] = [os.path.join(ROOT, "firmware"), os.path.join(ROOT, "tools", "sim")]  # sim: micropython

from core import cpu_shakeup as C  # noqa: E402
from core import shakeup as S  # noqa: E402
from generated import seal  # noqa: E402

OUT = os.path.join(ROOT, "firmware", "data", "shakeup2.bin")
NPOS = 56
EPS = 1e-12


# ---- positions ----

def placements():
    """The 56 count vectors (c1, c2, c3, c_safe), listed by pawn_rank."""
    out = [None] * NPOS
    for c in product(range(6), repeat=4):
        if sum(c) == 5:
            out[C.pawn_rank(c)] = c
    return out


POS = placements()
RANK = {c: i for i, c in enumerate(POS)}


def moved(c, lv):
    """c with one pawn moved up from level lv."""
    c = list(c)
    c[lv - 1] -= 1
    c[lv] += 1
    return tuple(c)


def sent_back(c, lv):
    """c with one pawn on level lv sent back to level 1."""
    c = list(c)
    c[lv - 1] -= 1
    c[0] += 1
    return tuple(c)


def moves(c, spots):
    """[(rank after the move, wins)] for every legal move up; [(rank(c), False)]
    when none is legal (the move is lost)."""
    lv = S.movable(c, spots, 0)
    if not lv:
        return [(RANK[c], False)]
    return [(RANK[moved(c, v)], moved(c, v)[3] == 5) for v in lv]


def penalties(c):
    """Ranks of c after each possible penalty (a pawn on level 2 or 3 back to 1)."""
    return [RANK[sent_back(c, lv)] for lv in (2, 3) if c[lv - 1]]


def own_penalty(c):
    """c's rank after a NONE: the uppermost pawn on level 3 or 2 goes back to 1."""
    for lv in (3, 2):
        if c[lv - 1]:
            return RANK[sent_back(c, lv)]
    return RANK[c]


# ---- the turn DP ----

def _multisets():
    """All dice multisets of size 0-4 as sorted tuples, indexed by dice_rank."""
    out = [None] * 210
    for n in range(5):
        for t in combinations_with_replacement(range(1, 7), n):
            out[C.dice_rank(t, n)] = t
    return out


MS = _multisets()


def _rank(t):
    t = tuple(sorted(t))
    return C.dice_rank(t, len(t))


def _mult(t):
    """Orderings of the multiset t among 6 ** len(t) rolls."""
    out = 1
    for k in range(2, len(t) + 1):
        out *= k
    for v in set(t):
        for k in range(2, t.count(v) + 1):
            out //= k
    return out


def _submultisets(t):
    """Distinct sub-multisets of t (as sorted tuples), t itself included."""
    seen = set()
    for m in range(1 << len(t)):
        seen.add(tuple(t[i] for i in range(len(t)) if m >> i & 1))
    return sorted(seen)


class Turn:
    """The turn DP's fixed structure; value(w) solves one turn."""

    def __init__(self):
        self.full = [i for i, t in enumerate(MS) if len(t) == 4]
        self.cls = [S.classify(MS[i]) for i in self.full]
        # f3 (worth when holding K before the last shake): sizes 3, 2, 1, 0 in order.
        self.rec = []
        for n in (3, 2, 1, 0):
            for i, t in enumerate(MS):
                if len(t) == n:
                    self.rec.append((i, itemgetter(*[_rank(t + (v,)) for v in range(1, 7)])))
        # f2 (worth when holding H before shake 2): per H of size 0-3, each roll R of
        # the other dice with its orderings and the f3 indices of H + K, K in R.
        self.f2 = []
        for i, h in enumerate(MS):
            if len(h) < 4:
                rows = []
                for r in combinations_with_replacement(range(1, 7), 4 - len(h)):
                    rows.append((_mult(r), itemgetter(*[_rank(h + k) for k in _submultisets(r)])))
                self.f2.append((i, rows, 6 ** (4 - len(h))))
        # Shake 1: each roll D1, its orderings, class, and its proper sub-multisets.
        self.first = []
        for i in self.full:
            t = MS[i]
            subs = [_rank(k) for k in _submultisets(t) if len(k) < 4]
            self.first.append((_mult(t), S.classify(t), itemgetter(*subs)))

    def value(self, w1, wb, wm, wp, wn):
        """The turn's value with the worths of its ends; BIG on shake 1 is worth w1."""
        _, g = self.holds(wb, wm, wp, wn)
        t = 0.0
        w = (wn, wp, wm, w1)
        for m, c, get in self.first:
            b = max(get(g))
            s = w[c]
            t += m * (s if s > b else b)
        return t / 1296.0

    def holds(self, wb, wm, wp, wn):
        """(f, g) by dice_rank: f[K] the worth of holding K before shake 3, g[H] of
        holding H before shake 2 (each with the best holds after)."""
        w = (wn, wp, wm, wb)
        f = [0.0] * 210
        for i, c in zip(self.full, self.cls):
            f[i] = w[c]
        for i, get in self.rec:
            f[i] = sum(get(f)) / 6.0
        g = [0.0] * 210
        for i, rows, den in self.f2:
            s = 0.0
            for m, get in rows:
                s += m * max(get(f))
            g[i] = s / den
        return f, g


# ---- the game ----

class Game2:
    """The Bellman operator of 2-player Shake Up for one variant."""

    def __init__(self, spots):
        self.turn = Turn()
        # Per position (a, b), the successors of each end of the turn.
        self.links = {}
        for a, ca in enumerate(POS):
            if ca[3] == 5:
                continue
            for b, cb in enumerate(POS):
                if cb[3] == 5:
                    continue
                mv = moves(ca, spots)
                pen = penalties(cb)
                self.links[a, b] = (mv, pen, own_penalty(ca))
        # Gauss-Seidel order: positions nearer the end first.
        def progress(k):
            return sum(lv * n for lv, n in zip((1, 2, 3, 4), POS[k[0]])) + \
                sum(lv * n for lv, n in zip((1, 2, 3, 4), POS[k[1]]))
        self.order = sorted(self.links, key=progress, reverse=True)

    def initial(self):
        v = [[0.0] * NPOS for _ in range(NPOS)]
        for a, ca in enumerate(POS):
            for b, cb in enumerate(POS):
                if cb[3] == 5:
                    v[a][b] = 0.0
                elif ca[3] == 5:
                    v[a][b] = 1.0
        return v

    def worths(self, v, a, b):
        mv, pen, none = self.links[a, b]
        w1 = wb = wm = 0.0
        for a2, win in mv:
            if win:
                w1 = wb = wm = 1.0
                break
            again = v[a2][b]
            x1 = again
            xb = again
            for b2 in pen:
                if v[a2][b2] > x1:
                    x1 = v[a2][b2]
                if 1.0 - v[b2][a2] > xb:
                    xb = 1.0 - v[b2][a2]
            xm = 1.0 - v[b][a2]
            w1 = max(w1, x1)
            wb = max(wb, xb)
            wm = max(wm, xm)
        return w1, wb, wm, 1.0 - v[b][a], 1.0 - v[b][none]

    def backup(self, v, a, b):
        return self.turn.value(*self.worths(v, a, b))

    def sweep(self, v):
        """One Gauss-Seidel sweep in place; the largest change."""
        d = 0.0
        for a, b in self.order:
            x = self.backup(v, a, b)
            e = abs(x - v[a][b])
            if e > d:
                d = e
            v[a][b] = x
        return d

    def residual(self, v):
        """max |T(v) - v| over all positions (Jacobi: v is not changed)."""
        return max(abs(self.backup(v, a, b) - v[a][b]) for a, b in self.order)


def solve(spots, log=print, eps=EPS):
    g = Game2(spots)
    v = g.initial()
    t0 = time.time()
    n = 0
    while True:
        d = g.sweep(v)
        n += 1
        log("spots=%d sweep %d: max change %.3g (%.0f s)" % (spots, n, d, time.time() - t0))
        if d < eps:
            break
    res = g.residual(v)
    log("spots=%d: %d sweeps, %.0f s, Bellman residual %.3g" % (spots, n, time.time() - t0, res))
    return v, res, n


def encode(tables):
    """The file: both variants' values, then the trailer the device checks
    (generated.seal)."""
    out = bytearray()
    for v in tables:
        for a in range(NPOS):
            for b in range(NPOS):
                q = int(v[a][b] * 65535 + 0.5)
                out += bytes((q & 0xFF, q >> 8))
    return seal(out)


def decode(data, spots):
    """The stored table of one variant as floats v[a][b]."""
    base = spots * NPOS * NPOS * 2
    return [[(data[base + 2 * (a * NPOS + b)] | data[base + 2 * (a * NPOS + b) + 1] << 8) / 65535.0
             for b in range(NPOS)] for a in range(NPOS)]


def main(argv):
    tables = []
    for spots in (0, 1):
        v, _, _ = solve(spots)
        tables.append(v)
        start = RANK[(5, 0, 0, 0)]
        print("spots=%d: V(start) = %.6f" % (spots, v[start][start]))
    data = encode(tables)
    old = None
    if os.path.exists(OUT):
        with open(OUT, "rb") as f:
            old = f.read()
    if "--check" in argv:
        print("shakeup2.bin is up to date" if old == data else "STALE: shakeup2.bin")
        return 0 if old == data else 1
    if old != data:
        os.makedirs(os.path.dirname(OUT), exist_ok=True)
        with open(OUT, "wb") as f:
            f.write(data)
        print("wrote %s (%d bytes)" % (OUT, len(data)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
