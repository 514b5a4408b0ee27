"""Farkle Frenzy self-play: `run(opts) -> dict` of statistics, for tools/cpu/selfplay.py.

Runs under CPython and the MicroPython unix port (randomness only from
core.dice.Seeded). opts keys: players, games, seed, policy ("random", "greedy:N" or
"cpu:easy|normal|hard"), policies ("P1,P2,...": one per seat), schedule
("relay"/"lockstep" or 0/1), ones (300/1000), solo_rounds (N > 0: play N single
rounds of 1 player instead of games).

Policies (issue 2, section 3), for every seat (policy) or one per seat (policies,
"P1,P2,..."):
- random: a uniformly random legal decision every time.
- cpu:easy, cpu:normal, cpu:hard: core.cpu_frenzy.choose at skill 0, 1, 2 (EASY's
  and NORMAL's variety from a Seeded source of their own per seat).
- greedy:N: take the selection with the most points (ties: fewest rolled dice,
  i.e. fewest dice onto the riser, then the one without the Common Die); stop once
  the running total is >= N, otherwise roll on, also after filling the riser; as
  the roller declare a WILD as the value that gives the first roll its
  highest-scoring selection (ties: the smallest value).

Report: games, rounds_per_game (mean), farkle_rate per number of dice rolled
("1".."5"), win_share per seat, mean_round_score per Common Die face ("1", "5",
"2X", "WILD": after the 2X doubling, before the 400 entry rule), and counts.
"""

from core import frenzy as F
from core.dice import Dice, TWOX, WILD
from core.seeded import Seeded
from core.frenzy_score import COMMON_BIT, ones_table, selections_of
from seeded_pick import Pick as _Pick

_FACE_KEYS = {1: "1", 5: "5", TWOX: "2X", WILD: "WILD"}
_POP = bytes(bin(m).count("1") for m in range(32))


def best_selection(rolled, n, common, t):
    """The greedy choice: (mask, points) with the most points; ties: fewest rolled
    dice, then without the Common Die. None for a Farkle."""
    best = None
    bp = -1
    bk = 0
    for m, p in selections_of(rolled, n, common, t):
        k = _POP[m & 0x1F] * 2 + (1 if m & COMMON_BIT else 0)
        if p > bp or (p == bp and k < bk):
            best = m
            bp = p
            bk = k
    return None if best is None else (best, bp)


def _greedy_wild(g):
    # The value that gives the roller's first roll its highest-scoring selection.
    best_v = 1
    best_p = -1
    for v in range(1, 7):
        b = best_selection(g.rolled, g.nrolled, v, g._t)
        p = b[1] if b else 0
        if p > best_p:
            best_p = p
            best_v = v
    return best_v


def _decide(g, policy, limit, pick):
    if isinstance(policy, list):  # one (policy, limit, byte source, table) per seat
        policy, limit, src, table = policy[g.player]
        if policy == "cpu":
            from core.cpu_frenzy import choose
            return choose(g, limit, src, table)
    ph = g.phase
    if policy == "random":
        legal = g.legal()
        return legal[pick(len(legal))]
    if ph == F.PH_COMMON:
        return F.COMMON_ROLL
    if ph == F.PH_ROLL:
        return F.ROLL
    if ph == F.PH_WILD:
        return F.DECLARE | _greedy_wild(g)
    if ph == F.PH_TAKE:
        return F.TAKE | best_selection(g.rolled, g.nrolled, g.usable(), g._t)[0]
    return F.STOP if g.running(g.player) >= limit else F.ROLL


class _Stats:
    def __init__(self, players):
        self.rolls = [0] * 6
        self.farkles = [0] * 6
        self.face_sum = {}
        self.face_n = {}
        self.rounds = 0
        self.ties = 0
        self.wins = [0] * players
        self._last_n = 0

    def before(self, g, d):
        if g.phase == F.PH_ROLL and d == F.ROLL:
            self._last_n = g.to_roll()
            self.rolls[self._last_n] += 1

    def after(self, g):
        for note in g.notes:
            k = note[0]
            if k == "farkle":
                self.farkles[self._last_n] += 1
            elif k == "round_end":
                self.rounds += 1
                key = _FACE_KEYS[g.common]
                for s in range(g.players):
                    if g.status(s) != F.OUT:
                        self.face_sum[key] = self.face_sum.get(key, 0) + g.round_raw[s]
                        self.face_n[key] = self.face_n.get(key, 0) + 1
            elif k == "tie":
                self.ties += 1
            elif k == "win":
                self.wins[note[1]] += 1


def _play(g, policy, limit, pick, st, one_round=False):
    steps = 0
    while g.phase != F.PH_OVER:
        d = _decide(g, policy, limit, pick)
        st.before(g, d)
        g.apply(d)
        st.after(g)
        steps += 1
        if steps > 1000000:
            raise RuntimeError("a game did not end")
        if one_round and g.round > 1:
            break


def _ratio(num, den, places):
    # Rounded half up through integers, so both interpreters print the same.
    if not den:
        return None
    scale = 10 ** places
    return ((2 * num * scale + den) // (2 * den)) / scale


_SKILLS = {"cpu:easy": 0, "cpu:normal": 1, "cpu:hard": 2}


def _policy(name):
    """A policy's name -> (kind, limit or skill)."""
    if name.startswith("greedy:"):
        try:
            return "greedy", int(name[7:])
        except ValueError:
            pass
    elif name == "random":
        return "random", 0
    elif name in _SKILLS:
        return "cpu", _SKILLS[name]
    raise ValueError("policy must be random, greedy:N or cpu:easy|normal|hard, got %r"
                     % (name,))


def _open_table():
    # HARD's table read in place, as on the device.
    from core.cpu_frenzy import open_table
    t = open_table()
    if t is None:
        raise ValueError("cpu:hard needs firmware/data/frenzy_round.bin "
                         "(python tools/gen/gen_frenzy_policy.py)")
    return t


def _opt(opts, key, default):
    v = opts.get(key)
    return default if v is None else v


def run(opts):
    players = int(_opt(opts, "players", 2))
    games = int(_opt(opts, "games", 100))
    seed = int(_opt(opts, "seed", 1))
    policy = _opt(opts, "policy", "greedy:300")
    sched = _opt(opts, "schedule", "relay")
    ones = int(_opt(opts, "ones", 300))
    solo = int(_opt(opts, "solo_rounds", 0) or 0)
    if sched in ("relay", F.RELAY):
        sched = F.RELAY
    elif sched in ("lockstep", F.LOCKSTEP):
        sched = F.LOCKSTEP
    else:
        raise ValueError("schedule must be relay or lockstep, got %r" % (sched,))
    ones_table(ones)
    per_seat = opts.get("policies")
    if solo:
        players = 1
    if per_seat:
        names = per_seat.split(",")
        if opts.get("players") is None and not solo:
            players = len(names)
        if len(names) != players:
            raise ValueError("--policies needs one policy per seat (%d), got %r"
                             % (players, per_seat))
        label = per_seat
    else:
        names = [policy] * players
        label = policy
    seats = []
    table = None
    for i, name in enumerate(names):
        kind, limit = _policy(name)
        if kind == "cpu" and limit == 2 and table is None:
            table = _open_table()
        seats.append((kind, limit, Seeded(seed * 104729 + 31 * i + 5), table))
    policy, limit = seats[0][0], seats[0][1]
    if any(p[0] == "cpu" for p in seats) or len(set(names)) > 1:
        policy = seats  # per seat
    dice = Dice(Seeded(seed))
    pick = _Pick(seed * 7919 + 17)
    st = _Stats(players)
    if solo:
        for _ in range(solo):
            g = F.Game(1, sched, ones, dice)
            _play(g, policy, limit, pick, st, True)
        played = 0
    else:
        for _ in range(games):
            g = F.Game(players, sched, ones, dice)
            _play(g, policy, limit, pick, st)
        played = games
    if table is not None:
        table.close()
    rate = {}
    rolls = {}
    for n in range(1, 6):
        rolls[str(n)] = st.rolls[n]
        rate[str(n)] = _ratio(st.farkles[n], st.rolls[n], 4)
    mean = {}
    count = {}
    for key in ("1", "5", "2X", "WILD"):
        c = st.face_n.get(key, 0)
        count[key] = c
        mean[key] = _ratio(st.face_sum.get(key, 0), c, 1)
    out = {
        "game": "frenzy",
        "players": players,
        "schedule": "relay" if sched == F.RELAY else "lockstep",
        "ones": ones,
        "policy": label,
        "seed": seed,
        "games": played,
        "rounds": st.rounds,
        "farkle_rate": rate,
        "rolls": rolls,
        "mean_round_score": mean,
        "rounds_per_face": count,
    }
    if solo:
        out["solo_rounds"] = solo
    else:
        out["rounds_per_game"] = _ratio(st.rounds, games, 2)
        out["tie_rounds"] = st.ties
        out["wins"] = st.wins
        out["win_share"] = [_ratio(w, games, 4) for w in st.wins]
    return out
