"""The Farkle Frenzy screen's public codes: its views and its cursor items (see
ui.frenzy_screen). For host code (tests, tools, the benchmark's pilot): the firmware's
modules keep them as private consts, which cost no heap on the device
(`_WARN = const(3)  # ui.frenzy_views.WARN`); host_tests/test_const_copies.py checks
every copy against this module.
"""

# Views: PLAY follows the game's phase; the others are overlays, each closed with OK.
PLAY = 0
FARKLE = 1
NOTICE = 2
WARN = 3
SUMMARY = 4
WINNER = 5

# Cursor items (FrenzyScreen.items holds them for the current view); 0-4 are the
# rolled dice.
IT_COMMON = 5
IT_TAKE = 6
IT_ROLL = 7
IT_STOP = 8
IT_NO = 9
IT_YES = 10

# The screen's texts, FrenzyScreen.t[i]: the play view's header (round), score sheet,
# running total, points of the selection and the help line; an overlay's three lines.
T_HEAD = 0
T_SHEET = 1
T_RUN = 2
T_PTS = 3
T_INFO = 4
T_A = 5
T_B = 6
T_C = 7
