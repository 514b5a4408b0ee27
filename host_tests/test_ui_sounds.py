# portable: runs under MicroPython too
"""The sound effects are valid sequences for hal.buzzer and short enough to never get
in the way; playing one through the real Buzzer ends on time, muted or not."""
from hal.buzzer import NOTES, Buzzer
from ui import sounds

NAMES = ("RATTLE", "LAND", "SELECT", "BANK", "FARKLE", "PENALTY", "SAFE", "WIN", "NOPE")


def _ms(seq):
    return sum(seq[i + 1] for i in range(0, len(seq), 2)) * 10


def _tune(snd):
    """An effect's bytes: its part of sounds.TUNES (start << 8 | end)."""
    return sounds.TUNES[snd >> 8:snd & 0xFF]


def test_effects_are_valid_sequences():
    ends = []
    for name in NAMES:
        snd = getattr(sounds, name)
        ends.append((snd >> 8, snd & 0xFF))
        seq = _tune(snd)
        assert isinstance(seq, bytes) and seq and len(seq) % 2 == 0, name
        for i in range(0, len(seq), 2):
            assert 0 <= seq[i] <= NOTES, (name, seq[i])
            assert seq[i + 1] > 0, name
        limit = 3000 if name == "WIN" else 600
        assert _ms(seq) <= limit, (name, _ms(seq))
    # The rattle repeats every 200 ms while the dice tumble: it must fit in that.
    assert _ms(_tune(sounds.RATTLE)) <= 200
    # The effects tile TUNES: none overlaps another, none is lost.
    ends.sort()
    assert ends[0][0] == 0 and ends[-1][1] == len(sounds.TUNES), ends
    for a, b in zip(ends, ends[1:]):
        assert a[1] == b[0], (a, b)


def test_effects_play_to_the_end_muted_or_not():
    for muted in (False, True):
        bz = Buzzer(None)
        bz.muted = muted
        bz.play(sounds.TUNES, sounds.BANK >> 8, sounds.BANK & 0xFF)  # as app.play()
        assert bz.note == sounds.TUNES[sounds.BANK >> 8]
        t = 0
        while bz.busy and t < 5000:
            t += 10
            bz.tick(t)
        assert not bz.busy
        assert abs(t - _ms(_tune(sounds.BANK))) <= 20, (t, _ms(_tune(sounds.BANK)))
