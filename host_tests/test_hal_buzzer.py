# portable: runs under MicroPython too
"""The buzzer on the simulated PWM: silent start, sequence timing, mute."""
from hal_rig import SIM, board, no_alloc

import machine
from hal.buzzer import Buzzer

# A4 for 50 ms, a 20 ms rest, C5 for 30 ms.
_SEQ = bytes((10, 5, 0, 2, 13, 3))


def _buzzer():
    board("sim")
    return Buzzer(machine.Pin(27))


def freq(note):
    """The PWM frequency a note plays at (0: silent)."""
    bz = _buzzer()
    bz.play(bytes((note, 1)))
    return SIM.pwm.freq if SIM.pwm.duty else 0


def test_notes():
    assert freq(10) == 440 and freq(22) == 880 and freq(1) == 261 and freq(13) == 523
    assert freq(60) == 7902
    assert freq(0) == 0  # a rest
    try:
        _buzzer().play(bytes((61, 1)))
        raise AssertionError("note 61 accepted")
    except ValueError:
        pass


def test_created_silent():
    bz = _buzzer()
    assert SIM.pwm.log[0][1] == 0            # never at the PWM's default 50 % duty
    assert all(d == 0 for (f, d) in SIM.pwm.log)
    assert not bz.busy and not SIM.pwm.sounding()


def _trace(bz, until=120, step=5):
    out = []
    for t in range(0, until, step):
        bz.tick(t)
        out.append((t, bz.busy, bz.note, SIM.pwm.freq if SIM.pwm.duty else 0))
    return out


def test_sequence_timing():
    bz = _buzzer()
    bz.play(_SEQ)
    assert bz.busy and SIM.pwm.freq == 440 and SIM.pwm.duty > 0   # sounds at once
    tr = _trace(bz)
    sound = dict((t, f) for (t, b, n, f) in tr)
    assert sound[0] == 440 and sound[45] == 440
    assert sound[50] == 0 and sound[65] == 0        # the rest
    assert sound[70] == 523 and sound[95] == 523
    assert sound[100] == 0
    busy = [t for (t, b, n, f) in tr if b]
    assert busy[-1] == 95


def test_mute_keeps_timing():
    bz = _buzzer()
    bz.play(_SEQ)
    loud = [(t, b, n) for (t, b, n, f) in _trace(bz)]
    bz = _buzzer()
    bz.mute(True)
    bz.play(_SEQ)
    tr = _trace(bz)
    assert [(t, b, n) for (t, b, n, f) in tr] == loud
    assert all(f == 0 for (t, b, n, f) in tr)
    assert not SIM.pwm.sounding()


def test_mute_mid_note_and_unmute():
    bz = _buzzer()
    bz.play(_SEQ)
    bz.tick(0)
    bz.mute(True)
    assert SIM.pwm.duty == 0 and bz.busy and bz.muted
    bz.mute(False)
    assert SIM.pwm.duty > 0 and SIM.pwm.freq == 440


def test_stop_and_replace():
    bz = _buzzer()
    bz.play(_SEQ)
    bz.tick(0)
    bz.play(bytes((37, 2)))
    assert SIM.pwm.freq == 2093  # C7
    bz.play(b"")
    assert not bz.busy and SIM.pwm.duty == 0


def test_a_part_plays_in_place_and_stops_at_its_end():
    """play(seq, start, end): the part between, as if it were its own sequence (the
    app plays each effect from one shared bytes this way)."""
    whole = bytes((37, 2)) + _SEQ + bytes((25, 4))
    bz = _buzzer()
    bz.play(whole, 2, 2 + len(_SEQ))
    tr = _trace(bz)
    bz = _buzzer()
    bz.play(_SEQ)
    assert tr == _trace(bz)
    assert not bz.busy and bz.note == 0  # the last pair (25, 4) never sounded


def test_bad_sequences():
    bz = _buzzer()
    for seq, start, end in ((_SEQ, 1, 4), (_SEQ, 0, len(_SEQ) + 2), (_SEQ, -2, 2)):
        try:
            bz.play(seq, start, end)
            raise AssertionError("accepted part %d..%d" % (start, end))
        except ValueError:
            pass

    bz = _buzzer()
    for bad in (bytes((10,)), bytes((99, 2))):
        try:
            bz.play(bad)
            raise AssertionError("accepted %r" % (bad,))
        except ValueError:
            pass


def test_no_pin_keeps_time_silently():
    board("sim")
    bz = Buzzer(None)
    bz.play(_SEQ)
    bz.tick(0)
    bz.tick(99)
    assert bz.busy
    bz.tick(100)
    assert not bz.busy


class _Pwm:
    def freq(self, f):
        pass

    def duty_u16(self, d):
        pass


def test_tick_allocates_nothing():
    bz = Buzzer(None)
    bz.pwm = _Pwm()
    seq = bytes((10, 1, 0, 1, 13, 1, 25, 1))
    bz.play(seq)
    for t in range(0, 60, 5):
        no_alloc(bz.tick, t)
    assert not bz.busy
