"""Farkle Frenzy's CPU turn on screen: show(turn, scr), the generator that ui.cpu_turn's
CpuTurn runs for one step of a CPU seat's turn on the Frenzy screen (loaded with it for
a Frenzy game with a CPU seat, forgotten with the game). It yields the ms to wait
before its next step: the line to read, the dice selected one by one, the WILD picker
turning to its value. A Relay round that a human plays after is played unseen: hides()
tells the screen so, draw_hidden() draws what it shows instead.
"""
from core.dice import TWOX, WILD
from core.frenzy import PH_COMMON, PH_DECIDE, PH_ROLL, PH_TAKE, PH_WILD, RELAY, TAKE
from core.frenzy import ROLL as FZ_ROLL
from core.frenzy import STOP as FZ_STOP
from core.frenzy_score import COMMON_BIT
from ui.cpu_turn import ACK_MS, PICK_MS, READ_MS
from ui import gfx
from ui.frenzy_screen import IT_COMMON, IT_ROLL, IT_STOP, IT_TAKE, V_PLAY
from ui.screens import COLOURS, DIRTY_CURSOR, DIRTY_PICK, mark
from ui.sounds import SELECT


def show(turn, scr):
    app = turn.app
    g = scr.game
    if scr.view != V_PLAY:
        # The CPU's Farkle, or a notice about its stop: read, then on.
        yield ACK_MS
        scr.close_view()
        return
    ph = g.phase
    if scr.hid >= 0:
        # A Relay round a human plays after: played unseen (the screen says it is
        # playing), a moment at its start, then its decisions as soon as made.
        if ph == PH_ROLL and g.step == 1:
            yield READ_MS
        if ph == PH_ROLL:
            scr.roll()
        else:
            d = yield from turn.think(scr, False)
            scr.decide(d)
        return
    if ph == PH_COMMON or ph == PH_ROLL:
        yield from turn.shake(scr, "ROLLS THE COMMON DIE" if ph == PH_COMMON
                               else turn.rolls(g.to_roll()))
        return
    d = yield from turn.think(scr)
    kind = d & 0xF00
    if ph == PH_WILD:
        v = d & 0xFF
        while scr.wildv != v:  # the picker turns to the value, one by one
            scr.wildv = scr.wildv % 6 + 1
            scr.wask = False
            scr._texts()  # its best points, as PREV/NEXT show them
            scr.dirty = True
            app.play(SELECT)
            yield PICK_MS // 2
        yield from turn.say("DECLARES WILD AS %d" % v)
        scr.decide(d)
        return
    if ph == PH_TAKE and kind == TAKE:
        m = d & 0x3F
        scr.mask = 0
        for i in range(6):
            b = COMMON_BIT if i == 5 else 1 << i
            if m & b:
                # As OK on the die: the dice row, the caret, the points and the choices.
                was = scr.dirty
                _to_item(scr, IT_COMMON if i == 5 else i)
                scr.mask |= b
                scr._sync()
                scr.dirty = mark(was, DIRTY_PICK)
                app.play(SELECT)
                yield PICK_MS
        _to_item(scr, IT_TAKE)
        c = g.common
        yield from turn.say(turn.keeps(g.rolled, m, g.nrolled, (
            g.wild if c == WILD else c) if m & COMMON_BIT else 0))
        scr.decide(d)
        return
    if ph == PH_DECIDE:
        if kind == FZ_STOP:
            _to_item(scr, IT_STOP)
            r = g.running(g.player) * (2 if g.common == TWOX else 1)
            yield from turn.say("STOPS WITH %d" % r)
            scr.decide(FZ_STOP)
            return
        _to_item(scr, IT_ROLL)
        yield from turn.say(turn.rolls(g.to_roll()))
        if scr.roll_on:
            scr.rolling = True
            app.start_roll()
        else:
            scr.decide(FZ_ROLL)  # Lockstep: its next roll comes in turn
        return
    scr.decide(d)  # (never reached: every phase is above)


def hides(scr):
    """The player's seat when it is a CPU whose Relay round a human still plays after
    (its dice, from its first roll, are not shown: the human would play knowing
    them), else -1 (FrenzyScreen.hid)."""
    g = scr.game
    cpus = scr.app.cpus
    n = g.players
    for i in range((g.player - g.roller) % n + 1, n if g.schedule == RELAY else 0):
        s = (g.roller + i) % n
        if g.in_round >> s & 1 and not cpus[s]:
            return g.player
    return -1


def draw_hidden(scr, fb):
    """A hidden round on the screen: who plays, not how (drawn once: its decisions
    change nothing here)."""
    g = scr.game
    c = COLOURS[g.player]
    gfx.text(fb, scr.t_head, gfx.label(fb, c, 0, 0) + 3, 1)
    gfx.center(fb, c, 16, 1, gfx.MEDIUM)
    gfx.center(fb, "PLAYS ITS ROUND...", 27, 1, gfx.MEDIUM)
    gfx.center(fb, "YOU SEE IT AT THE SUMMARY", 44)


def ahead():
    """CpuTurn.ahead's work for Frenzy, in the first wait of a CPU's turn: the tables'
    module (ui.frenzy_tables, the round's summary), which a CPU's STOP or Farkle
    would otherwise load in the frame of its decision (the frame model's worst)."""
    import ui.frenzy_tables  # noqa: F401  (kept loaded: the screen imports it by name)
    yield True


def _to_item(scr, it):
    # The Frenzy screen's cursor onto item it (when offered): as PREV/NEXT, the caret
    # and the choices redrawn.
    items = scr.items
    for i in range(scr.nitems):
        if items[i] == it and scr.cur != i:
            scr.cur = i
            scr.dirty = mark(scr.dirty, DIRTY_CURSOR)
