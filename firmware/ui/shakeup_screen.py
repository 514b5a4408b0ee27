"""Shake Up play screen: roll-off, shakes, set-aside, results, moves, penalties.

One screen object with views (`view`):
  ROLLOFF  who starts: each seat's roll-off die; the current seat shakes one die
  BOARD    start of a turn: the pyramid, "RED: SHAKE!" (a rolling moment)
  DICE     after shake 1/2: the 4 dice; PREV/NEXT move the cursor over STOP (drawn
           first: one PREV from the first die), the dice not yet set aside and
           SHAKE; OK on a die toggles "set aside"; OK on SHAKE (or shaking the
           device) shakes the rest; OK on STOP keeps the dice
  RESULT   the third shake's result (its dice are seen here): banner
           BIG/MOVE/PAIR/NONE and what it does; OK goes on
  MOVE     the pyramid; choose the level to move a pawn up from (legal ones only)
  PENALTY  the pyramid; choose an opponent pawn, or SKIP / ANOTHER TURN
  INFO     a CPU's winning move, before the winner's screen
A confirmation that carries no choice costs no press: a result after STOP goes
straight to its choice (the prompt names it: "RED BIG!: MOVE A PAWN UP"), and a
finished turn is told on the next turn's board ("RED MOVE: UP FROM LEVEL 1" above
"GREEN: SHAKE!") or on the pass screen.
Every choice offered comes from `game.legal()`; a decision is checked against it
again before `apply`, so the screen can never ask the core for an illegal move.

Saved (app.save) after every decision, so Continue comes back to the same view; closing
a message and cursor moves are not saved (at most one flash write per decision). The ui bytes: view,
cursor, pending set-aside mask, then the info items (pairs of code, argument) that the
RESULT/INFO/ROLLOFF texts are made from.

Memory: a game holds this module all along, so it keeps few functions (the texts are
made in _refresh, the views drawn in draw) and its texts joined in one string (_T).
"""
from core.games import SHAKEUP
# The core's result classes, phases and decision kinds (the views below have names of
# their own, some the same words).
from core.shakeup import BIG as CL_BIG
from core.shakeup import CHOOSE as PH_CHOOSE
from core.shakeup import MOVE as CL_MOVE
from core.shakeup import MOVING as PH_MOVING
from core.shakeup import NONE as CL_NONE
from core.shakeup import OVER as PH_OVER
from core.shakeup import PEN as D_PEN
from core.shakeup import PENALTY as PH_PENALTY
from core.shakeup import ROLL as D_ROLL
from core.shakeup import ROLLOFF as PH_ROLLOFF
from core.shakeup import SHAKE as PH_SHAKE
from core.shakeup import SKIP as D_SKIP
from core.shakeup import STOP as D_STOP
from core.shakeup import UP as D_UP
from ui import gfx
from ui.gfx import DIE_L
from ui.screens import BACK, COLOURS, DIRTY_CURSOR, DIRTY_DICE, DIRTY_PICK, DIRTY_ROLL, \
    INITIALS, NEXT, OK, PREV, SHAKE_START, Screen, end_choices, grace, key, mark, rematch
from ui.sounds import BANK, NOPE, SAFE, WIN
from ui.sounds import PENALTY as PENALTY_SOUND

from micropython import const

ROLLOFF = const(0)
BOARD = const(1)
DICE = const(2)
RESULT = const(3)
MOVE = const(4)
PENALTY = const(5)
INFO = const(6)

# Info item codes (code, argument): 1 + the index of the core's note in _NOTES.
_I_RES = const(1)      # seat << 4 | cls << 2 | shake number
_I_UP = const(2)       # seat << 2 | from level
_I_SAFE = const(3)     # seat
_I_PEN = const(4)      # seat << 2 | from level
_I_AGAIN = const(5)    # seat
_I_RO = const(6)       # seat << 3 | value
# 5 again (seat), 7 tie (mask of tied seats), 8 starts (seat), 9 lost move (seat)
_NOTES = ("result", "up", "safe", "penalty", "again", "rolloff", "tie", "starts",
          "lost_move")

# Every text, joined: one object instead of one each. _say(name) cuts out that text
# ('@': a seat's colour, '#': a number); the names below are their places in _T, and
# a group's texts follow one another in the order its comment gives.
_T = ("NONE|PAIR|MOVE|BIG!|SPECIAL ADVANTAGE:|UP, PENALIZE, AGAIN|MOVE UP, THEN|"
      "AGAIN OR PENALIZE|MOVE A PAWN UP|NO MOVE|PENALTY FOR @|@ UP FROM LEVEL #|"
      "@ PAWN IS SAFE!|@ PAWN: LEVEL # -> 1|@: ANOTHER TURN|@ ROLLED #|TIE: SHAKE AGAIN|"
      "@ STARTS|NO PAWN CAN MOVE|NO PAWN LOST|@: SHAKE ONE DIE|(OR PRESS OK)|"
      "@: SHAKE!|@: MOVE A PAWN UP|@: PENALIZE OR AGAIN?|SHAKE #/3|FROM LEVEL # TO 2|"
      "FROM LEVEL # TO 3|FROM LEVEL # TO SAFE|NO PENALTY|TAKE ANOTHER TURN|ALL 5 PAWNS SAFE|"
      "@ BIG!: MOVE A PAWN UP|@ BIG!: UP, PENALIZE, AGAIN|@: PENALIZE, THEN AGAIN|"
      "@: SHAKE AGAIN!|")
_T_BANNER = const(0)       # + result class: NONE, PAIR, MOVE, BIG!
_T_SPECIAL = const(4)      # BIG on shake 1, two lines
_T_BIG_LATE = const(6)     # BIG on shake 2/3, two lines
_T_PENALTY_FOR = const(10)  # - result class: PENALTY FOR @, NO MOVE, MOVE A PAWN UP
_T_INFO = const(9)         # + info code 2-9: up, safe, penalty, again, rolled, tie,
#                            starts, no pawn can move
_T_NO_SEND_BACK = const(19)
_T_SHAKE_ONE = const(20)
_T_OR_OK = const(21)
_T_SHAKE = const(22)
_T_PROMPT = const(19)      # + view MOVE, PENALTY: @: MOVE A PAWN UP, @: PENALIZE?
_T_SHAKE_N = const(25)
_T_FROM_LEVEL = const(25)  # + level 1-3: FROM LEVEL # TO 2, TO 3, TO SAFE
_T_NO_PENALTY = const(29)
_T_ANOTHER = const(30)
_T_WIN = const(31)
_T_BIG_MOVE = const(32)    # + 1 on shake 1: the MOVE view's prompt after a BIG
_T_PEN_AGAIN = const(34)   # on shake 1: the PENALTY view's prompt (else _T_PROMPT + 5)
_T_SHAKE_AGAIN = const(35)

# Die i at x = 12 + 29 * i; level lv (1-4, 4 = SAFE) on the row at y = 48 - 10 * lv.
_DIE_Y = const(10)
_C_SHAKE = const(4)
_C_STOP = const(5)  # drawn left of SHAKE, and before the first die in the cursor's order
_COL_X = const(14)


def _say(i, seat=0, n=0):
    """Text i of _T (a _T_ name), with seat's colour for '@' and the number n for '#'."""
    k = 0
    j = -1
    for _ in range(i + 1):
        k = j + 1
        j = _T.find("|", k)
    t = _T[k:j]
    if "@" in t:
        t = t.replace("@", COLOURS[seat])
    return t.replace("#", str(n))


class ShakeUpScreen(Screen):
    NAME = "shakeup"
    KIND = SHAKEUP

    def __init__(self, app, game, ui=None):
        Screen.__init__(self, app)
        self.game = game
        self.view = BOARD
        self.cur = 0
        self.pending = 0
        self.info = bytearray(0)
        self.by_cpu = 0  # the last decision was a CPU's: its result closes by itself
        if ui and len(ui) >= 3:
            self.view = ui[0]
            self.cur = ui[1]
            self.pending = ui[2]
            self.info = bytearray(ui[3:])
        # Keep the view consistent with the game (new game, or damaged ui bytes): each
        # view goes with one phase; RESULT and INFO with any but OVER (5).
        v = self.view
        follow = not (v < 7 and ((game.phase == b"\x00\x01\x02\x05\x03\x04\x05"[v])
                                 != (v == RESULT or v == INFO) or (v == ROLLOFF and self.info)))
        if v == DICE and not follow:
            h = game.held
            if self.pending & h != h or self.pending > 15:
                self.pending = h
        self.cur = min(self.cur, 5)
        self._refresh(follow)  # following sets the pending dice and cursor itself

    def enter(self):
        self.dirty = True
        g = self.game
        if g.phase != PH_OVER and not self.ack:
            self.app.hand_to(g.player)

    def _refresh(self, follow=0):
        """The texts and flags of the view: made when the state changes, never per frame.
        follow: first drop the info items and take the view for what the game asks next."""
        g = self.game
        if follow:
            self.info = bytearray(0)
            ph = g.phase
            self.view = b"\x00\x01\x02\x04\x05\x01"[ph]
            if ph == PH_CHOOSE:
                self.pending = g.held
                # The cursor on the first die not set aside (else SHAKE or STOP).
                c = 0
                while c < 4 and g.held >> c & 1:
                    c += 1
                if c == 4 and self.pending == 15:
                    c = _C_STOP
                self.cur = c
            elif ph == PH_MOVING or ph == PH_PENALTY:
                self.cur = 0
        v = self.view
        info = self.info
        pick = v == MOVE or v == PENALTY
        self.choices = g.legal() if pick else []
        if pick and self.cur >= len(self.choices):
            self.cur = 0
        p = g.player
        lines = []
        self.banner = ""
        none = fell = 0
        for i in range(0, len(info) - 1, 2):
            c = info[i]
            a = info[i + 1]
            if c == _I_RES:
                cls = (a >> 2) & 3
                self.banner = _say(_T_BANNER + cls)
                none = cls == CL_NONE
                if cls == CL_BIG:
                    j = _T_SPECIAL if a & 3 == 1 else _T_BIG_LATE
                    lines.append(_say(j))
                    lines.append(_say(j + 1))
                else:
                    lines.append(_say(_T_PENALTY_FOR - cls, a >> 4))
            elif 2 <= c <= 9:
                sh = 2 if c == _I_UP or c == _I_PEN else (3 if c == _I_RO else 0)
                lines.append(_say(_T_INFO + c, a >> sh, a & ((1 << sh) - 1)))
                if c == _I_PEN:
                    fell = 1
        if none and not fell:
            lines.append(_say(_T_NO_SEND_BACK))  # else "PENALTY" reads as if one fell
        if v == BOARD and info:
            # The turn just played in one line ("RED MOVE: UP FROM LEVEL 1": its
            # result and what it did, else the choice made), then this one's prompt.
            again = 0
            for i in range(0, len(info) - 1, 2):
                again |= info[i] == _I_AGAIN
            t = lines[len(lines) - 1 - (again and len(lines) > 1)]
            if self.banner:
                c = COLOURS[info[1] >> 4]  # (the result comes first)
                if t.startswith(c + " "):
                    t = t[len(c) + 1:]
                t = c + " " + self.banner + ": " + t
            lines = [t, _say(_T_SHAKE_AGAIN if again else _T_SHAKE, p)]
        elif v == ROLLOFF and not info or v == BOARD:
            lines.append(_say(_T_SHAKE_ONE if v == ROLLOFF else _T_SHAKE, p))
            lines.append(_say(_T_OR_OK))
        elif v == DICE:
            self.banner = _say(_T_SHAKE_N, 0, g.shakes)
        elif pick:
            # The result that asks this choice, in its prompt (no screen of its own).
            big = g.result == CL_BIG
            if v == MOVE:
                t = _T_BIG_MOVE + (g.shakes == 1) if big else _T_PROMPT + MOVE
            else:
                t = _T_PEN_AGAIN if g.shakes == 1 else _T_PROMPT + PENALTY
            lines.append(_say(t, p))
            lines.append("")
            if self.choices and len(lines) >= 2:
                d = self.choices[self.cur]
                kind = d & 0xF00
                a = d & 0xFF
                if kind == D_UP:
                    t = _say(_T_FROM_LEVEL + a, 0, a)
                elif kind == D_PEN:
                    t = _say(_T_INFO + _I_PEN, a >> 2, a & 3)
                else:
                    t = _say(_T_NO_PENALTY if kind == D_SKIP else _T_ANOTHER)
                lines[1] = t
        self.lines = lines
        self.ack = v == RESULT or v == INFO or (v == ROLLOFF and len(info) > 0)
        pend = self.pending
        self.rolling = (v == BOARD or (v == ROLLOFF and g.phase == PH_ROLLOFF and not info)
                        or (v == DICE and pend != 15))
        self.tumble_mask = 15 & ~pend if v == DICE else 15
        if self.app.cpus[p] and not self.ack:
            self.rolling = False  # a CPU shakes when it is ready (ui.cpu_turn)
        self.dirty = True

    def roll(self, d=-1):
        """Apply decision d; the app calls it with none when the tumble is over: shake now."""
        g = self.game
        app = self.app
        v = self.view
        if d < 0:
            if v == DICE:
                d = D_ROLL | self.pending
            elif (v == BOARD or v == ROLLOFF) and g.phase <= PH_SHAKE:
                d = D_ROLL
            else:
                return
        if d not in g.legal():
            app.play(NOPE)  # never reached: choices come from legal()
            return
        was = g.phase
        actor = g.player
        self.by_cpu = app.cpus[actor]
        g.apply(d)
        kind = d & 0xF00
        info = bytearray(0)
        while True:
            for n in g.notes:
                if n[0] in _NOTES:
                    c = _NOTES.index(n[0]) + 1
                    a = n[1]
                    if len(n) > 2:
                        a = a << (3 if c == _I_RO else 2) | n[2]
                    if len(n) > 3:
                        a = a << 2 | n[3]
                    info += bytes((c, a))
            if g.phase != PH_MOVING or (kind != D_ROLL and kind != D_STOP):
                break
            d = g.legal()
            if len(d) != 1:
                break
            # One level can move up: no choice to ask for. Made, and said in the result.
            g.apply(d[0])
            d = D_UP
        ph = g.phase
        follow = 0
        told = (kind == D_ROLL or kind == D_STOP) and ph != PH_CHOOSE
        told = RESULT if told else INFO  # the view that tells it (RESULT: the dice too)
        if ph == PH_OVER:
            app.finish(SHAKEUP, g)
            app.play(WIN)
            if not self.by_cpu:
                app.show(Win(app, g.winner, _say(_T_WIN), g))
                return
            # A CPU's winning move is shown before its winner's screen (ui.cpu_turn
            # closes it after a moment to read; OK hurries it: close_view()).
            self.view = told
            self.info = info
            self._refresh(0)
            return
        if was == PH_ROLLOFF:
            self.view = ROLLOFF
            self.info = info
        elif ph == PH_SHAKE and g.player != actor and app.passes(g.player):
            self.view = told  # told on the pass screen (below)
            self.info = info
        elif kind == D_ROLL and ph != PH_CHOOSE:
            self.view = RESULT  # the third shake: its dice are seen here
            self.info = info
        elif ph == PH_SHAKE:
            self.view = BOARD  # the turn is over: told on the next one's board
            self.info = info
        else:
            follow = 1  # a choice (its prompt names the result) or the next shake
        snd = None
        for i in range(0, len(info) - 1, 2):
            c = info[i]
            if told == RESULT:  # a shake's or STOP's result
                if c == _I_RES:
                    cls = (info[i + 1] >> 2) & 3
                    if cls >= CL_MOVE:
                        snd = BANK
                    elif cls == CL_NONE:
                        snd = PENALTY_SOUND
            elif c == _I_SAFE:
                snd = SAFE
            elif snd is None and c == _I_PEN:
                snd = PENALTY_SOUND
            elif snd is None and c == _I_UP:
                snd = BANK
        if snd is not None:
            app.play(snd)
        note = None
        if self.view != BOARD and ph == PH_SHAKE and g.player != actor and \
                app.passes(g.player):
            # The turn is over and the device goes to another human: what happened is
            # told on the pass screen, so one press hands over (the result is no
            # choice to wait for).
            self._refresh(0)
            note = self.lines
            if self.banner:
                note = [COLOURS[actor] + ": " + self.banner] + note
            follow = 1
        self._refresh(follow)
        app.save(SHAKEUP, g, bytes((self.view, self.cur, self.pending)) + self.info)
        if note is not None:
            app.hand_to(g.player, note)

    # ---- input --------------------------------------------------------------------

    def leave(self):
        """BACK: to the menu, saved with this view (the dice picked to set aside), so
        Continue comes back to exactly this."""
        g = self.game
        if g.phase != PH_OVER:
            self.app.save(SHAKEUP, g, bytes((self.view, self.cur, self.pending)) + self.info)
        self.app.menu()

    def close_view(self):
        """OK on a message: on to whatever the game asks for next (a CPU's winning
        move: its winner's screen)."""
        g = self.game
        if g.phase == PH_OVER:
            self.app.show(Win(self.app, g.winner, _say(_T_WIN), g))
            return
        self._refresh(1)
        self.app.hand_to(self.game.player)

    def update(self, q):
        buf = q.buf
        app = self.app
        g = self.game
        if self.by_cpu if self.ack else g.phase != PH_OVER and app.cpus[g.player]:
            app.cpu_turn(self, q)  # a CPU plays (or its result or winning move shows)
            return
        for i in range(q.n):
            k = key(buf[i])
            if k < 0:
                # A shake on a roll-off result goes on as OK does (the app honours
                # shakes only at rolling moments).
                if buf[i] & 0xF0 != SHAKE_START or not self.ack or self.view != ROLLOFF:
                    continue
                k = OK
            if k == BACK:
                self.leave()
                return
            if app.screen is not self or app.tumbling:
                return
            v = self.view
            c = self.cur
            if self.ack:
                if k == OK:
                    # Not saved: closing a message is no decision (one flash write
                    # per decision); after a power cut the message simply shows again.
                    self.close_view()
            elif v == ROLLOFF or v == BOARD:
                if k == OK:
                    app.start_roll()
            elif v == DICE:
                if k == NEXT or k == PREV:
                    # Over STOP, the dice not set aside and SHAKE (unless all are), in
                    # that order round: STOP is one PREV from the first die.
                    step = 1 if k == NEXT else 5
                    at = 0 if c == _C_STOP else c + 1
                    for _ in range(6):
                        at = (at + step) % 6
                        c = _C_STOP if not at else at - 1
                        if (not g.held >> c & 1) if c < 4 else (
                                c == _C_STOP or self.pending != 15):
                            break
                    self.cur = c
                    app.play_select()
                    self.dirty = mark(self.dirty, DIRTY_CURSOR)  # the caret and buttons alone
                elif k == OK:
                    if c < 4:
                        self.pending = p = self.pending ^ 1 << c
                        self.rolling = p != 15
                        self.tumble_mask = 15 & ~p
                        app.play_select()
                        # The dice and the buttons.
                        self.dirty = mark(self.dirty, DIRTY_PICK)
                    elif c == _C_SHAKE:
                        app.start_roll()
                    else:
                        self.roll(D_STOP)
            elif v == MOVE or v == PENALTY:
                n = len(self.choices)
                if n and (k == NEXT or k == PREV):
                    self.choose((c + (1 if k == NEXT else n - 1)) % n)
                    app.play_select()
                elif n and k == OK:
                    self.roll(self.choices[c])

    def choose(self, i):
        """The cursor onto choice i (MOVE, PENALTY: PREV/NEXT, and a CPU's pick): the
        box it leaves and the choice's line are drawn again, the board stays."""
        was = self.dirty
        if not was:
            self.shown = self.choices[self.cur]  # the choice the panel shows
        self.cur = i
        self._refresh()
        self.dirty = mark(was, DIRTY_CURSOR)  # its box and line alone (draw)

    # ---- drawing --------------------------------------------------------------------

    def uncover(self, top):
        """A notice ended over the board: its lines below the pyramid (DIRTY_PICK, from
        y 48) are drawn again, the pyramid stays (a CPU's moves say a line each)."""
        v = self.view
        if top >= 48 and (v == BOARD or v == MOVE or v == PENALTY) and \
                not self.app.tumbling:
            return DIRTY_PICK
        return True

    def draw(self, fb):
        v = self.view
        g = self.game
        app = self.app
        f = app.frame
        tumbling = app.tumbling
        me = g.player
        # DIRTY_DICE, a tumble's frame (app.step): fb holds the last one, the tumbling
        # dice alone are erased and drawn again (the same pixels as a full draw:
        # host_tests/test_tumble_draw.py); another view is drawn in full.
        # DIRTY_ROLL (app.start_roll: the tumble starts): the same, and the hint's
        # line; from the board (all four dice tumble) the view changes: all of it.
        rolled = self.dirty == DIRTY_ROLL
        over = self.dirty == DIRTY_DICE or rolled
        dice = over and (v == DICE or v == ROLLOFF or (v == BOARD and not rolled))
        if over and not dice:
            fb.fill(0)
        # DIRTY_CURSOR (update: PREV/NEXT over the dice and buttons): the caret's and
        # the buttons' rows alone are erased and drawn again.
        # On the board (MOVE, PENALTY: PREV/NEXT over the choices), the box the
        # cursor leaves and the choice's line are erased, the board stays.
        # DIRTY_PICK (OK on a die): the dice too (a die drawn over itself is
        # the same pixels); on the board (uncover(): a notice's bar gone), the
        # lines below the pyramid alone.
        cursor = self.dirty == DIRTY_CURSOR
        picked = self.dirty == DIRTY_PICK
        moved = (cursor and v == DICE) or picked
        boxed = cursor and (v == MOVE or v == PENALTY)
        if moved:
            fb.fill_rect(0, 32 if v == DICE else 48, 128, 16, 0)
        elif cursor and not boxed:
            fb.fill(0)
        if v == DICE or (tumbling and v == BOARD):
            all_tumble = v == BOARD
            if not dice and not moved:
                gfx.label(fb, COLOURS[me], 0, 0)
                gfx.right(fb, "SHAKE 1/3" if all_tumble else self.banner, 127, 1)
            held = g.held
            pend = self.pending
            for i in range(4):
                x = 12 + 29 * i
                if all_tumble or (tumbling and not pend >> i & 1):
                    # Tumbling faces: a cheap scramble of the frame number.
                    if dice:
                        fb.fill_rect(x, _DIE_Y, DIE_L + 1, DIE_L + 1, 0)
                    gfx.die(fb, x + ((f + i) & 1), _DIE_Y + (((f >> 1) + i) & 1),
                            (f * 5 + i * 3 + (f >> 2)) % 6 + 1)
                elif not dice and (picked or not moved):
                    gfx.die(fb, x, _DIE_Y, g.dice[i], DIE_L, bool(pend >> i & 1))
                    if held >> i & 1:
                        fb.fill_rect(x, _DIE_Y + 19, DIE_L, 2, 1)  # the set-aside mark
            if dice:
                if rolled:
                    fb.fill_rect(0, 56, 128, 8, 0)
                    gfx.center(fb, "SHAKING...", 56)
                return
            if all_tumble:
                gfx.center(fb, "SHAKING...", 44)
                return
            c = self.cur
            if c < 4:
                gfx.caret(fb, 12 + 29 * c, 32, DIE_L)
            # Caret on page 4, buttons on page 5 only, a hint that does not follow the
            # cursor: a cursor move sends at most 2 display pages.
            for b in range(2):  # the STOP and SHAKE buttons
                x = 12 + 62 * b
                s = "SHAKE" if b else "STOP"
                if c == _C_STOP - b:
                    fb.fill_rect(x, 40, 42, 8, 1)
                    gfx.center(fb, s, 42, 0, gfx.SMALL, 1, x, 42)
                else:
                    gfx.box(fb, x, 40, 42, 8)
                    gfx.center(fb, s if not b or pend != 15 else "-", 42, 1, gfx.SMALL, 1, x, 42)
            if moved:
                return
            gfx.center(fb, "SHAKING..." if tumbling else "OK ON A DIE: KEEP / UNKEEP", 56)
            return
        if v == ROLLOFF:
            gfx.banner(fb, "WHO STARTS?", 0, gfx.SMALL)
            n = g.players
            cw = 128 // n
            for s in range(n):
                x = s * cw + (cw - DIE_L) // 2
                if dice:  # a tumble's frame: the tumbling die alone
                    if s == me:
                        fb.fill_rect(x, 20, DIE_L + 1, DIE_L, 0)
                        gfx.die(fb, x + (f & 1), 20, (f * 5 + s * 3 + (f >> 2)) % 6 + 1)
                    continue
                name = COLOURS[s]
                if s == me and g.phase == PH_ROLLOFF and not self.info:
                    gfx.label(fb, name, s * cw + (cw - gfx.width(name)) // 2 - 1, 10)
                else:
                    gfx.center(fb, name, 11, 1, gfx.SMALL, 1, s * cw, cw)
                if tumbling and s == me:
                    gfx.die(fb, x + (f & 1), 20, (f * 5 + s * 3 + (f >> 2)) % 6 + 1)
                elif not self.info and g.to_shake() >> s & 1:
                    gfx.die(fb, x, 20, 9)  # to shake (again): "?", not the old die
                else:
                    gfx.die(fb, x, 20, g.rolloff[s])
            if dice:
                return
            y = 44
        elif v == RESULT:
            for i in range(4):
                gfx.die(fb, 12 + 29 * i, 0, g.dice[i])
            gfx.banner(fb, self.banner, 20)
            y = 34
        elif picked:
            y = 50  # the board's lines (DIRTY_PICK)
        else:
            # The pyramid: a column per seat, a row per level.
            n = g.players
            cw = (127 - _COL_X) // n  # the panel's last column stays dark
            if boxed:
                # The box's edges lie on the dotted rows (drawn again below) and,
                # from level 0, on the choice's line (erased: drawn again last).
                x0 = _cell(fb, self.shown, me, cw, 0)
                x1 = x0 + cw
                y = 50 + 7 * (len(self.lines) - 1)
                fb.fill_rect(0, y - 1, 128, 7, 0)
            else:
                x0 = _COL_X
                x1 = 128
            for s in range(0 if boxed else n):
                x = _COL_X + s * cw
                if s == me:
                    fb.fill_rect(x + 1, 0, cw - 2, 7, 1)
                gfx.center(fb, INITIALS[s:s + 1], 1, 0 if s == me else 1, gfx.SMALL, 1, x, cw)
            # The pyramid's side: one step per level, narrower going up.
            for lv in range(4):
                y = 38 - 10 * lv
                if not boxed:
                    fb.fill_rect(lv, y, 13 - 2 * lv, 9, 1)
                    gfx.text(fb, "123S"[lv:lv + 1], 5, y + 2, 0)
                if lv < 3:
                    for x in range(x0 + (x0 & 1), x1, 2):  # (the box's columns: boxed)
                        fb.pixel(x, y + 9, 1)
            for s in range(0 if boxed else n):
                x = _COL_X + s * cw
                for lv in range(4):
                    y = 40 - 10 * lv
                    for j in range(g.count(s, lv + 1)):
                        gfx.text(fb, "@", x + 3 + j * 4, y)  # a pawn
            # Cursor: the cell of the chosen level / target.
            if (v == MOVE or v == PENALTY) and self.choices:
                _cell(fb, self.choices[self.cur], me, cw, 1)
            y = 50
        lines = self.lines
        last = len(lines) - 1
        if v == BOARD and self.info:
            # A turn told on this board: what happened (3x5), then what to do (5x7).
            gfx.center(fb, lines[0], 49)
            gfx.center(fb, lines[1], 56, 1, gfx.MEDIUM)
            return
        for i in range(last + 1):
            if boxed and i < last:
                y += 7
                continue
            if i == last and (v == MOVE or v == PENALTY):
                gfx.label(fb, lines[i], (128 - gfx.width(lines[i])) // 2 - 1, y - 1)
                if len(self.choices) > 1:  # PREV/NEXT show the other choices
                    gfx.text(fb, "<", 1, y)
                    gfx.right(fb, ">", 127, y)
            elif i == 0 and v != MOVE and v != PENALTY and \
                    gfx.width(lines[0], gfx.MEDIUM) <= 124:
                # The first line (what happened, or what to do) in the 5x7 font
                # when it fits; the rest stays 3x5 (and a choice's two lines).
                gfx.center(fb, lines[0], y, 1, gfx.MEDIUM)
                y += 2
            else:
                gfx.center(fb, lines[i], y)
            y += 7
        if self.ack:
            gfx.right(fb, "OK", 127, 58)


def _cell(fb, d, me, cw, c):
    """The box around the board's cell that choice d moves from (colour c); -> its
    left x (128: no box)."""
    a = d & 0xFF
    if d & 0xF00 == D_UP:
        x = _COL_X + me * cw
        gfx.box(fb, x, 47 - 10 * a, cw, 11, c)
        return x
    if d & 0xF00 == D_PEN:
        x = _COL_X + (a >> 2) * cw
        gfx.box(fb, x, 47 - 10 * (a & 3), cw, 11, c)
        return x
    return 128


class Win(Screen):
    """The winner's screen (NAME "win"): the final standings (every player's SAFE
    pawns, most first) and REMATCH or MENU; after a short grace time OK does the one
    under the cursor (the menu forgets this module with the game's). Frenzy shows
    its own winner."""
    NAME = "win"

    def __init__(self, app, seat, line, game=None):
        Screen.__init__(self, app)
        self.seat = seat
        self.line = line
        self.t0 = app.now
        self.cur = 0  # REMATCH first
        self.title = COLOURS[seat] + " WINS!"
        rows = []
        if game is not None:
            for s in range(game.players):
                rows.append((-game.count(s, 4), s != seat, s))
            rows.sort()
        self.rows = [(COLOURS[s], "%d SAFE" % -n) for n, _, s in rows]

    def on_key(self, k):
        app = self.app
        if k == PREV or k == NEXT:
            self.cur ^= 1
            app.play_select()
            self.dirty = mark(self.dirty, DIRTY_CURSOR)  # the choices alone (draw)
        # The grace time: a button mashed at the winning move is not lost on it.
        elif (k == OK or k == BACK) and grace(app, self.t0):
            if k == OK and not self.cur:
                rematch(app, SHAKEUP)
            else:
                app.menu()

    def draw(self, fb):
        if self.dirty == DIRTY_CURSOR:
            fb.fill_rect(0, 55, 128, 9, 0)  # REMATCH / MENU: the bar alone
            end_choices(fb, self.cur)
            return
        gfx.banner(fb, self.title, 0)
        y = 14
        for i in range(len(self.rows)):
            name, safe = self.rows[i]
            gfx.text(fb, "1234"[i:i + 1], 2, y, 1, gfx.MEDIUM)
            gfx.text(fb, name, 12, y, 1, gfx.MEDIUM)
            gfx.right(fb, safe, 126, y, 1, gfx.MEDIUM)
            y += 9
        if not self.rows:
            gfx.center(fb, self.line, 30)
        end_choices(fb, self.cur)
