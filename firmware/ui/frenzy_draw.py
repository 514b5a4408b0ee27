"""Farkle Frenzy: drawing the screen's views (state and text come from FrenzyScreen).

128x64 layout of the play view:
  y 0   colour label, round, the player's score sheet total
  y 9   the rolled dice (17 px) | the Common Die at the right
  y 27  the cursor caret (or the WILD mark under the Common Die)
  y 31  the running total in big digits (x2 when the Common Die shows 2X), the
        selection's points, the riser (5 steps, filled as dice go on it)
  y 48  one info line: the odds hint ("FARKLE RISK 8%") or what to do
  y 55  the choices: TAKE / ROLL / STOP (inverted = cursor; no box = not possible)
Nothing here allocates: every string was formatted when the state changed.
"""
from ui import gfx
from ui.screens import COLOURS

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_T_HEAD = const(0)  # ui.frenzy_views.T_HEAD
_T_SHEET = const(1)  # ui.frenzy_views.T_SHEET
_T_RUN = const(2)  # ui.frenzy_views.T_RUN
_T_PTS = const(3)  # ui.frenzy_views.T_PTS
_T_INFO = const(4)  # ui.frenzy_views.T_INFO
_T_A = const(5)  # ui.frenzy_views.T_A
_T_B = const(6)  # ui.frenzy_views.T_B
_T_C = const(7)  # ui.frenzy_views.T_C

# Codes of core.frenzy_names (see there: private consts cost no heap).
_COMMON = const(0)  # core.frenzy_names.COMMON
_PH_ROLL = const(1)  # core.frenzy_names.PH_ROLL
_PH_WILD = const(2)  # core.frenzy_names.PH_WILD
_PH_TAKE = const(3)  # core.frenzy_names.PH_TAKE
_DECIDE = const(4)  # core.frenzy_names.DECIDE
_COMMON_BIT = const(0x20)  # core.frenzy_names.COMMON_BIT
_DX = const(19)   # dice pitch
_CX = const(106)  # Common Die x
_DY = const(9)    # dice row y
_BY = const(55)   # buttons row y
_TWOX = const(7)
_WILD = const(8)
_UNKNOWN = const(9)  # gfx.die draws "?"
# ui.frenzy_screen's views and cursor items
_PLAY = const(0)
_FARKLE = const(1)
_NOTICE = const(2)
_WARN = const(3)
_SUMMARY = const(4)
_IT_COMMON = const(5)
_IT_TAKE = const(6)
_IT_ROLL = const(7)
_IT_STOP = const(8)
_IT_NO = const(9)
# offsets in scr.ov (as in ui.frenzy_screen)
_TAKEN = const(12)
_DICE = const(13)
_ND = const(18)


def _button(fb, s, x, cursor, enabled=True):
    """A choice: inverted under the cursor, plain text otherwise. Not possible now
    (TAKE with a selection that does not score): the text stays whole (dithering it
    garbled "TAKE" into "YA !(") over a dotted line, a solid one under the cursor;
    the info line says what is missing."""
    w = gfx.width(s, gfx.MEDIUM) + 2
    if cursor and enabled:
        gfx.label(fb, s, x, _BY, gfx.MEDIUM)
        return x + w + 5
    gfx.text(fb, s, x + 1, _BY + 1, 1, gfx.MEDIUM)
    if not enabled:
        if cursor:
            fb.hline(x, _BY + 8, w, 1)
        else:
            for xx in range(x, x + w, 2):
                fb.pixel(xx, _BY + 8, 1)
    return x + w + 5


def draw(scr, fb):
    v = scr.view
    if v != _PLAY:
        # The overlays, each closed with OK.
        if v == _FARKLE:
            gfx.center(fb, "FARKLE", 1, 1, gfx.MEDIUM, 2)
            ov = scr.ov
            n = ov[_ND]
            x0 = (128 - (n * _DX - 2)) // 2
            for i in range(n):
                gfx.die(fb, x0 + i * _DX, 19, ov[_DICE + i])
            gfx.center(fb, scr.t[_T_A], 40, 1, gfx.MEDIUM)
            gfx.center(fb, scr.t[_T_B], 51)
            gfx.right(fb, "OK", 128, 58)
        elif v == _NOTICE:
            gfx.banner(fb, "RISER FILLED", 0)
            gfx.center(fb, scr.t[_T_A], 16)
            gfx.center(fb, scr.t[_T_B], 26, 1, gfx.MEDIUM)
            gfx.center(fb, scr.t[_T_C], 38, 1, gfx.MEDIUM, 2)
            gfx.right(fb, "OK", 128, 58)
        elif v == _WARN:
            gfx.banner(fb, "STOP?", 0)
            gfx.center(fb, scr.t[_T_A], 16, 1, gfx.MEDIUM)
            gfx.center(fb, scr.t[_T_B], 28, 1, gfx.MEDIUM)
            gfx.text(fb, scr.t[_T_C], 4, 41)
            x = 30
            for i in range(2):
                x = _button(fb, "NO" if scr.items[i] == _IT_NO else "YES", x, i == scr.cur)
                x += 16
        elif v == _SUMMARY:
            gfx.banner(fb, scr.t[_T_A], 0)
            y = 13
            for s in range(scr.game.players):
                if scr.ov[39] >> 4 + s & 1:  # a tie round's seat
                    gfx.arrow(fb, 0, y + 1)
                gfx.text(fb, scr.t_rows[s], 5, y + 1)
                gfx.right(fb, scr.t_cols[s], 84, y, 1, gfx.MEDIUM)
                gfx.right(fb, scr.t_tot[s], 128, y, 1, gfx.MEDIUM)
                y += 10
            gfx.text(fb, scr.t[_T_B], 0, 58)
        else:  # the winner
            gfx.center(fb, COLOURS[scr.game.winner], 0, 1, gfx.MEDIUM, 2)
            gfx.center(fb, "WINS WITH", 16)
            gfx.center(fb, scr.t[_T_B], 24, 1, gfx.MEDIUM, 2)
            y = 43
            for i in range(3):
                if scr.t_rows[i]:
                    gfx.text(fb, scr.t_rows[i], 0, y)
                    gfx.right(fb, scr.t_tot[i], 64, y)
                y += 7
            gfx.right(fb, "OK: MENU", 128, 58)
        return
    g = scr.game
    app = scr.app
    ph = g.phase
    seat = g.player
    tumbling = app.tumbling
    frame = app.frame
    # The header: colour label, round, the player's score sheet total.
    w = gfx.label(fb, COLOURS[seat], 0, 0)
    gfx.text(fb, scr.t[_T_HEAD], w + 3, 1)
    gfx.right(fb, scr.t[_T_SHEET], 128, 1)
    # The rolled dice (or the ones about to be rolled).
    if ph == _COMMON:
        pass
    elif ph == _PH_ROLL or tumbling:
        m = scr.tumble_mask
        for i in range(g.to_roll()):
            if tumbling and m >> i & 1:
                # A face that changes every other frame and differs between dice.
                gfx.die(fb, i * _DX, _DY + ((frame + i) & 1),
                        (frame // 2 * 5 + i * 3 + (frame >> 3) * i) % 6 + 1)
            else:
                gfx.die(fb, i * _DX, _DY, _UNKNOWN)
    else:
        ov = scr.ov
        sel = scr.mask if ph == _PH_TAKE else ov[_TAKEN] if ph == _DECIDE else 0
        for i in range(ov[_ND]):
            gfx.die(fb, i * _DX, _DY, ov[_DICE + i], gfx.DIE_L, bool(sel >> i & 1))
    cur_item = scr.items[scr.cur] if scr.nitems else 255
    caret = ph == _PH_TAKE and cur_item == _IT_COMMON
    # The Common Die.
    x = _CX
    fb.vline(x - 5, _DY, 17, 1)
    c = g.common
    if tumbling and scr.tumble_mask & 0x20:
        gfx.die(fb, x, _DY + (frame & 1), (frame // 2 * 5 + 15 + (frame >> 3) * 5) % 6 + 1)
    elif ph == _COMMON or not c:
        gfx.die(fb, x, _DY, _UNKNOWN)
    elif ph == _PH_WILD:
        gfx.die(fb, x, _DY, scr.wildv, gfx.DIE_L, True)
        gfx.caret(fb, x, 27, 17)
    else:
        face = c
        if c == _WILD and g.wild:
            face = g.wild
        sel = ph == _PH_TAKE and scr.mask & _COMMON_BIT
        if ph == _DECIDE and scr.ov[_TAKEN] & _COMMON_BIT:
            sel = True
        gfx.die(fb, x, _DY, face, gfx.DIE_L, bool(sel))
        if c == _WILD and g.wild and not caret:
            gfx.text(fb, "W", x + 7, 28)
        if (ph == _PH_TAKE or ph == _PH_ROLL or ph == _DECIDE) and face <= 6 \
                and not sel and g.usable() is None:
            # Counted already in this set of five: struck through.
            for i in range(15):
                fb.pixel(x + 1 + i, _DY + 15 - i, 1)
    if ph == _PH_TAKE and cur_item <= _IT_COMMON:
        gfx.caret(fb, _CX if caret else cur_item * _DX, 27, 17)
    if ph != _COMMON:
        x = gfx.text(fb, scr.t[_T_RUN], 0, 31, 1, gfx.MEDIUM, 2)
        if c == _TWOX:
            gfx.text(fb, "^2", x + 1, 38, 1, gfx.MEDIUM)
        if scr.t[_T_PTS]:
            gfx.right(fb, scr.t[_T_PTS], 97, 38, 1, gfx.MEDIUM)
        # The riser: 5 steps, filled as dice go on it.
        n = g.riser(seat)
        for i in range(5):
            h = 3 + 3 * i
            x = 99 + 6 * i
            if i < n:
                fb.fill_rect(x, 46 - h, 5, h, 1)
            else:
                fb.rect(x, 46 - h, 5, h, 1)
    else:
        gfx.text(fb, "COMMON DIE", 0, 14, 1, gfx.MEDIUM)
        gfx.text(fb, "1 1 5 5 2X WILD", 0, 26)
    gfx.text(fb, scr.t[_T_INFO], 0, 48)
    if ph == _PH_WILD:
        _button(fb, "SET WILD", 0, True)
        gfx.right(fb, "< >", 128, _BY + 2)
        return
    x = 0
    for i in range(scr.nitems):
        it = scr.items[i]
        cur = i == scr.cur
        if it == _IT_TAKE:
            x = _button(fb, "TAKE", x, cur, scr.ok_take[scr.mask] == 1)
        elif it == _IT_ROLL:
            x = _button(fb, "ROLL", x, cur)
        elif it == _IT_STOP:
            x = _button(fb, "STOP", x, cur)
    if scr.rolling and not tumbling and not app.sensor_missing:
        gfx.right(fb, "OR SHAKE", 128, _BY + 2)
