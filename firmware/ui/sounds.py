"""Sound effects for hal.buzzer: bytes of (note, duration in 10 ms) pairs, note 0 = rest.

Notes as hal.buzzer numbers them: n = 1..60 is the semitone n-1 above C4 (C7 = 37,
about 2.1 kHz, where a small piezo is loudest). Effects are short and never block: the
buzzer plays them from tick(); muted, they keep their timing in silence.
"""

# Dice rattling in the hand: irregular short clicks (the app repeats it while tumbling).
RATTLE = bytes((40, 1, 0, 2, 44, 1, 0, 1, 38, 1, 0, 3, 46, 1, 0, 2, 41, 1, 0, 2))
# The dice land: one low knock and a higher tick.
LAND = bytes((30, 2, 0, 1, 42, 2))
# Cursor moved / item chosen.
SELECT = bytes((48, 2))
# Points banked / pawn moved up.
BANK = bytes((36, 5, 40, 5, 43, 8))
# Farkle: a falling phrase.
FARKLE = bytes((40, 8, 36, 8, 31, 16))
# A pawn sent back to level 1.
PENALTY = bytes((28, 6, 0, 2, 24, 12))
# A pawn reaches the Safe Zone.
SAFE = bytes((43, 4, 48, 4, 52, 4, 55, 10))
# The winner.
WIN = bytes((43, 8, 43, 8, 43, 8, 39, 20, 0, 4, 41, 8, 41, 8, 41, 8, 38, 20, 0, 4,
             43, 8, 48, 30))
# Something not possible (e.g. OK on a greyed choice).
NOPE = bytes((20, 6))
