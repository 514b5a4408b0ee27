"""Sound effects for hal.buzzer: bytes of (note, duration in 10 ms) pairs, note 0 = rest.

Notes as hal.buzzer numbers them: n = 1..60 is the semitone n-1 above C4 (C7 = 37,
about 2.1 kHz, where a small piezo is loudest). Effects are short and never block: the
buzzer plays them from tick(); muted, they keep their timing in silence.

Written as bytes literals (hex: 0x28 = note 40, 0x0a = 100 ms): `bytes((40, 1, ...))`
would also keep its tuple of ints in RAM, as a constant of the loaded module.
"""

# Dice rattling in the hand: irregular short clicks (the app repeats it while tumbling).
RATTLE = (b"\x28\x01\x00\x02\x2c\x01\x00\x01\x26\x01"
          b"\x00\x03\x2e\x01\x00\x02\x29\x01\x00\x02")
# The dice land: one low knock and a higher tick.
LAND = b"\x1e\x02\x00\x01\x2a\x02"
# Cursor moved / item chosen.
SELECT = b"\x30\x02"
# Points banked / pawn moved up.
BANK = b"\x24\x05\x28\x05\x2b\x08"
# Farkle: a falling phrase.
FARKLE = b"\x28\x08\x24\x08\x1f\x10"
# A pawn sent back to level 1.
PENALTY = b"\x1c\x06\x00\x02\x18\x0c"
# A pawn reaches the Safe Zone.
SAFE = b"\x2b\x04\x30\x04\x34\x04\x37\x0a"
# The winner.
WIN = (b"\x2b\x08\x2b\x08\x2b\x08\x27\x14\x00\x04"
       b"\x29\x08\x29\x08\x29\x08\x26\x14\x00\x04\x2b\x08\x30\x1e")
# Something not possible (e.g. OK on a greyed choice).
NOPE = b"\x14\x06"
