"""Piezo buzzer: tone sequences played from the main loop, never blocking.

`Buzzer(pin, duty_u16=32768)`: one PWM made at start, silent (duty_u16=0); pin None
gives a buzzer that keeps time but makes no sound.
- `play(seq, start=0, end=len(seq))`: plays seq[start:end] in place (no copy: ui.sounds
  keeps every effect in one bytes); `seq` is bytes of (note, duration) pairs, duration
  in 10 ms units; note 0 is a rest, note n (1..60) the semitone n-1 above C4
  (261.6 Hz): n = 1 + 12 * (octave - 4) + semitone, so A4 = 10, C5 = 13, C6 = 25,
  C7 = 37, B8 = 60. The first note sounds at once; its duration counts from the next
  `tick()`.
- `tick(now_ms)`: advances the sequence; call it every frame.
- `mute(on)`: silences the PWM at once while the sequence keeps the same timing (`busy`
  and the note index advance exactly as when audible); `muted` says which (set before
  play() it takes effect with the first note).
- `busy`, `note` (current note, 0 when silent or resting); `play(b"")` stops.
tick() allocates nothing.
"""
try:
    from time import ticks_add, ticks_diff
except ImportError:  # CPython
    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b

from micropython import const

_TYPES = const(0)  # the attributes' types, for pyright (on the device "if 0:" is no code)
if _TYPES:
    from machine import PWM

# C8..B8 in Hz (4186, 4435, ... 7902), 16 bits each, high byte first; lower octaves
# shift right.
_TOP = b"\x10\x5a\x11\x53\x12\x5b\x13\x72\x14\x9a\x15\xd4\x17\x20\x18\x80\x19\xf5\x1b\x80\x1d\x23\x1e\xde"
NOTES = 60


class Buzzer:
    # Set by __init__ (annotations only: no code, no heap on the device).
    pwm: "PWM | None"
    _loud: int
    _seq: bytes
    _i: int
    _stop: int
    _end: "int | None"
    muted: bool
    busy: bool
    note: int

    def __init__(self, pin, duty_u16=32768):
        self.pwm = None
        if pin is not None:
            from machine import PWM, Pin
            if not isinstance(pin, Pin):
                pin = Pin(pin)
            self.pwm = PWM(pin, freq=2000, duty_u16=0)
        self._loud = duty_u16
        self._seq = b""
        self._i = 0
        self._stop = 0
        self._end = None  # None until the first tick() times the current sequence
        self.muted = False
        self.busy = False
        self.note = 0

    def mute(self, on):
        self.muted = bool(on)
        if self.busy:
            self._sound(self._seq[self._i])

    def play(self, seq, start=0, end=-1):
        if end < 0:
            end = len(seq)
        if (end - start) & 1 or start < 0 or end > len(seq):
            raise ValueError("a tone sequence is (note, duration) pairs")
        for i in range(start, end, 2):
            if seq[i] > NOTES:
                raise ValueError("note %d out of range 0..%d" % (seq[i], NOTES))
        self._seq = seq
        self._i = start
        self._stop = end
        self._end = None
        self.busy = end > start
        self._sound(seq[start] if end > start else 0)

    def _sound(self, note):
        self.note = note
        p = self.pwm
        if p is None:
            return
        if note == 0 or self.muted:
            p.duty_u16(0)
        else:
            n = note - 1  # semitones above C4: C8..B8 shifted down by whole octaves
            k = 2 * (n % 12)
            p.freq(((_TOP[k] << 8) | _TOP[k + 1]) >> (4 - n // 12))
            p.duty_u16(self._loud)

    def tick(self, now):
        if not self.busy:
            return
        seq = self._seq
        end = self._end
        if end is None:
            end = ticks_add(now, seq[self._i + 1] * 10)
        while ticks_diff(now, end) >= 0:
            i = self._i + 2
            if i >= self._stop:
                self.busy = False
                self._i = 0
                self._sound(0)
                return
            self._i = i
            end = ticks_add(end, seq[i + 1] * 10)
            self._sound(seq[i])
        self._end = end
