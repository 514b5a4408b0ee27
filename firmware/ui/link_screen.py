"""LINK GAME's live round (docs/link.md): Farkle Frenzy with one handheld per
player. The host runs the game (link.host); a guest asks the host for every decision
(link.guest) and shows the game as the host tells it. The screens before it are
ui.link_lobby.

Keys in the live round: shake (or OK) rolls; on the dice PREV/NEXT move, OK picks a
die (the Common Die after them while it counts), TAKE sets the picked dice aside; then
ROLL ON or STOP. BACK leaves for the menu (the host's game stays saved: CONTINUE in
LINK GAME brings everyone back). The compact line shows the others: initial, then R
and the dice on the riser while rolling, S and the bank once stopped, F after a
Farkle, ? while lost.
"""
from core.dice import WILD
from core.frenzy import DECLARE, FARKLED, PH_COMMON, PH_OVER, ROLL, ROLLING, STOP, \
    STOPPED, TAKE
from core.frenzy_live import L_DECIDE, L_DONE, L_ROLL, L_TAKE, L_WILD
from core.frenzy_score import COMMON_BIT
from ui import gfx
from ui.screens import BACK, COLOURS, DIRTY_DICE, INITIALS, NEXT, OK, PREV, Screen
from ui.sounds import BANK, FARKLE, NOPE, PENALTY, SELECT, WIN

_SMALL_DIE = 11


def leave(app):
    """Back to the menu with the radio off."""
    app.link_session(None)
    app.menu()


class LiveScreen(Screen):
    """The live round on one handheld (host: h, guest: g)."""
    NAME = "link_live"
    KIND = 2

    def __init__(self, app, host, guest=None):
        Screen.__init__(self, app)
        self.h = host
        self.g = guest
        self.cur = 0  # cursor: dice 0..n-1, then the Common Die (when it counts), TAKE
        self.sel = 0  # picked dice (TAKE mask)
        self.pick = 0  # L_DECIDE: 0 ROLL ON, 1 STOP; L_WILD: the value - 1; lost: choice
        self.seen = -1
        self.mine = None  # (status, by, fills, round) of my seat when last seen
        self.fills = bytearray(4)
        self.rnd = 0
        self.head = ""
        self.msg = ""
        self.line = ""
        self.lines = []
        self.t_line1 = ""
        self.rolling = False
        self.asking = -1  # the lost seat the host's player is asked about
        self.over = False

    # ---- the two roles ----------------------------------------------------------------

    def _of(self):
        """The session: the host's, else the guest's."""
        s = self.h if self.h is not None else self.g
        if s is None:
            raise ValueError("no link session")
        return s

    def live(self):
        return self._of().live

    def seat(self):
        g = self.g
        return g.seat if self.h is None and g is not None else 0

    def version(self):
        return self._of().version

    def _decide(self, d):
        h, g = self.h, self.g
        if h is not None:
            try:
                h.local(d)
            except ValueError:
                self.app.play(NOPE)
                return False
            return True
        return g is not None and g.ask(d)

    def waiting(self):
        return self.g is not None and self.g.waiting()

    def _keep(self, h):
        if h.live.g.phase != PH_OVER:
            self.app.keep_link(b"H" + h.to_bytes())  # a full flash: told, kept in RAM

    # ---- frames -------------------------------------------------------------------

    def update(self, q):
        app = self.app
        h = self.h
        if h is not None:
            if h.keep is None:
                h.keep = self._keep
            h.poll(app.now)
            if self.asking >= 0 and not h.lost >> self.asking & 1:
                self.asking = -1  # it came back
                self.dirty = True
            if self.asking < 0:
                ask = h.lost & ~h.asked & ~h.gone
                for s in range(4):
                    if ask >> s & 1:
                        self.asking = s
                        self.pick = 0
                        self.dirty = True
                        break
        elif self.g is not None:
            g = self.g
            g.poll(app.now)
            if g.bye or (g.host_lost and self.t_line1 != "HOST LOST"):
                self.t_line1 = "HOST LOST" if not g.bye else "HOST LEFT"
                self.dirty = True
            elif not g.host_lost and self.t_line1 in ("HOST LOST", "HOST LEFT") and not g.bye:
                self.t_line1 = ""
                self.dirty = True
        if self.version() != self.seen:
            self.seen = self.version()
            self._refresh()
        lv = self.live()
        s = self.seat()
        self.rolling = lv is not None and lv.ph[s] == L_ROLL and lv.st[s] == ROLLING \
            and not self.waiting() and not (lv.waiting_wild() and s != lv.g.roller) \
            and self.asking < 0
        Screen.update(self, q)

    def _refresh(self):
        """A new version of the game: the texts, and what it means for this player."""
        lv = self.live()
        if lv is None:
            return
        app = self.app
        self.dirty = True
        g = lv.g
        s = self.seat()
        n = g.players
        st = lv.st[s]
        if g.round != self.rnd and g.phase != PH_COMMON:
            self.rnd = g.round
            for i in range(n):
                self.fills[i] = 0
            self.mine = None
        for i in range(n):  # another's fill: say so (the host's view has it first)
            if i != s and lv.fills[i] > self.fills[i]:
                if st == ROLLING or lv.by[s] == i + 1:
                    app.say(COLOURS[i] + " FILLED THE RISER!")
            self.fills[i] = lv.fills[i]
        was = self.mine
        now = (st, lv.by[s], g.round)
        if was is not None and was[0] == ROLLING and was[2] == g.round:
            if st == STOPPED and lv.by[s]:
                app.play(PENALTY)  # the distinct sound: someone else's fill stops you
                app.say(COLOURS[lv.by[s] - 1] + " FILLED:", "YOU STOP WITH %d" % lv.run[s])
            elif st == FARKLED:
                app.play(FARKLE)
                app.say("FARKLE!")
            elif st == STOPPED:
                app.play(BANK)
        self.mine = now
        if lv.ph[s] != L_TAKE:
            self.sel = 0
            self.cur = 0
        self.head = "ROUND %d  %s" % (g.round, COLOURS[s])
        # The others on one line.
        parts = []
        lost = self._of().lost
        for i in range(n):
            if i == s:
                continue
            if lost >> i & 1:
                parts.append(INITIALS[i] + "?")
            elif lv.st[i] == ROLLING:
                parts.append("%sR%d" % (INITIALS[i], lv.riser[i]))
            elif lv.st[i] == FARKLED:
                parts.append(INITIALS[i] + "F")
            elif lv.st[i] == STOPPED:
                parts.append("%sS%d" % (INITIALS[i], lv.run[i]))
        self.line = " ".join(parts)
        self.lines = []
        if g.phase == PH_COMMON or g.phase == PH_OVER:
            for i in range(n):
                self.lines.append("%s %d +%d" % (COLOURS[i], g.totals[i], g.round_scores[i]))
            if g.phase == PH_OVER:
                self.t_line1 = COLOURS[g.winner] + " WINS"
                if not self.over:
                    self.over = True
                    app.play(WIN)
                    # Counted, then the save goes (a full flash: the count waits in RAM
                    # for room, and no CONTINUE is offered meanwhile).
                    gid = self._of().gid
                    app.told(app.store.end_link(gid, g.winner == self.seat()))
            else:
                self.t_line1 = "ROUND %d DONE" % (g.round - 1)
        else:
            if self.t_line1 not in ("HOST LOST", "HOST LEFT"):
                self.t_line1 = ""
        self._msg()

    def _msg(self):
        lv = self.live()
        s = self.seat()
        ph = lv.ph[s]
        st = lv.st[s]
        if ph == L_TAKE:
            p = lv.points(s, self.sel)
            self.msg = "TAKE %d" % p if p else "PICK DICE"
        elif ph == L_ROLL:
            if lv.waiting_wild() and s != lv.g.roller:
                self.msg = "WAIT: %s SETS THE WILD" % COLOURS[lv.g.roller]
            else:
                self.msg = "SHAKE TO ROLL %d" % lv.to_roll(s)
        elif ph == L_WILD:
            self.msg = "SET THE WILD: %d" % (self.pick % 6 + 1)
        elif ph == L_DECIDE:
            self.msg = "RUN %d: %s" % (lv.run[s], "STOP" if self.pick else "ROLL ON")
        elif st == FARKLED:
            self.msg = "FARKLE"
        elif st == STOPPED:
            self.msg = "BANKED %d" % lv.run[s]
        else:
            self.msg = ""

    def roll(self):
        """The app's tumble landed: the host draws the dice (ours or, for a guest, when
        the request reaches it)."""
        self._decide(ROLL)
        self.dirty = True

    def on_key(self, k):
        app = self.app
        lv = self.live()
        if k == BACK and self.asking < 0:
            if self.g is not None:
                self.g.leave()
            leave(app)
            return
        if lv is None:
            return
        if self.asking >= 0:
            self._lost_key(k)
            return
        g = lv.g
        s = self.seat()
        if g.phase == PH_OVER:
            if k == OK:
                leave(app)
            return
        if g.phase == PH_COMMON:
            if k == OK and self.h is not None:
                self.h.next_round()
                app.play_select()
            return
        if self.waiting():
            return
        ph = lv.ph[s]
        if ph == L_ROLL:
            if k == OK:
                app.start_roll()
            return
        if ph == L_WILD or ph == L_DECIDE:
            m = 6 if ph == L_WILD else 2
            if k == NEXT or k == PREV:
                self.pick = (self.pick + (1 if k == NEXT else m - 1)) % m
                app.play_select()
            elif k == OK:
                if ph == L_WILD:
                    self._decide(DECLARE | (self.pick + 1))
                else:
                    self._decide(STOP if self.pick else ROLL)
                self.pick = 0
            self._msg()
            self.dirty = True
            return
        if ph == L_TAKE:
            n = lv.nrolled[s]
            c = 1 if lv.usable(s) else 0
            last = n + c
            if k == NEXT or k == PREV:
                self.cur = (self.cur + (1 if k == NEXT else last)) % (last + 1)
                app.play_select()
            elif k == OK:
                if self.cur < n:
                    self.sel ^= 1 << self.cur
                elif self.cur < last:
                    self.sel ^= COMMON_BIT
                elif lv.points(s, self.sel) and self._decide(TAKE | self.sel):
                    app.play(SELECT)
                else:
                    app.play(NOPE)
            self._msg()
            self.dirty = True

    def _lost_key(self, k):
        if k == NEXT or k == PREV:
            self.pick = (self.pick + (1 if k == NEXT else 2)) % 3
        elif k == OK:
            # pick 0 WAIT, 1 CPU, 2 DROP: link.host's LOST_WAIT, LOST_CPU, LOST_DROP
            self.h.settle_lost(self.asking, self.pick)
            self.asking = -1
            self.pick = 0
        self.dirty = True

    # ---- drawing ---------------------------------------------------------------------

    def draw(self, fb):
        lv = self.live()
        if lv is None:
            gfx.center(fb, self.t_line1 or "WAITING FOR THE HOST", 28, 1)
            return
        g = lv.g
        s = self.seat()
        if self.dirty == DIRTY_DICE and self.asking < 0 and g.phase != PH_COMMON \
                and g.phase != PH_OVER and self.app.tumbling:
            # A tumble's frame after its first (app.step): fb holds the last frame and
            # only the tumbling dice change; each die covers its own box (gfx.die).
            for i in range(min(5, lv.to_roll(s))):
                gfx.die(fb, 1 + 21 * i, 9, (self.app.frame + i) % 6 + 1)
            return
        gfx.text(fb, self.head, 0, 0)
        if self.asking >= 0:
            gfx.center(fb, COLOURS[self.asking] + " IS LOST", 14, 1, gfx.MEDIUM)
            x = 6
            for i in range(3):
                t = ("WAIT", "CPU", "DROP")[i]
                if i == self.pick:
                    x += gfx.label(fb, t, x, 40, gfx.MEDIUM) + 8
                else:
                    gfx.text(fb, t, x + 1, 41, 1, gfx.MEDIUM)
                    x += gfx.width(t, gfx.MEDIUM) + 10
            return
        if g.phase == PH_COMMON or g.phase == PH_OVER:
            gfx.center(fb, self.t_line1, 9, 1, gfx.MEDIUM)
            y = 21
            for ln in self.lines:
                gfx.text(fb, ln, 4, y)
                y += 7
            gfx.center(fb, "OK: NEXT ROUND" if self.h is not None and g.phase == PH_COMMON
                       else "OK: MENU" if g.phase == PH_OVER else "WAITING FOR THE HOST", 58, 1)
            return
        # The Common Die, top right; the riser count beside the round.
        n = lv.nrolled[s]
        ph = lv.ph[s]
        tumbling = self.app.tumbling or (self.waiting() and ph == L_ROLL)
        gfx.die(fb, 116, 0, g.common if g.common != WILD or not g.wild else g.wild,
                _SMALL_DIE, g.common == WILD)
        gfx.right(fb, "RISER %d" % lv.riser[s], 112, 0)
        for i in range(5):
            x = 1 + 21 * i
            if tumbling and i < lv.to_roll(s):
                gfx.die(fb, x, 9, (self.app.frame + i) % 6 + 1)
            elif ph in (L_TAKE, L_WILD) and i < n:
                gfx.die(fb, x, 9, lv.rolled[s][i], 17, self.sel >> i & 1 == 1)
            elif i >= 5 - lv.riser[s] or ph == L_DONE:
                gfx.box(fb, x + 4, 13, 9, 9)  # on the riser (or not rolled)
        if ph == L_TAKE:
            if lv.usable(s):
                gfx.die(fb, 106, 13, lv.usable(s), _SMALL_DIE, self.sel & COMMON_BIT != 0)
            c = self.cur
            x = 1 + 21 * c + 5 if c < n else (108 if c == n and lv.usable(s) else 0)
            if c < n or (c == n and lv.usable(s)):
                gfx.caret(fb, x, 28, 7)
            else:
                gfx.label(fb, "TAKE", 104, 27)
            if c < n + (1 if lv.usable(s) else 0):
                gfx.text(fb, "TAKE", 105, 28)
        gfx.text(fb, self.msg, 0, 34)
        gfx.text(fb, self.line, 0, 43)
        if self.t_line1:
            gfx.banner(fb, self.t_line1, 52, gfx.SMALL, 12)
        elif ph == L_DECIDE:
            for i in range(2):
                t = ("ROLL ON", "STOP")[i]
                if i == self.pick:
                    gfx.label(fb, t, 4 + 64 * i, 53, gfx.MEDIUM)
                else:
                    gfx.text(fb, t, 5 + 64 * i, 54, 1, gfx.MEDIUM)
        elif ph == L_ROLL and self.rolling:
            gfx.center(fb, "SHAKE OR OK", 55, 1)
        elif ph == L_DONE:
            gfx.center(fb, "WAITING FOR THE OTHERS", 55, 1)

