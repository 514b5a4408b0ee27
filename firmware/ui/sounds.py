"""Sound effects for hal.buzzer: (note, duration in 10 ms) pairs, note 0 = rest.

Notes as hal.buzzer numbers them: n = 1..60 is the semitone n-1 above C4 (C7 = 37,
about 2.1 kHz, where a small piezo is loudest). Effects are short and never block: the
buzzer plays them from tick(); muted, they keep their timing in silence.

All effects are one bytes literal, TUNES (hex: 0x28 = note 40, 0x0a = 100 ms): a bytes
object per effect would cost its own header and heap block, and `bytes((40, 1, ...))`
would also keep its tuple of ints in RAM. An effect's name is its place in TUNES,
start << 8 | end; app.play() hands that part to the buzzer (Buzzer.play(TUNES, start,
end)), which plays it in place, without a copy.
"""
try:
    from micropython import const
except ImportError:
    def const(x):
        return x

TUNES = (
    b"\x28\x01\x00\x02\x2c\x01\x00\x01\x26\x01"  # RATTLE
    b"\x00\x03\x2e\x01\x00\x02\x29\x01\x00\x02"
    b"\x1e\x02\x00\x01\x2a\x02"  # LAND
    b"\x30\x02"  # SELECT
    b"\x24\x05\x28\x05\x2b\x08"  # BANK
    b"\x28\x08\x24\x08\x1f\x10"  # FARKLE
    b"\x1c\x06\x00\x02\x18\x0c"  # PENALTY
    b"\x2b\x04\x30\x04\x34\x04\x37\x0a"  # SAFE
    b"\x2b\x08\x2b\x08\x2b\x08\x27\x14\x00\x04"  # WIN
    b"\x29\x08\x29\x08\x29\x08\x26\x14\x00\x04\x2b\x08\x30\x1e"
    b"\x14\x06"  # NOPE
)

# Each effect: start << 8 | end in TUNES.
RATTLE = const(0x0014)   # dice rattling in the hand (the app repeats it while tumbling)
LAND = const(0x141A)     # the dice land: one low knock and a higher tick
SELECT = const(0x1A1C)   # cursor moved / item chosen
BANK = const(0x1C22)     # points banked / pawn moved up
FARKLE = const(0x2228)   # Farkle: a falling phrase
PENALTY = const(0x282E)  # a pawn sent back to level 1
SAFE = const(0x2E36)     # a pawn reaches the Safe Zone
WIN = const(0x364E)      # the winner
NOPE = const(0x4E50)     # something not possible (e.g. OK on a greyed choice)
