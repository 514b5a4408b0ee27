"""A CPU player for a seat of the live round (core.frenzy_live), run by the host of a
link game for the seats it fills with CPUs, and by the simulator's pilot.

`choose(live, s, rng=None)`: one decision for seat s now (None when it has none). It
plays like core.cpu_frenzy's NORMAL: the selection with the most points plus a worth
per die left to roll (five after a fill), rolling on while its running total is below a
threshold per dice left (never banking below the 400 entry off the sheet); rng(1)
nudges the thresholds. It reads only what its seat's player sees.
"""
from core.frenzy import DECLARE, ENTRY, ROLL, STOP, TAKE
from core.frenzy_live import L_DECIDE, L_ROLL, L_TAKE, L_WILD
from core.frenzy_score import dice_in, selections_of

_BANK = b"\x06\x0c\x10\x18\x28"  # keep rolling below this x 50, by dice left 1-5


def choose(live, s, rng=None):
    ph = live.ph[s]
    if ph == L_ROLL:
        return None if live.waiting_wild() and s != live.g.roller else ROLL
    if ph == L_WILD:
        best = 1
        top = -1
        r = live.rolled[s]
        n = live.nrolled[s]
        for v in range(1, 7):
            p = 0
            for m, q in selections_of(r, n, v, live.t):
                if q > p:
                    p = q
            if p > top:
                top = p
                best = v
        return DECLARE | best
    if ph == L_TAKE:
        left0 = 5 - live.riser[s]
        best = 0
        top = -1
        for m, p in selections_of(live.rolled[s], live.nrolled[s], live.usable(s), live.t):
            left = left0 - dice_in(m)
            v = p + 60 * (left if left else 5)
            if v > top:
                top = v
                best = m
        return TAKE | best
    if ph == L_DECIDE:
        run = live.run[s]
        left = live.to_roll(s)
        bar = _BANK[left - 1] * 50
        if rng is not None:
            bar += (rng(1)[0] & 3) * 50
        if not live.g.totals[s] and bar < ENTRY:
            bar = ENTRY
        return ROLL if run < bar else STOP
    return None
