"""Generate the HARD Frenzy CPU's table, firmware/data/frenzy_round.bin: the exact
expected round score of every position of one player's round, by a DP.

A position (a "row" and a running total T): n dice to roll next (1-5; 5 also after
filling the riser, when all five are taken again), whether the Common Die's number
can still count in this set of five (u), and T in units of 50. Its value
V(n, u, T) = max(stop(T), R(n, u, T)), where R is the expectation of rolling: over
the 6**n rolls (grouped as multisets), the best take (k rolled dice, with or
without the Common Die, scoring p > 0) leads to V(n - k, u and not used, T + p), or
to V(5, 1, T + p) when it fills the riser; a Farkle is worth 0. stop(T) = T, or, for
a player not on the score sheet yet, 0 below the 400 entry (200 raw under 2X, whose
doubling comes after).

Every take scores at least 50, so V at T depends only on larger totals: the DP runs
once from a cap down to 0 (no iteration). Above the cap a position is valued as
stopping there (V = T), which can only undervalue it: the error is measured by
solving again with the cap doubled (`--error`), and it is below 1e-6 points.

One table per three-1s option (300/1000) and Common Die number: none (the 2X face)
or 1-6 (1 and 5 as faces, any of 1-6 declared for WILD). The file stores, per
row, the gain G = V - T in quarter points (2 bytes) for T = 0, 50, ... up to the
last T where rolling beats stopping (then G = 0), and, for players off the sheet,
V itself for T below the entry (layout: core.cpu_frenzy). The CPU takes the
selection whose next position has the largest V and rolls while G > 0; the device
reads the file in place (one seek and a 2-byte read per value).

Run: python tools/gen/gen_frenzy_policy.py  (--check: exit 1 if the table is stale;
--error: print the cap's truncation error; --values: print V at the round's start;
--report N [--ones 300|1000]: HARD's mean over N solo rounds per Common Die face against the exact
expectation. The CPU's thinking time: tools/cpu/cpu_report.py --part time).
"""
import sys

_HERE = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
ROOT = _HERE + "/../.."
for _p in (ROOT + "/firmware", ROOT + "/tools/sim", _HERE):  # sim: micropython on CPython
    if _p not in sys.path:
        sys.path.insert(0, _p)

from host_only.frenzy_checked import score  # noqa: E402

OUT = ROOT + "/firmware/data/frenzy_round.bin"

CAP = 1200  # units of 50: 60,000 points, far above any total worth rolling on
QUARTER = 4  # the table's unit: a quarter point
NUMS = (0, 1, 2, 3, 4, 5, 6)  # 0: no number (2X)


def row(n, u):
    """Row index of (n dice to roll, Common Die usable): 0-9."""
    return (n - 1) * 2 + u


def _fact(k):
    f = 1
    for i in range(2, k + 1):
        f *= i
    return f


def rolls(n):
    """[(probability, counts[1..6])] of the multisets of n dice."""
    from itertools import combinations_with_replacement
    out = []
    for combo in combinations_with_replacement(range(1, 7), n):
        cnt = [0] * 7
        for v in combo:
            cnt[v] += 1
        ways = _fact(n)
        for v in range(1, 7):
            ways //= _fact(cnt[v])
        out.append((ways / 6.0 ** n, cnt))
    return out


def options(cnt, num, ones):
    """The best points per (k rolled dice used, Common Die used) of a roll's counts:
    {(k, used): points}. A take with the same k and use reaches the same row, so only
    the best points of each matter (V grows with T)."""
    best = {}
    ranges = [range(cnt[v] + 1) for v in range(7)]
    sub = [0] * 7

    def walk(v):
        if v == 7:
            vals = []
            for w in range(1, 7):
                vals += [w] * sub[w]
            k = len(vals)
            if not k:
                return
            for used in ((0, 1) if num else (0,)):
                p = score(vals + [num] if used else vals, ones)
                if p and p > best.get((k, used), 0):
                    best[(k, used)] = p
            return
        for c in ranges[v]:
            sub[v] = c
            walk(v + 1)
        sub[v] = 0

    walk(1)
    return best


def transitions(num, ones):
    """Per row: [(probability, ((next row, +units), ...))] over the non-Farkle rolls,
    rolls with the same choices merged."""
    out = {}
    for n in range(1, 6):
        rl = rolls(n)
        for u in ((0, 1) if num else (0,)):
            if n == 5 and num and not u:
                continue  # five to roll is a fresh set: the number always counts
            merged = {}
            for prob, cnt in rl:
                opts = options(cnt, num if u else 0, ones)
                if not opts:
                    continue  # a Farkle
                ch = []
                for (k, used), p in opts.items():
                    left = n - k
                    nxt = row(5, 1 if num else 0) if left == 0 else row(left, u and not used)
                    ch.append((nxt, p // 50))
                key = tuple(sorted(ch))
                merged[key] = merged.get(key, 0.0) + prob
            out[row(n, u)] = sorted((p, k) for k, p in merged.items())
    return out


def solve(num, ones, entry=0, cap=CAP, tr=None):
    """V[row][t] (t: total in units of 50, 0..cap) for Common Die number num (0: 2X)
    and a player off the sheet below `entry` points (raw), else on it (entry=0)."""
    if tr is None:
        tr = transitions(num, ones)
    rows = sorted(tr)
    size = cap + 61  # takes add at most 3000 points (60 units)
    V = {r: [0.0] * size for r in rows}
    for r in rows:
        for t in range(cap + 1, size):
            V[r][t] = t * 50.0
    for t in range(cap, -1, -1):
        stop = t * 50.0 if t * 50 >= entry else 0.0
        for r in rows:
            acc = 0.0
            for prob, ch in tr[r]:
                b = 0.0
                for nxt, dp in ch:
                    x = V[nxt][t + dp]
                    if x > b:
                        b = x
                acc += prob * b
            V[r][t] = acc if acc > stop else stop
    return V


def solve_all(ones, cap=CAP):
    """{num: (V on the sheet, V off it)} for every Common Die number."""
    out = {}
    for num in NUMS:
        tr = transitions(num, ones)
        on = solve(num, ones, 0, cap, tr)
        off = solve(num, ones, 200 if num == 0 else 400, cap, tr)
        out[num] = (on, off)
    return out


def start_value(V, num):
    """The round's expectation from its start (5 dice, a fresh set)."""
    return V[row(5, 1 if num else 0)][0]


def tables(ones):
    """The device's bytes: index, gains and off-sheet values (see core.cpu_frenzy)."""
    sol = solve_all(ones)
    index = bytearray()
    data = bytearray()
    for num in NUMS:
        on, off = sol[num]
        for r in range(10):
            # Rows not in play (no number: u=1; five dice with u=0) are empty.
            gains = []
            offs = []
            if r in on:
                last = -1
                for t in range(CAP + 1):
                    g = on[r][t] - t * 50
                    if g > 1e-9:
                        last = t
                gains = [int(round((on[r][t] - t * 50) * QUARTER)) for t in range(last + 1)]
                entry = 200 if num == 0 else 400
                offs = [int(round(off[r][t] * QUARTER)) for t in range(entry // 50)]
            index += bytes((len(gains), len(offs)))
            for x in gains + offs:
                if not 0 <= x < 65536:
                    raise ValueError("table value out of range: %r" % x)
                data += bytes((x >> 8, x & 0xFF))
    return bytes(index), bytes(data)


def wild_value(ones, sol, off=False):
    """The round's exact expectation under WILD: the roller sees the first roll, then
    declares the value whose best take leads to the largest V (0: a Farkle for all)."""
    tot = 0.0
    for prob, cnt in rolls(5):
        best = 0.0
        for v in range(1, 7):
            V = sol[v][1 if off else 0]
            for (k, used), p in options(cnt, v, ones).items():
                nxt = row(5, 1) if k == 5 else row(5 - k, not used)
                x = V[nxt][p // 50]
                if x > best:
                    best = x
        tot += prob * best
    return tot


FACES = ((1, "1"), (5, "5"), (7, "2X"), (8, "WILD"))


def exact(ones, off=False):
    """{face: the exact expected round score} (after the 2X doubling; off: the score
    as counted for a player off the sheet, a bank below 400 counting 0)."""
    sol = solve_all(ones)
    out = {}
    for face, key in FACES:
        if face == 8:
            out[key] = wild_value(ones, sol, off)
        else:
            num = 0 if face == 7 else face
            out[key] = start_value(sol[num][1 if off else 0], num) * (2 if face == 7 else 1)
    return out


def _device_values(f, ones, num, entry, size):
    """V as the device reads it (quarter points), and its banks, per row and T."""
    from core import cpu_frenzy as C
    tab = C._Table(f, ones, num, entry)
    vq = {r: [tab.value(r, t) for t in range(size)] for r in range(10)}
    return vq, [tab.bank(t) for t in range(size)]


def policy_rolls(f, ones, num, off):
    """{row: [expected round score of rolling now at T]} for HARD's own rule: each
    take the choice with the largest V as the device reads it from the table file f,
    then bank where that V is no more than the bank (an exact policy evaluation, the
    table's rounding included; solo, so none of the end-of-game rules apply)."""
    tr = transitions(num, ones)
    entry = (200 if num == 0 else 400) if off else 0
    size = CAP + 61
    vq, bank = _device_values(f, ones, num, entry, size)
    rows = sorted(tr)
    W = {r: [0.0] * size for r in rows}
    for r in rows:
        for t in range(CAP + 1, size):
            W[r][t] = t * 50.0
    for t in range(CAP, -1, -1):
        for r in rows:
            acc = 0.0
            for prob, ch in tr[r]:
                bx = -1.0
                for nxt, dp in ch:
                    x = vq[nxt][t + dp]
                    if x > bx:
                        bx = x
                        go = (nxt, t + dp)
                nxt, t2 = go
                acc += prob * (bank[t2] if vq[nxt][t2] <= bank[t2] else W[nxt][t2])
            W[r][t] = acc
    return W, vq, bank


def policy_exact(f, ones, off=False):
    """{face: HARD's exact expected round score} under its own rule (policy_rolls),
    the WILD declared as the device does; the counterpart of exact()."""
    out = {}
    per = {}
    for num in NUMS:
        per[num] = policy_rolls(f, ones, num, off)
    for face, key in FACES:
        if face == 8:
            tot = 0.0
            for prob, cnt in rolls(5):
                bv = -1.0
                go = None
                for v in range(1, 7):
                    W, vq, bank = per[v]
                    for (k, used), p in options(cnt, v, ones).items():
                        nxt = row(5, 1) if k == 5 else row(5 - k, not used)
                        x = vq[nxt][p // 50]
                        if x > bv:
                            bv = x
                            go = (v, nxt, p // 50)
                if go is None:
                    continue  # a Farkle whatever the value
                W, vq, bank = per[go[0]]
                nxt, t2 = go[1], go[2]
                tot += prob * (bank[t2] if vq[nxt][t2] <= bank[t2] else W[nxt][t2])
            out[key] = tot
        else:
            num = 0 if face == 7 else face
            W = per[num][0]
            out[key] = W[row(5, 1 if num else 0)][0] * (2 if face == 7 else 1)
    return out


def _play_round(face, rounds, seed, ones, on_sheet):
    """HARD's mean round score over `rounds` single rounds with the Common Die fixed,
    and the standard error."""
    from core import cpu_frenzy as C
    table = C.open_table()
    from core import frenzy as F
    from core.dice import Dice
    from core.seeded import Seeded
    dice = Dice(Seeded(seed))
    tot = tot2 = 0
    for _ in range(rounds):
        g = F.Game(1, F.RELAY, ones, dice)
        g.apply(F.COMMON_ROLL, (face,))
        if on_sheet:
            g.totals[0] = 50  # on the sheet: every bank counts
        while g.round == 1 and g.phase != F.PH_OVER:
            g.apply(C.choose(g, C.HARD, None, table))
        x = g.round_scores[0]
        tot += x
        tot2 += x * x
    table.close()
    mean = tot / rounds
    var = tot2 / rounds - mean * mean
    return mean, (var / rounds) ** 0.5


def report(rounds, seed, options=(300, 1000)):
    """HARD's solo-round mean per Common Die face against the DP's expectation."""
    for ones in options:
        for on_sheet in (False, True):
            ex = exact(ones, not on_sheet)
            for i, (face, key) in enumerate(FACES):
                m, se = _play_round(face, rounds, seed + i, ones, on_sheet)
                print("ones %4d %-9s face %-4s exact %8.2f  HARD %8.2f +- %5.2f  = %6.2f%%"
                      % (ones, "on-sheet" if on_sheet else "off-sheet", key, ex[key], m, se,
                         100 * m / ex[key]))


HEADER = 140 * 4  # per (three-1s option, number, row): offset uint16, gains, off-sheet values


def table_bytes():
    """firmware/data/frenzy_round.bin (see core.cpu_frenzy): the header, then per row
    its gains and its off-sheet values, uint16 little-endian in quarter points; then
    the trailer the device checks (generated.seal)."""
    from generated import seal
    head = bytearray()
    data = bytearray()
    for ones in (300, 1000):
        idx, body = tables(ones)
        at = 0
        for i in range(0, len(idx), 2):
            ng, noff = idx[i], idx[i + 1]
            o = HEADER + len(data) + at
            if o >= 65536:
                raise ValueError("the table outgrew its 16-bit offsets")
            head += bytes((o & 0xFF, o >> 8, ng, noff))
            at += (ng + noff) * 2
        for j in range(0, len(body), 2):
            data += bytes((body[j + 1], body[j]))  # the solver's big-endian -> little
    return seal(bytes(head) + bytes(data))


def main(argv):
    if "--report" in argv:
        ones = (int(argv[argv.index("--ones") + 1]),) if "--ones" in argv else (300, 1000)
        report(int(argv[argv.index("--report") + 1]), 1, ones)
        return 0
    if "--values" in argv or "--error" in argv:
        for ones in (300, 1000):
            for num in NUMS:
                tr = transitions(num, ones)
                v = start_value(solve(num, ones, 0, CAP, tr), num)
                line = "ones %d number %d: V(start) = %.6f" % (ones, num, v)
                if "--error" in argv:
                    v2 = start_value(solve(num, ones, 0, 2 * CAP, tr), num)
                    line += "  cap x2: %.6f  error %.2e" % (v2, v2 - v)
                print(line)
        return 0
    new = table_bytes()
    try:
        with open(OUT, "rb") as f:
            old = f.read()
    except OSError:
        old = None
    if "--check" in argv:
        print("STALE: run tools/gen/gen_frenzy_policy.py" if new != old
              else "data/frenzy_round.bin is up to date")
        return 1 if new != old else 0
    if new != old:
        with open(OUT, "wb") as f:
            f.write(new)
        print("wrote " + OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
