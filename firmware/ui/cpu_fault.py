"""A CPU's thinking failed (ui.cpu_turn): HARD's table is missing or damaged, or a bug.
Loaded only then. The seat plays a level lower for the rest of the game (HARD as
NORMAL, every HARD seat when HARD's table is at fault; NORMAL as EASY), its code in
app.cpus changes, so the game's next save keeps it; the player is told once, as a
warning no CPU line covers (app.warned): "GREEN PLAYS AS NORMAL" / "HARD TABLE DAMAGED".
An EASY CPU that fails is a bug with nothing below it: the error goes on to the crash
guard.
"""
from core.data import DAMAGED, state
from ui.screens import COLOURS

_WHY = ("HARD CPU FAILED", "HARD TABLE MISSING", "HARD TABLE DAMAGED")


def fallback(turn, scr, skill, err):
    """turn: the CpuTurn; on game screen scr, the CPU of the seat to play, of skill
    0-2, raised err while thinking."""
    app = turn.app
    seat = scr.game.player
    cpus = app.cpus
    if skill <= 0:
        raise err
    if skill == 2:
        turn.close()  # the table, if one was open: not read again in this game
        why = state(scr.KIND)
        if not why and str(err).startswith("HARD table"):
            why = DAMAGED  # a read the table refused: it changed since it was checked
        n = 0
        for s in range(4):
            if cpus[s] == 3:
                cpus[s] = 2
                n += 1
        who = COLOURS[seat] + " PLAYS" if n == 1 else "HARD CPUS PLAY"
        _warn(app, who + " AS NORMAL", _WHY[why])
    else:
        cpus[seat] = 1
        _warn(app, COLOURS[seat] + " PLAYS AS EASY", "NORMAL CPU FAILED")


def _warn(app, line1, line2):
    # A warning (app.warned): read in full, no CPU line over it, the CPUs wait.
    app.warned = False
    app.say(line1, line2)
    app.warned = True
