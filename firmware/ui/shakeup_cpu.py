"""Shake Up's CPU turn on screen: show(turn, scr), the generator that ui.cpu_turn's
CpuTurn runs for one step of a CPU seat's turn on the Shake Up screen (loaded with it
for a Shake Up game with a CPU seat, forgotten with the game). It yields the ms to wait
before its next step: the line to read, the dice set aside one by one, the move.
"""
from core.shakeup import AGAIN, CHOOSE, PEN, SKIP, STOP, UP, classify
from ui.cpu_turn import ACK_MS, PICK_MS
from ui.screens import COLOURS, DIRTY_CURSOR, DIRTY_PICK, mark
from ui.shakeup_screen import BOARD, DICE, MOVE, PENALTY, ROLLOFF
from ui.sounds import SELECT


def show(turn, scr):
    app = turn.app
    g = scr.game
    if scr.ack:
        # The CPU's result or move: read, then on to what the game asks next.
        yield ACK_MS
        scr.close_view()
        return
    v = scr.view
    if v == BOARD and scr.info:
        # The turn before, told on this board: a moment to read it first.
        yield ACK_MS
    if v == ROLLOFF or v == BOARD:
        yield from turn.shake(scr, "ROLLS ONE DIE" if v == ROLLOFF else turn.rolls(4))
        return
    d = yield from turn.think(scr)
    kind = d & 0xF00
    if v == DICE and g.phase == CHOOSE:
        scr.pending = p = g.held
        # Each step redraws what a human's key would (the screen's partial redraws:
        # docs/memory-and-speed.md "Frame time on the device"); the line is drawn over the frame.
        if kind != STOP:
            for i in range(4):  # the dice it sets aside, one by one
                if d >> i & 1 and not p >> i & 1:
                    scr.cur = i
                    scr.pending = p = p | 1 << i
                    scr.tumble_mask = 15 & ~p
                    scr.dirty = mark(scr.dirty, DIRTY_PICK)  # the dice, caret, buttons
                    app.play(SELECT)
                    yield PICK_MS
        if kind == STOP:
            scr.cur = 5
            scr.dirty = mark(scr.dirty, DIRTY_CURSOR)
            yield from turn.say("STOPS WITH " + ("NOTHING", "A PAIR", "A MOVE", "BIG!")[
                classify(g.dice)])
        else:
            yield from turn.say(turn.keeps(g.dice, p) if p else "ROLLS 4 DICE")
        if kind == STOP:
            scr.roll(STOP)
        else:
            if p:
                yield from turn.say(turn.rolls(4 - _bits(p)), False)
            scr.cur = 4  # on SHAKE, as a human shakes from there
            scr.dirty = mark(scr.dirty, DIRTY_CURSOR)
            scr.rolling = True
            app.start_roll()
        return
    if v == MOVE or v == PENALTY:
        ch = scr.choices
        if d in ch and ch.index(d) != scr.cur:
            scr.choose(ch.index(d))  # as PREV/NEXT would
        a = d & 0xFF
        if kind == UP:
            t = "MOVES UP FROM LEVEL %d" % a
        elif kind == PEN:
            t = "KNOCKS %s DOWN FROM %d" % (COLOURS[a >> 2], a & 3)
        elif kind == SKIP:
            t = "NO PENALTY"
        elif kind == AGAIN:
            t = "TAKES ANOTHER TURN"
        else:
            t = ""
        yield from turn.say(t)
        scr.roll(d)


def _bits(m):
    n = 0
    while m:
        n += m & 1
        m >>= 1
    return n
