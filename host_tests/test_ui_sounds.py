# portable: runs under MicroPython too
"""The sound effects are valid sequences for hal.buzzer and short enough to never get
in the way; playing one through the real Buzzer ends on time, muted or not."""
from hal.buzzer import NOTES, Buzzer
from ui import sounds

NAMES = ("RATTLE", "LAND", "SELECT", "BANK", "FARKLE", "PENALTY", "SAFE", "WIN", "NOPE")


def _ms(seq):
    return sum(seq[i + 1] for i in range(0, len(seq), 2)) * 10


def test_effects_are_valid_sequences():
    for name in NAMES:
        seq = getattr(sounds, name)
        assert isinstance(seq, bytes) and seq and len(seq) % 2 == 0, name
        for i in range(0, len(seq), 2):
            assert 0 <= seq[i] <= NOTES, (name, seq[i])
            assert seq[i + 1] > 0, name
        limit = 3000 if name == "WIN" else 600
        assert _ms(seq) <= limit, (name, _ms(seq))
    # The rattle repeats every 200 ms while the dice tumble: it must fit in that.
    assert _ms(sounds.RATTLE) <= 200


def test_effects_play_to_the_end_muted_or_not():
    for muted in (False, True):
        bz = Buzzer(None)
        bz.muted = muted
        bz.play(sounds.BANK)
        t = 0
        while bz.busy and t < 5000:
            t += 10
            bz.tick(t)
        assert not bz.busy
        assert abs(t - _ms(sounds.BANK)) <= 20, (t, _ms(sounds.BANK))
