"""Shake sensor traces for the tests: garbage samples from a seeded LCG."""


def _lcg_trace(ms, seed, lo, hi):
    """Garbage: samples spread over lo..hi milli-g on every axis (deterministic)."""
    s = seed
    out = []
    for _ in range(ms // 20):
        v = []
        for _ in range(3):
            s = (s * 1103515245 + 12345) & 0x7FFFFFFF
            v.append(lo + (s >> 8) % (hi - lo + 1))
        out.append(tuple(v))
    return out
