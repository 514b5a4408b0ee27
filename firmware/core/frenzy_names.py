"""Farkle Frenzy's public codes: schedules, phases, decisions, seat statuses, the
Common Die's bit in a selection, the goal and the entry score (see core.frenzy).

The firmware's own modules never import this: each keeps the codes it needs as
private consts (`_ROLL = const(0x200)  # core.frenzy_names.ROLL`), which cost no
heap, where public names would cost a dict entry and an interned name each on the
device. Host code (tests, tools, the benchmark's pilot) reads them here, or as
core.frenzy.ROLL (its module __getattr__ loads this). host_tests/test_const_copies.py
checks every copy against this module.
"""

# Schedules
RELAY = 0
LOCKSTEP = 1

# Phases: COMMON, ROLL, WILD, TAKE, DECIDE, OVER of the contract (PH_ prefix: ROLL and
# TAKE are decisions too, WILD a Common Die face); COMMON, DECIDE and OVER also unprefixed.
PH_COMMON = COMMON = 0
PH_ROLL = 1
PH_WILD = 2
PH_TAKE = 3
PH_DECIDE = DECIDE = 4
PH_OVER = OVER = 5

# Decisions (TAKE | selection mask, DECLARE | value)
COMMON_ROLL = 0x100
ROLL = 0x200
DECLARE = 0x300
TAKE = 0x400
STOP = 0x500

# Seat status in a round
ROLLING = 0
STOPPED = 1
FARKLED = 2
OUT = 3

COMMON_BIT = 0x20  # the Common Die in a selection mask (bits 0-4: the rolled dice)
GOAL = 10000
ENTRY = 400
