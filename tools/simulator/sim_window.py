"""The simulator's desktop window (`make sim WINDOW=1`, `tools/simulator/sim.py --window`).

The device drawn with its OLED at 4x, buttons to click (held while the mouse is down),
the keyboard as in the terminal (here with real key-up: a held key is a held button),
and the buzzer as real tones (square waves). Needs pygame:
    .venv/bin/pip install -r tools/requirements-window.txt
The firmware runs in the same child process as in the terminal (see tools/simulator/sim.py).
"""
import array
import select
import time

import pygame

import sim

SCALE = 4
PAD = 36
RATE = 22050
VOLUME = 0.12

BG = (24, 26, 31)
BODY = (52, 56, 66)
BODY_EDGE = (90, 96, 110)
GLASS = (0, 0, 0)
PIX_ON = (222, 240, 255)
PIX_OFF = (6, 10, 16)
BTN = (30, 32, 38)
BTN_DOWN = (120, 170, 255)
TEXT = (210, 214, 222)
DIM = (140, 146, 158)

# The last window's OLED rect, for tests.
LAST_OLED_RECT = None

KEYS = {
    pygame.K_LEFT: "PREV", pygame.K_UP: "PREV", pygame.K_a: "PREV",
    pygame.K_RIGHT: "NEXT", pygame.K_DOWN: "NEXT", pygame.K_d: "NEXT",
    pygame.K_RETURN: "OK", pygame.K_KP_ENTER: "OK", pygame.K_SPACE: "OK",
    pygame.K_BACKSPACE: "BACK", pygame.K_ESCAPE: "BACK", pygame.K_DELETE: "BACK",
    pygame.K_s: "SHAKE",
}


class Tone:
    """One looping square wave at a time; cached per frequency."""

    def __init__(self):
        self.ok = False
        self.cache = {}
        self.playing = None
        try:
            pygame.mixer.init(frequency=RATE, size=-16, channels=1)
            self.ok = True
        except pygame.error:
            pass

    def sound(self, freq):
        s = self.cache.get(freq)
        if s is None:
            period = RATE / freq
            periods = max(1, round(0.05 * freq))  # ~50 ms of whole periods: loops cleanly
            n = int(round(periods * period))
            amp = int(32767 * VOLUME)
            buf = array.array("h", (amp if (i % period) < period / 2 else -amp
                                    for i in range(n)))
            s = pygame.mixer.Sound(buffer=buf.tobytes())
            self.cache[freq] = s
        return s

    def set(self, freq):
        if not self.ok or freq == self.playing:
            return
        if self.playing:
            self.cache[self.playing].stop()
        self.playing = freq or None
        if freq:
            self.sound(freq).play(loops=-1)


LABELS = {"PREV": "<", "NEXT": ">", "OK": "OK", "BACK": "BACK", "SHAKE": "SHAKE"}


def layout(w, h):
    """(OLED rect, body rect, {button: rect}) for a w x h panel."""
    ow, oh = w * SCALE, h * SCALE
    oled = pygame.Rect(PAD + 18, PAD + 18, ow, oh)
    bw = ow + 36
    body = pygame.Rect(PAD, PAD, bw, oh + 36 + 84)
    names = ("PREV", "OK", "NEXT", "BACK", "SHAKE")
    gap = bw // len(names)
    buttons = {}
    for i, n in enumerate(names):
        cx = PAD + gap // 2 + i * gap
        buttons[n] = pygame.Rect(cx - 34, oled.bottom + 34, 68, 44)
    return oled, body, buttons


class Window:
    def __init__(self, args, state, controls):
        self.args = args
        self.state = state
        self.controls = controls
        pygame.init()
        pygame.display.set_caption("Pocket Dice - simulator")
        self.caption = ""
        self.font = pygame.font.Font(None, 22)
        self.small = pygame.font.Font(None, 18)
        self.layout(state.w, state.h)
        self.tone = Tone()
        self.muted = False
        self.down = {}  # source -> button name held by it (mouse or key)

    def layout(self, w, h):
        self.oled_rect, self.body, self.buttons = layout(w, h)
        global LAST_OLED_RECT
        LAST_OLED_RECT = self.oled_rect
        size = (self.body.right + PAD, self.body.bottom + PAD + 24)
        self.surface = pygame.display.set_mode(size)

    def hit(self, pos):
        for n, r in self.buttons.items():
            if r.collidepoint(pos):
                return n
        return None

    def press(self, src, name, now):
        if name is None or src in self.down:
            return
        if name == "SHAKE":
            self.controls.shake_down(now)
        elif name == "BACK" and "BACK" not in self.controls.buttons:
            self.controls.key("BACK", now)  # a timed long OK
            return
        else:
            self.controls.send("p " + name)
            self.controls.st[name].held = True
            self.controls.st[name].until = float("inf")
        self.down[src] = name

    def release(self, src, now):
        name = self.down.pop(src, None)
        if name is None or name in self.down.values():
            return
        if name == "SHAKE":
            self.controls.shake_up(now)
        else:
            self.controls.st[name].held = False
            self.controls.send("r " + name)

    def draw(self):
        st = self.state
        s = self.surface
        s.fill(BG)
        pygame.draw.rect(s, BODY, self.body, border_radius=26)
        pygame.draw.rect(s, BODY_EDGE, self.body, width=2, border_radius=26)
        pygame.draw.rect(s, GLASS, self.oled_rect.inflate(16, 16), border_radius=6)
        if st.frame is not None:
            w, h = st.w, st.h
            rgb = bytearray()
            k = 0.35 if st.dimmed() else 1.0  # the dim level, as the panel shows it
            on = bytes(int(PIX_OFF[i] + (PIX_ON[i] - PIX_OFF[i]) * k) for i in range(3))
            off = bytes(PIX_OFF)
            for y in range(h):
                page = (y >> 3) * w
                bit = 1 << (y & 7)
                for x in range(w):
                    rgb += on if st.frame[page + x] & bit else off
            img = pygame.image.frombuffer(bytes(rgb), (w, h), "RGB")
            s.blit(pygame.transform.scale(img, self.oled_rect.size), self.oled_rect)
        held = set(self.controls.held_names())
        if self.controls.shaking:
            held.add("SHAKE")
        for n, r in self.buttons.items():
            if n == "BACK" and "BACK" not in self.controls.buttons:
                label = "BACK*"
            else:
                label = LABELS[n]
            pygame.draw.rect(s, BTN_DOWN if n in held else BTN, r, border_radius=12)
            t = self.font.render(label, True, TEXT)
            s.blit(t, t.get_rect(center=r.center))
        tone = "%d Hz" % st.freq if st.sounding() else "-"
        bits = ["screen " + (st.screen or "?"), "tone " + tone + (" (muted)" if self.muted else "")]
        if st.power_note():
            bits.append(st.power_note())
        if st.heap is not None:
            bits.append("heap %d KB free" % (st.heap // 1024))
        caption = "Pocket Dice - " + st.headline().replace("\u00b7", "-")
        if caption != self.caption:  # which firmware runs (build or sources), heap limit
            self.caption = caption
            pygame.display.set_caption(caption)
        if "BACK" not in self.controls.buttons:
            bits.append("BACK* = long OK")
        line = "  |  ".join(bits)
        s.blit(self.small.render(line, True, DIM), (PAD, self.body.bottom + 10))
        keys = "arrows/A/D prev/next  Enter/Space ok  Bksp/Esc back  S shake  M mute  Q quit"
        s.blit(self.small.render(keys, True, DIM), (PAD, 10))
        pygame.display.flip()


def run(args, inject=None, shot=None):
    """The window's loop. `inject` (tests): [(when, pygame event)], posted in order,
    each once `when` holds: seconds since start, or a function of the State (e.g.
    lambda st: st.screen == "menu"); `shot`: a PNG path written at exit."""
    state = sim.State()
    trace = open(args.trace, "w") if args.trace else None
    child = sim.Child(args)
    state.attach(child, args)
    controls = sim.Controls(child.send)
    win = Window(args, state, controls)
    t0 = time.monotonic()
    pending = list(inject or [])
    code = 0
    log_open = True
    try:
        dirty = True
        running = True
        while running:
            now = time.monotonic()
            while pending:
                when = pending[0][0]
                if not (when(state) if callable(when) else now - t0 >= when):
                    break
                pygame.event.post(pending.pop(0)[1])
            for ev in pygame.event.get():
                if ev.type == pygame.QUIT:
                    running = False
                elif ev.type == pygame.KEYDOWN:
                    if ev.key == pygame.K_q:
                        running = False
                    elif ev.key == pygame.K_m:
                        win.muted = not win.muted
                        win.tone.set(0)
                    else:
                        win.press(("key", ev.key), KEYS.get(ev.key), now)
                elif ev.type == pygame.KEYUP:
                    win.release(("key", ev.key), now)
                elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
                    win.press("mouse", win.hit(ev.pos), now)
                elif ev.type == pygame.MOUSEBUTTONUP and ev.button == 1:
                    win.release("mouse", now)
                dirty = True
            controls.tick(now)
            fds = [child.fd] + ([child.log_fd] if log_open else [])
            ready, _, _ = select.select(fds, [], [], 0.01)
            if log_open and child.log_fd in ready and not child.read_log():
                log_open = False
            if child.fd in ready:
                msgs = child.read_messages()
                if msgs is None:
                    code = 1
                    break
                for m in msgs:
                    state.apply(m, controls, trace)
                    dirty = True
            if child.proc.poll() is not None:
                code = 1
                break
            win.tone.set(0 if win.muted or not state.sounding() else state.freq)
            if dirty:
                win.draw()
                dirty = False
        if shot:
            pygame.image.save(win.surface, shot)
    finally:
        child.stop()
        win.tone.set(0)
        pygame.quit()
        if trace:
            trace.close()
    if code:
        for ln in sim.stopped_report(state, child, args):
            print(ln)
    return code


if __name__ == "__main__":
    import sys
    raise SystemExit(sim.main(sys.argv[1:] + ["--window"]))
