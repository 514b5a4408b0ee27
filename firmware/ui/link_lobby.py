"""LINK GAME's way in (docs/link.md): the screens before the live round.

Loaded when LINK GAME is chosen in the menu; forgotten once the live round shows
(App.link_live()) or on the way back to the menu (app._MENU_SCREENS):
- LinkMenu: CONTINUE (a link game saved here: the host's game, or a guest's seat),
  HOST, JOIN.
- Lobby (host): its colour (RED) and game number, who joined; ADD CPU, START (2-4);
  a guest pairing: its code, OK seats it (once its player pressed OK too), BACK not.
- Scan (guest): the hosts in range by colour and game number; OK pairs; the code,
  OK when the host shows the same; then waits for the host to start (or, to
  CONTINUE, proves its seat to its host and takes it again).
The live round is ui.link_screen.
"""
from ui import gfx
from ui.screens import BACK, COLOURS, NEXT, OK, PREV, Screen
from ui.sounds import NOPE


def leave(app):
    """Back to the menu with the radio off."""
    app.link_session(None)
    app.menu()


def _choices(fb, items, cur, y, step):
    """A list of choices, the one under the cursor marked and inverted (as the menu)."""
    for i in range(len(items)):
        if i == cur:
            gfx.arrow(fb, 2, y)
            gfx.label(fb, items[i], 7, y - 1)
        else:
            gfx.text(fb, items[i], 8, y)
        y += step



class LinkMenu(Screen):
    NAME = "link"

    def __init__(self, app):
        Screen.__init__(self, app)
        self.saved = app.store.load_link()
        self.items = (["CONTINUE"] if self.saved else []) + ["HOST", "JOIN"]
        self.cur = 0
        self.title = "LINK GAME"

    def on_key(self, k):
        app = self.app
        if k == NEXT or k == PREV:
            self.cur = (self.cur + (1 if k == NEXT else -1)) % len(self.items)
            app.play_select()
            self.dirty = True
        elif k == BACK:
            leave(app)
        elif k == OK:
            self.open(self.items[self.cur])

    def open(self, it):
        """HOST, JOIN or CONTINUE (also the main menu's CONTINUE of a link game)."""
        app = self.app
        try:
            if it == "HOST":
                app.show(Lobby(app, app.link_session("H")))
            elif it == "JOIN":
                app.show(Scan(app, app.link_session("G")))
            else:
                self._continue()
        except (ValueError, IndexError):
            app.link_session(None)
            app.store.clear_link()  # a save that does not load never traps anyone
            app.say("LINK GAME WAS DAMAGED")
            self.__init__(app)
            self.dirty = True
        except (OSError, MemoryError, ImportError):
            # No radio on this port (the browser's), or it failed, or no room for it.
            app.link_session(None)
            app.say("THE RADIO DID NOT START", "NO LINK GAME NOW")

    def _continue(self):
        app = self.app
        b = self.saved
        if b[0] == ord("H"):
            app.link_live(app.link_session("H", b[1:]))
        else:
            app.show(Scan(app, app.link_session("G", b[1:])))

    def draw(self, fb):
        gfx.banner(fb, self.title, 0)
        _choices(fb, self.items, self.cur, 20, 10)


class Lobby(Screen):
    """The host waits for guests: ADD CPU, START."""
    NAME = "link_lobby"

    def __init__(self, app, host):
        Screen.__init__(self, app)
        self.h = host
        self.cur = 1
        self.items = ("ADD CPU", "START")
        self.lines = []
        self.seen = -1
        self.ready = False
        self.title = "HOST " + host.code

    def update(self, q):
        h = self.h
        h.poll(self.app.now)
        if (h.pub is not None) != self.ready:  # the key pair is done (made in steps)
            self.ready = True
            self.dirty = True
        if h.version != self.seen:
            self.seen = h.version
            self.lines = []
            a = h.pending
            if a is not None:  # a guest pairing: its code, and the question
                self.lines.append("JOINING: " + a[3])
                self.lines.append("SAME CODE THERE?" if not a[4] & 1
                                  else "WAITING FOR ITS OK")
            for s in range(h.players()):
                k = h.kind[s]
                self.lines.append(COLOURS[s] + (" (YOU)" if k == 1 else " CPU" if k == 3
                                                else " JOINED"))
            self.dirty = True
        Screen.update(self, q)

    def on_key(self, k):
        app = self.app
        h = self.h
        if k == NEXT or k == PREV:
            self.cur ^= 1
            app.play_select()
            self.dirty = True
        elif h.pending is not None and (k == OK or k == BACK):
            h.confirm(k == OK)  # the code on both screens: seated, or not
        elif k == BACK:
            h.close()
            leave(app)
        elif k == OK:
            if self.cur == 0:
                if not h.add_cpu():
                    app.play(NOPE)
            elif h.players() < 2:
                app.play(NOPE)
                app.say("WAIT FOR A PLAYER", "OR ADD A CPU")
            else:
                h.start()
                app.link_live(h)

    def draw(self, fb):
        gfx.banner(fb, self.title if self.ready else "HOST ....", 0)
        y = 13
        for ln in self.lines:
            gfx.text(fb, ln, 4, y)
            y += 7
        x = 4
        for i in range(2):
            if i == self.cur:
                x += gfx.label(fb, self.items[i], x, 54) + 8
            else:
                gfx.text(fb, self.items[i], x + 1, 55)
                x += gfx.width(self.items[i]) + 10


class Scan(Screen):
    """A guest: the hosts in range (colour RED and short code), OK joins."""
    NAME = "link_scan"

    def __init__(self, app, guest):
        Screen.__init__(self, app)
        self.g = guest
        self.cur = 0
        self.lines = []
        self.title = "JOIN A GAME"
        self.t_line1 = ""
        self.sig = None
        self.kept = False

    def update(self, q):
        app = self.app
        g = self.g
        if g.state == 1 and not g.live and g.key is not None and not self.t_line1:
            self.t_line1 = "JOINING..."
            self.dirty = True
        g.poll(app.now)
        if g.state == 5 and not self.t_line1:  # (G_BACK) CONTINUE: proving its seat
            self.t_line1 = "TAKING YOUR SEAT"
            self.dirty = True
        if g.state == 3 and self.t_line1 != g.code:  # (G_CODE) the pairing's code
            self.t_line1 = g.code
            self.dirty = True
        if g.state == 2:  # (link.guest's G_IN) seated: saved once, for CONTINUE
            if not self.kept and g.seat < 4:
                self.kept = True
                app.keep_link(b"G" + g.to_bytes())  # a full flash: told, kept in RAM
            if g.live is not None and g.hstate == 1:
                app.link_live(None, g)
                return
            line = "JOINED AS " + COLOURS[g.seat & 3]
            if line != self.t_line1:
                self.t_line1 = line
                self.dirty = True
        sig = [(h[2], h[3], h[4]) for h in g.hosts]
        if sig != self.sig:
            self.sig = sig
            self.lines = []
            for h in g.hosts:
                self.lines.append("RED %s %s %d IN" % (h[2], "PLAYING" if h[3] else "OPEN",
                                                        h[4]))
            if self.cur >= len(self.lines):
                self.cur = 0
            self.dirty = True
        Screen.update(self, q)

    def on_key(self, k):
        app = self.app
        g = self.g
        if k == BACK:
            g.leave()
            leave(app)
        elif g.state == 3 and k == OK:  # the same code on the host: paired
            g.confirm()
            self.t_line1 = "JOINING..."
            self.dirty = True
        elif g.state != 0:
            return
        elif (k == NEXT or k == PREV) and self.lines:
            self.cur = (self.cur + 1) % len(self.lines)
            self.dirty = True
        elif k == OK and self.lines:
            if g.hosts[self.cur][3]:
                app.play(NOPE)  # a game under way takes only its own players back
                return
            self.t_line1 = "JOINING..."
            g.join(self.cur)
            self.dirty = True

    def draw(self, fb):
        gfx.banner(fb, self.title, 0)
        if self.t_line1:
            gfx.center(fb, self.t_line1, 20, 1, gfx.MEDIUM)
            gfx.center(fb, "OK IF THE HOST SHOWS IT" if self.g.state == 3
                       else "WAITING FOR THE HOST", 40, 1)
            return
        if not self.lines:
            gfx.center(fb, "LOOKING FOR HOSTS...", 28, 1)
            return
        _choices(fb, self.lines, self.cur, 16, 9)
