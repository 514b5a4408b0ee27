"""Shake Up play screen: roll-off, shakes, set-aside, results, moves, penalties.

One screen object with views (`view`):
  ROLLOFF  who starts: each seat's roll-off die; the current seat shakes one die
  BOARD    start of a turn: the pyramid, "RED: SHAKE!" (a rolling moment)
  DICE     after shake 1/2: the 4 dice; PREV/NEXT move the cursor over the dice not
           yet set aside, SHAKE and STOP; OK on a die toggles "set aside"; OK on SHAKE
           (or shaking the device) shakes the rest; OK on STOP keeps the dice
  RESULT   the turn's result: banner BIG/MOVE/PAIR/NONE and what it does; OK goes on
  MOVE     the pyramid; choose the level to move a pawn up from (legal ones only)
  PENALTY  the pyramid; choose an opponent pawn, or SKIP / ANOTHER TURN
  INFO     the pyramid with what just happened (pawn up, safe, penalty, extra turn)
Every choice offered comes from `game.legal()`; a decision is checked against it
again before `apply`, so the screen can never ask the core for an illegal move.

Saved (app.save) after every decision, so Continue comes back to the same view; closing
a message and cursor moves are not saved (at most one flash write per decision). The ui bytes: view,
cursor, pending set-aside mask, then the info items (pairs of code, argument) that the
RESULT/INFO/ROLLOFF texts are made from.
"""
from core import shakeup as su
from ui import gfx, sounds
from ui.screens import BACK, COLOURS, INITIALS, KIND_SHAKEUP, NEXT, OK, PREV, Screen, key

ROLLOFF = 0
BOARD = 1
DICE = 2
RESULT = 3
MOVE = 4
PENALTY = 5
INFO = 6
_ACK = (RESULT, INFO)

# Info item codes (code, argument).
I_RES = 1      # seat << 4 | cls << 2 | shake number
I_UP = 2       # seat << 2 | from level
I_SAFE = 3     # seat
I_PEN = 4      # seat << 2 | from level
I_AGAIN = 5    # seat
I_RO = 6       # seat << 3 | value
I_TIE = 7      # mask of tied seats
I_STARTS = 8   # seat
I_LOST = 9     # seat

_CLASS = ("NONE", "PAIR", "MOVE", "BIG!")
_LEVEL = ("", "1", "2", "3", "SAFE")

_DIE_X = (12, 41, 70, 99)
_DIE_Y = 10
_C_SHAKE = 4
_C_STOP = 5
_ROW_Y = (38, 28, 18, 8)   # levels 1, 2, 3, SAFE
_COL_X = 14


class ShakeUpScreen(Screen):
    NAME = "shakeup"
    KIND = KIND_SHAKEUP

    def __init__(self, app, game, ui=None):
        Screen.__init__(self, app)
        self.game = game
        self.view = BOARD
        self.cur = 0
        self.pending = 0
        self.info = bytearray(0)
        self.choices = []
        self.lines = []
        self.head = ""
        self.head2 = ""
        self.banner = ""
        if ui and len(ui) >= 3:
            self.view = ui[0]
            self.cur = ui[1]
            self.pending = ui[2]
            self.info = bytearray(ui[3:])
        self._check_view()
        self._refresh()

    # ---- state ------------------------------------------------------------------

    def _check_view(self):
        """Keep the view consistent with the game (new game, or damaged ui bytes)."""
        g = self.game
        ph = g.phase
        v = self.view
        ok = ((v == ROLLOFF and (ph == su.ROLLOFF or self.info))
              or (v == BOARD and ph == su.SHAKE)
              or (v == DICE and ph == su.CHOOSE)
              or (v == MOVE and ph == su.MOVING)
              or (v == PENALTY and ph == su.PENALTY)
              or (v in _ACK and ph != su.OVER))
        if not ok:
            self.info = bytearray(0)
            self._view_for_phase()
        if self.view == DICE:
            h = g.held
            if self.pending & h != h or self.pending > 15:
                self.pending = h
        self.cur = min(self.cur, 5)

    def _view_for_phase(self):
        ph = self.game.phase
        if ph == su.ROLLOFF:
            self.view = ROLLOFF
        elif ph == su.SHAKE:
            self.view = BOARD
        elif ph == su.CHOOSE:
            self.view = DICE
            self.pending = self.game.held
            self.cur = 0
            self._fix_cursor(1)
        elif ph == su.MOVING:
            self.view = MOVE
            self.cur = 0
        elif ph == su.PENALTY:
            self.view = PENALTY
            self.cur = 0
        else:
            self.view = BOARD

    def _acking(self):
        return self.view in _ACK or (self.view == ROLLOFF and len(self.info) > 0)

    def enter(self):
        self.dirty = True
        g = self.game
        if g.phase != su.OVER and not self._acking():
            self.app.hand_to(g.player)

    def ui_bytes(self):
        return bytes((self.view, self.cur, self.pending)) + bytes(self.info)

    @property
    def rolling(self):
        v = self.view
        if v == ROLLOFF:
            return self.game.phase == su.ROLLOFF and not self.info
        if v == BOARD:
            return True
        if v == DICE:
            return self.pending != 15
        return False

    @property
    def tumble_mask(self):
        if self.view == DICE:
            return 15 & ~self.pending
        return 15

    # ---- text (made when the state changes, never per frame) ------------------------

    def _refresh(self):
        g = self.game
        v = self.view
        self.choices = g.legal() if v in (MOVE, PENALTY) else []
        if v in (MOVE, PENALTY) and self.cur >= len(self.choices):
            self.cur = 0
        p = g.player
        self.head = COLOURS[p]
        lines = []
        self.banner = ""
        info = self.info
        fell = False
        for i in range(0, len(info) - 1, 2):
            self._info_text(info[i], info[i + 1], lines)
            fell = fell or info[i] == I_PEN
        if self.banner == "NONE" and not fell:
            lines.append("NO PAWN TO SEND BACK")  # else "PENALTY" reads as if one fell
        if v == ROLLOFF and not info:
            lines.append(COLOURS[p] + ": SHAKE ONE DIE")
            lines.append("(OR PRESS OK)")
        elif v == BOARD:
            lines.append(COLOURS[p] + ": SHAKE!")
            lines.append("(OR PRESS OK)")
        elif v == DICE:
            self.head2 = "SHAKE %d/3" % g.shakes
        elif v == MOVE:
            lines.append(COLOURS[p] + ": MOVE A PAWN UP")
            lines.append("")
        elif v == PENALTY:
            lines.append(COLOURS[p] + ": PENALIZE?")
            lines.append("")
        self.lines = lines
        self._choice_text()
        self.dirty = True

    def _choice_text(self):
        v = self.view
        if v not in (MOVE, PENALTY) or not self.choices:
            return
        d = self.choices[self.cur]
        kind = d & 0xF00
        a = d & 0xFF
        if kind == su.UP:
            t = "FROM LEVEL %d TO %s" % (a, _LEVEL[a + 1])
        elif kind == su.PEN:
            t = "%s PAWN: LEVEL %d -> 1" % (COLOURS[a >> 2], a & 3)
        elif kind == su.SKIP:
            t = "NO PENALTY"
        else:
            t = "TAKE ANOTHER TURN"
        if len(self.lines) >= 2:
            self.lines[1] = t

    def _info_text(self, code, a, lines):
        if code == I_RES:
            seat = a >> 4
            cls = (a >> 2) & 3
            shake = a & 3
            self.banner = _CLASS[cls]
            if cls == su.BIG:
                if shake == 1:
                    lines.append("SPECIAL ADVANTAGE:")
                    lines.append("UP, PENALIZE, AGAIN")
                else:
                    lines.append("MOVE UP, THEN")
                    lines.append("AGAIN OR PENALIZE")
            elif cls == su.MOVE:
                lines.append("MOVE A PAWN UP")
            elif cls == su.PAIR:
                lines.append("NO MOVE")
            else:
                lines.append("PENALTY FOR " + COLOURS[seat])
        elif code == I_UP:
            lines.append("%s UP FROM LEVEL %d" % (COLOURS[a >> 2], a & 3))
        elif code == I_SAFE:
            lines.append(COLOURS[a] + " PAWN IS SAFE!")
        elif code == I_PEN:
            lines.append("%s PAWN: LEVEL %d -> 1" % (COLOURS[a >> 2], a & 3))
        elif code == I_AGAIN:
            lines.append(COLOURS[a] + ": ANOTHER TURN")
        elif code == I_RO:
            lines.append("%s ROLLED %d" % (COLOURS[a >> 3], a & 7))
        elif code == I_TIE:
            lines.append("TIE: SHAKE AGAIN")
        elif code == I_STARTS:
            lines.append(COLOURS[a] + " STARTS")
        elif code == I_LOST:
            lines.append("NO PAWN CAN MOVE")

    def _take_notes(self):
        out = bytearray(0)
        for n in self.game.notes:
            t = n[0]
            if t == "result":
                out += bytes((I_RES, n[1] << 4 | n[2] << 2 | n[3]))
            elif t == "up":
                out += bytes((I_UP, n[1] << 2 | n[2]))
            elif t == "safe":
                out += bytes((I_SAFE, n[1]))
            elif t == "penalty":
                out += bytes((I_PEN, n[1] << 2 | n[2]))
            elif t == "again":
                out += bytes((I_AGAIN, n[1]))
            elif t == "rolloff":
                out += bytes((I_RO, n[1] << 3 | n[2]))
            elif t == "tie":
                out += bytes((I_TIE, n[1]))
            elif t == "starts":
                out += bytes((I_STARTS, n[1]))
            elif t == "lost_move":
                out += bytes((I_LOST, n[1]))
        return out

    # ---- decisions ----------------------------------------------------------------

    def _decide(self, d):
        g = self.game
        if d not in g.legal():
            self.app.play(sounds.NOPE)  # never reached: choices come from legal()
            return False
        was = g.phase
        g.apply(d)
        info = self._take_notes()
        kind = d & 0xF00
        if g.phase == su.OVER:
            self.app.finish(KIND_SHAKEUP, g)
            self.app.win(g.winner, "ALL 5 PAWNS SAFE")
            return True
        if was == su.ROLLOFF:
            self.view = ROLLOFF
            self.info = info
        elif kind == su.ROLL or kind == su.STOP:
            if g.phase == su.CHOOSE:
                self.view = DICE
                self.pending = g.held
                self.info = bytearray(0)
                self.cur = 0
                self._fix_cursor(1)
            else:
                self.view = RESULT
                self.info = info
                self._result_sound(info)
        elif kind == su.UP and g.phase == su.PENALTY:
            self.view = PENALTY
            self.cur = 0
            self.info = bytearray(0)
            self._sound_for(info)
        else:
            self.view = INFO
            self.info = info
            self._sound_for(info)
        self._refresh()
        self.app.save(KIND_SHAKEUP, g, self.ui_bytes())
        return True

    def _result_sound(self, info):
        for i in range(0, len(info) - 1, 2):
            if info[i] == I_RES:
                cls = (info[i + 1] >> 2) & 3
                if cls >= su.MOVE:
                    self.app.play(sounds.BANK)
                elif cls == su.NONE:
                    self.app.play(sounds.PENALTY)

    def _sound_for(self, info):
        snd = None
        for i in range(0, len(info) - 1, 2):
            c = info[i]
            if c == I_SAFE:
                snd = sounds.SAFE
            elif c == I_PEN and snd is None:
                snd = sounds.PENALTY
            elif c == I_UP and snd is None:
                snd = sounds.BANK
        if snd is not None:
            self.app.play(snd)

    def roll(self):
        """The app says the tumble is over: shake now."""
        g = self.game
        if self.view == DICE:
            self._decide(su.ROLL | self.pending)
        elif self.view in (BOARD, ROLLOFF) and g.phase in (su.SHAKE, su.ROLLOFF):
            self._decide(su.ROLL)

    def _continue(self):
        """OK on an acknowledgement: on to whatever the game asks for next."""
        self.info = bytearray(0)
        self._view_for_phase()
        self._refresh()
        # Not saved: closing a message is no decision, and flash writes stay at one
        # per decision. After a power cut the message simply shows again.
        self.app.hand_to(self.game.player)

    # ---- input --------------------------------------------------------------------

    def update(self, q):
        buf = q.buf
        for i in range(q.n):
            k = key(buf[i])
            if k < 0:
                continue
            if k == BACK:
                # Saved with this view (the dice picked to set aside), so Continue
                # comes back to exactly this.
                if self.game.phase != su.OVER:
                    self.app.save(KIND_SHAKEUP, self.game, self.ui_bytes())
                self.app.menu()
                return
            if self.app.screen is not self or self.app.tumbling:
                return
            self._key(k)

    def _key(self, k):
        v = self.view
        if v == ROLLOFF:
            if self.info:
                if k == OK:
                    self._continue()
            elif k == OK:
                self.app.start_roll()
        elif v == BOARD:
            if k == OK:
                self.app.start_roll()
        elif v == DICE:
            self._dice_key(k)
        elif v in _ACK:
            if k == OK:
                self._continue()
        elif v == MOVE or v == PENALTY:
            n = len(self.choices)
            if not n:
                return
            if k == NEXT or k == PREV:
                self.cur = (self.cur + (1 if k == NEXT else n - 1)) % n
                self._choice_text()
                self.app.play_select()
                self.dirty = True
            elif k == OK:
                self._decide(self.choices[self.cur])

    def _selectable(self, c):
        if c < 4:
            return not (self.game.held >> c) & 1
        if c == _C_SHAKE:
            return self.pending != 15
        return c == _C_STOP

    def _fix_cursor(self, step):
        for _ in range(6):
            if self._selectable(self.cur):
                return
            self.cur = (self.cur + step) % 6

    def _dice_key(self, k):
        if k == NEXT or k == PREV:
            step = 1 if k == NEXT else 5
            self.cur = (self.cur + step) % 6
            self._fix_cursor(step)
            self.app.play_select()
            self.dirty = True
        elif k == OK:
            c = self.cur
            if c < 4:
                self.pending ^= 1 << c
                self.app.play_select()
                self.dirty = True
            elif c == _C_SHAKE:
                self.app.start_roll()
            else:
                self._decide(su.STOP)

    # ---- drawing --------------------------------------------------------------------

    def draw(self, fb):
        v = self.view
        if self.app.tumbling and v == BOARD:
            self._draw_dice(fb, True)
        elif v == ROLLOFF:
            self._draw_rolloff(fb)
        elif v == DICE:
            self._draw_dice(fb, False)
        elif v == RESULT:
            self._draw_result(fb)
        else:
            self._draw_pyramid(fb)
            self._draw_lines(fb, 50)

    def _draw_lines(self, fb, y):
        lines = self.lines
        for i in range(len(lines)):
            if i == len(lines) - 1 and self.view in (MOVE, PENALTY):
                gfx.label(fb, lines[i], (128 - gfx.width(lines[i])) // 2 - 1, y - 1)
                if len(self.choices) > 1:  # PREV/NEXT show the other choices
                    gfx.text(fb, "<", 1, y)
                    gfx.right(fb, ">", 127, y)
            else:
                gfx.center(fb, lines[i], y)
            y += 7
        if self.view in _ACK:
            gfx.right(fb, "OK", 128, 58)

    def _face(self, i):
        # Tumbling faces: a cheap scramble of the frame number (no allocation).
        f = self.app.frame
        return (f * 5 + i * 3 + (f >> 2)) % 6 + 1

    def _draw_dice(self, fb, all_tumble):
        g = self.game
        tumbling = self.app.tumbling
        gfx.label(fb, self.head, 0, 0)
        if all_tumble:
            gfx.right(fb, "SHAKE 1/3", 128, 1)
        else:
            gfx.right(fb, self.head2, 128, 1)
        held = g.held
        pend = self.pending
        f = self.app.frame
        for i in range(4):
            x = _DIE_X[i]
            y = _DIE_Y
            if all_tumble or (tumbling and not pend >> i & 1):
                gfx.die(fb, x + ((f + i) & 1), y + (((f >> 1) + i) & 1), self._face(i), gfx.DIE_L)
                continue
            gfx.die(fb, x, y, g.dice[i], gfx.DIE_L, bool(pend >> i & 1))
            if held >> i & 1:
                gfx.mark(fb, x, y + 19, gfx.DIE_L)
        if all_tumble:
            gfx.center(fb, "SHAKING...", 44)
            return
        c = self.cur
        if c < 4:
            gfx.caret(fb, _DIE_X[c], 32, gfx.DIE_L)
        self._button(fb, "SHAKE", 12, 38, c == _C_SHAKE, pend != 15)
        self._button(fb, "STOP", 74, 38, c == _C_STOP, True)
        if tumbling:
            hint = "SHAKING..."
        elif c < 4:
            hint = "OK: KEEP / UNKEEP" if not held >> c & 1 else ""
        elif c == _C_SHAKE:
            hint = "SHAKE THE OTHERS"
        else:
            hint = "END THE TURN"
        gfx.center(fb, hint, 56)

    def _button(self, fb, s, x, y, sel, enabled):
        w = 42
        if sel:
            fb.fill_rect(x, y, w, 11, 1)
            gfx.center(fb, s, y + 3, 0, gfx.SMALL, 1, x, w)
        else:
            gfx.box(fb, x, y, w, 11)
            if enabled:
                gfx.center(fb, s, y + 3, 1, gfx.SMALL, 1, x, w)
            else:
                gfx.center(fb, "-", y + 3, 1, gfx.SMALL, 1, x, w)

    def _draw_result(self, fb):
        g = self.game
        for i in range(4):
            gfx.die(fb, _DIE_X[i], 0, g.dice[i], gfx.DIE_L)
        gfx.banner(fb, self.banner, 20)
        self._draw_lines(fb, 34)

    def _draw_rolloff(self, fb):
        g = self.game
        gfx.banner(fb, "WHO STARTS?", 0, gfx.SMALL)
        n = g.players
        cw = 128 // n
        tumbling = self.app.tumbling
        for s in range(n):
            x = s * cw + (cw - gfx.DIE_L) // 2
            if s == g.player and g.phase == su.ROLLOFF and not self.info:
                gfx.label(fb, COLOURS[s], s * cw + (cw - gfx.width(COLOURS[s])) // 2 - 1, 10)
            else:
                gfx.center(fb, COLOURS[s], 11, 1, gfx.SMALL, 1, s * cw, cw)
            if tumbling and s == g.player:
                gfx.die(fb, x + (self.app.frame & 1), 20, self._face(s), gfx.DIE_L)
            else:
                gfx.die(fb, x, 20, g.rolloff[s], gfx.DIE_L)
        self._draw_lines(fb, 44)
        if self.info:
            gfx.right(fb, "OK", 128, 58)

    def _draw_pyramid(self, fb):
        g = self.game
        n = g.players
        cw = (128 - _COL_X) // n
        me = g.player
        for s in range(n):
            x = _COL_X + s * cw
            if s == me:
                fb.fill_rect(x + 1, 0, cw - 2, 7, 1)
                gfx.center(fb, INITIALS[s:s + 1], 1, 0, gfx.SMALL, 1, x, cw)
            else:
                gfx.center(fb, INITIALS[s:s + 1], 1, 1, gfx.SMALL, 1, x, cw)
        # The pyramid's side: one step per level, narrower going up.
        for lv in range(4):
            y = _ROW_Y[lv]
            inset = lv
            fb.fill_rect(inset, y, 13 - 2 * inset, 9, 1)
            gfx.text(fb, "123S"[lv:lv + 1], 5, y + 2, 0)
            if lv < 3:
                for x in range(_COL_X, 128, 2):
                    fb.pixel(x, y + 9, 1)
        for s in range(n):
            x = _COL_X + s * cw
            for lv in range(4):
                cnt = g.count(s, lv + 1)
                y = _ROW_Y[lv] + 2
                for j in range(cnt):
                    gfx.pawn(fb, x + 3 + j * 4, y)
        # Cursor: the cell of the chosen level / target.
        v = self.view
        if v in (MOVE, PENALTY) and self.choices:
            d = self.choices[self.cur]
            kind = d & 0xF00
            a = d & 0xFF
            if kind == su.UP:
                gfx.box(fb, _COL_X + me * cw, _ROW_Y[a - 1] - 1, cw, 11)
            elif kind == su.PEN:
                gfx.box(fb, _COL_X + (a >> 2) * cw, _ROW_Y[(a & 3) - 1] - 1, cw, 11)
