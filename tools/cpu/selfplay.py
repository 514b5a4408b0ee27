"""Self-play: N complete games with seeded dice; prints one JSON object of statistics.

Runs under CPython and under the MicroPython unix port (no argparse; only json.dumps):
  python tools/cpu/selfplay.py --game shakeup --players 4 --games 1000 --seed 1
  micropython tools/cpu/selfplay.py --game frenzy --policy greedy:300 --schedule lockstep

Options: --game shakeup|frenzy (default shakeup), --players N, --games N, --seed N,
--policy random|greedy:N|cpu:easy|cpu:normal|cpu:hard (every seat),
--policies P1,P2,... (one per seat), --schedule relay|lockstep, --ones 300|1000,
--solo-rounds N, --spots (Shake Up pyramid spots). Options a game does not use are
ignored. Frenzy is delegated to tools/cpu/selfplay_frenzy.py (`run(opts) -> dict`).

Shake Up (policy random: a uniformly random legal decision, drawn from a Seeded
source, never from `random`; cpu:easy|normal|hard: core.cpu_shakeup.choose with its
own Seeded bytes and firmware/data/shakeup2.bin, the solved table, read in place;
policies: the per-seat list) reports: games, mean_turns (turns per game),
mean_decisions (decisions per game, roll-off included), wins and win_share per
seat, starter_win_share, results_by_shake (turns that ended on shake 1/2/3) and
result_freq (per shake number, the share of each class BIG/MOVE/PAIR/NONE),
extra_turns, own_penalties (NONE that sent a pawn back), opponent_penalties and
lost_moves, all per game means where marked mean_.

The JSON is written with sorted keys and floats printed from integers (at most 6
decimals), so the same seed prints byte-identical output on both interpreters.
"""
import json
import sys


def _setup_path():
    try:
        here = __file__
    except NameError:
        here = sys.argv[0]
    i = here.rfind("/")
    here = here[:i] if i > 0 else ("/" if i == 0 else ".")
    for p in (here + "/../../firmware", here + "/../sim", here, here + "/.."):  # sim: micropython
        if p not in sys.path:
            sys.path.insert(0, p)


_setup_path()
import paths  # noqa: E402,F401  (tools/paths.py: the tools' folders on sys.path)

USAGE = ("usage: selfplay.py [--game shakeup|frenzy] [--players N] [--games N] "
         "[--seed N] [--policy P] [--policies P1,P2,...] [--schedule relay|lockstep] "
         "[--ones 300|1000] [--solo-rounds N] [--spots]")

_INT_OPTS = ("players", "games", "seed", "ones", "solo_rounds")
_STR_OPTS = ("game", "policy", "policies", "schedule")
_CLASS_KEYS = ("NONE", "PAIR", "MOVE", "BIG")  # index = class value


def parse(argv):
    """argv (without the program name) -> dict of options; None where not given."""
    opts = {"game": None, "players": None, "games": None, "seed": None, "policy": None,
            "policies": None, "schedule": None, "ones": None, "solo_rounds": None, "spots": False}
    i = 0
    while i < len(argv):
        a = argv[i]
        if not a.startswith("--"):
            raise ValueError("unexpected argument %r" % a)
        key = a[2:]
        val = None
        eq = key.find("=")
        if eq >= 0:
            val = key[eq + 1:]
            key = key[:eq]
        key = key.replace("-", "_")
        if key == "spots":
            if val is not None:
                raise ValueError("--spots takes no value")
            opts["spots"] = True
            i += 1
            continue
        if key == "help" or key == "h":
            raise ValueError("help")
        if key not in _INT_OPTS and key not in _STR_OPTS:
            raise ValueError("unknown option --%s" % key.replace("_", "-"))
        if val is None:
            if i + 1 >= len(argv):
                raise ValueError("--%s needs a value" % key.replace("_", "-"))
            val = argv[i + 1]
            i += 1
        i += 1
        if key in _INT_OPTS:
            try:
                val = int(val)
            except ValueError:
                raise ValueError("--%s needs a number, got %r" % (key.replace("_", "-"), val))
        opts[key] = val
    if opts["game"] is None:
        opts["game"] = "shakeup"
    if opts["game"] not in ("shakeup", "frenzy"):
        raise ValueError("--game must be shakeup or frenzy")
    if opts["games"] is not None and opts["games"] < 0:
        raise ValueError("--games must not be negative")
    if opts["schedule"] is not None and opts["schedule"] not in ("relay", "lockstep"):
        raise ValueError("--schedule must be relay or lockstep")
    if opts["ones"] is not None and opts["ones"] not in (300, 1000):
        raise ValueError("--ones must be 300 or 1000")
    return opts


def ratio(num, den, places=4):
    """num / den rounded half up to `places` decimals, via integers (same on both VMs)."""
    if not den:
        return None
    scale = 10 ** places
    q = (2 * num * scale + den) // (2 * den)
    return q / scale


def _num(x):
    # Floats as at most 6 decimals from integers: MicroPython's float repr is not
    # always the shortest (0.0826 may print as 0.08260000000000001).
    neg = x < 0
    q = int((-x if neg else x) * 1000000 + 0.5)
    text = "%d.%06d" % (q // 1000000, q % 1000000)
    text = text.rstrip("0")
    if text.endswith("."):
        text += "0"
    return ("-" + text) if neg and q else text


def dumps(obj):
    """JSON with sorted keys (MicroPython dicts do not keep insertion order)."""
    if isinstance(obj, float):
        return _num(obj)
    if isinstance(obj, dict):
        keys = sorted(obj)
        return "{" + ", ".join(json.dumps(str(k)) + ": " + dumps(obj[k]) for k in keys) + "}"
    if isinstance(obj, (list, tuple)):
        return "[" + ", ".join(dumps(v) for v in obj) + "]"
    return json.dumps(obj)


_SKILLS = ("cpu:easy", "cpu:normal", "cpu:hard")  # index = core.cpu_shakeup skill


def shakeup_seats(opts, players):
    """Per seat: None (random) or a CPU skill 0-2, from --policies or --policy."""
    names = opts.get("policies")
    names = names.split(",") if names else [opts.get("policy") or "random"] * (players or 2)
    if players and len(names) != players:
        raise ValueError("--policies names %d seats, --players %d" % (len(names), players))
    out = []
    for p in names:
        if p == "random":
            out.append(None)
        elif p in _SKILLS:
            out.append(_SKILLS.index(p))
        else:
            raise ValueError("Shake Up policies are random or cpu:easy|normal|hard, got %r" % p)
    return out


def _data(name):
    """firmware/data/<name>, found from the core package (works on both interpreters)."""
    import core
    here = core.__file__
    return here[:here.rfind("/core/")] + "/data/" + name


def play_shakeup(opts):
    from core import shakeup as S
    from core.dice import Dice
    from core.seeded import Seeded

    players = opts.get("players")
    games = opts.get("games")
    games = 100 if games is None else games
    seed = opts.get("seed")
    seed = 1 if seed is None else seed
    policy = opts.get("policy") or "random"
    spots = bool(opts.get("spots"))
    seats = shakeup_seats(opts, players)
    players = len(seats)
    if players < 2 or players > 4:
        raise ValueError("Shake Up needs 2-4 players")
    dice = Dice(Seeded(seed))
    from seeded_pick import Pick
    pick = Pick(seed * 7919 + 17)
    cpu = table = None
    if [k for k in seats if k is not None]:
        from core import cpu_shakeup as cpu
        table = open(_data("shakeup2.bin"), "rb")  # HARD's table, read in place
    cpu_rng = Seeded(seed * 104729 + 3)  # the CPUs' own bytes, never the dice
    # The CPUs' memo of positions seen (the same decisions, faster), kept small
    # where the heap is small.
    memo = {}
    most = 20000 if sys.implementation.name == "cpython" else 64

    wins = [0] * players
    by_shake = [[0, 0, 0, 0] for _ in range(4)]  # [shake_no][class]
    turns = decisions = starter_wins = 0
    again = own_pen = opp_pen = lost = 0
    for _ in range(games):
        g = S.Game(players, spots, dice)
        while g.phase != S.OVER:
            lg = g.legal()
            seat = g.player  # who decides: a penalty of another seat is an opponent's
            skill = seats[seat]
            if skill is None:
                g.apply(lg[pick(len(lg))])
            else:
                if len(memo) > most:
                    memo.clear()
                g.apply(cpu.choose(g, skill, cpu_rng, table, memo))
            decisions += 1
            for n in g.notes:
                k = n[0]
                if k == "result":
                    turns += 1
                    by_shake[n[3]][n[2]] += 1
                elif k == "again":
                    again += 1
                elif k == "penalty":
                    if n[1] == seat:
                        own_pen += 1
                    else:
                        opp_pen += 1
                elif k == "lost_move":
                    lost += 1
        wins[g.winner] += 1
        if g.winner == g.starter:
            starter_wins += 1
    if table is not None:
        table.close()

    freq = {}
    counts = {}
    for sh in (1, 2, 3):
        row = by_shake[sh]
        tot = sum(row)
        counts[str(sh)] = tot
        freq[str(sh)] = dict((_CLASS_KEYS[c], ratio(row[c], tot)) for c in range(4))
    return {
        "game": "shakeup",
        "players": players,
        "games": games,
        "seed": seed,
        "policy": policy,
        "policies": [_SKILLS[k] if k is not None else "random" for k in seats],
        "spots": spots,
        "mean_turns": ratio(turns, games, 2),
        "mean_decisions": ratio(decisions, games, 2),
        "wins": wins,
        "win_share": [ratio(w, games) for w in wins],
        "starter_win_share": ratio(starter_wins, games),
        "results_by_shake": counts,
        "result_freq": freq,
        "mean_extra_turns": ratio(again, games, 2),
        "mean_own_penalties": ratio(own_pen, games, 2),
        "mean_opponent_penalties": ratio(opp_pen, games, 2),
        "lost_moves": lost,
    }


def main(argv):
    opts = parse(argv)
    if opts["game"] == "frenzy":
        import selfplay_frenzy
        return selfplay_frenzy.run(opts)
    return play_shakeup(opts)


if __name__ == "__main__":
    try:
        out = main(sys.argv[1:])
    except ValueError as e:
        msg = str(e)
        print(USAGE if msg == "help" else "selfplay: %s\n%s" % (msg, USAGE), file=sys.stderr)
        sys.exit(0 if msg == "help" else 2)
    print(dumps(out))
