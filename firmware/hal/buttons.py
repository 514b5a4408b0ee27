"""Buttons: active-low (pressed = 0, with internal or external pull-ups), polled once
per frame, debounced, with press / release / long / auto-repeat events.

`Buttons(pins, queue, debounce_ms=30, long_ms=600, repeat_ms=150)`: `pins[i]` is the
machine.Pin of logical button i (events.PREV, NEXT, OK, BACK), already configured as an
input with its pull-up, or None when the board lacks that button.

- Debounce: a change of level is taken at once unless the button changed less than
  `debounce_ms` ago (contact bounce after a change is ignored, no added latency).
- A press shorter than a frame is not lost: each pin's falling-edge IRQ sets a bit in a
  preallocated bytearray (nothing else happens in the IRQ); a poll that finds the bit
  set and the button up again reports PRESS and RELEASE together. Edges while a change
  is still within its debounce time count as bounce.
- LONG once `long_ms` after the press, then REPEAT every `repeat_ms` while held.
- With no BACK pin, BACK is a long press of OK: OK's PRESS/RELEASE are reported at
  release when it was short; at `long_ms` the hold becomes PRESS BACK (RELEASE BACK
  when let go), and OK reports nothing for that hold.
- A button already held when the driver starts (or at `ignore_held()`) reports nothing
  until it has been released.
`held(button)` is the debounced state. poll() allocates nothing.
"""
from hal.events import BACK, LONG, OK, PRESS, RELEASE, REPEAT

try:
    from time import ticks_add, ticks_diff
except ImportError:  # CPython: plain integers
    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_N = const(4)
# Per-button flags.
_F_LONG = const(1)     # LONG sent (3-button OK: became BACK)
_F_IGNORE = const(2)   # held since start: silent until released
_F_SEEN = const(4)     # a change has been accepted (its time is in _t)


class Buttons:
    def __init__(self, pins, queue, debounce_ms=30, long_ms=600, repeat_ms=150):
        if debounce_ms < 0 or long_ms <= debounce_ms or repeat_ms < 0:
            raise ValueError("need 0 <= debounce_ms < long_ms and repeat_ms >= 0")
        pins = list(pins) + [None] * (_N - len(pins))
        if len(pins) > _N:
            raise ValueError("at most 4 buttons (PREV, NEXT, OK, BACK)")
        self.pins = pins
        self.queue = queue
        self.debounce_ms = debounce_ms
        self.long_ms = long_ms
        self.repeat_ms = repeat_ms
        self.three = pins[BACK] is None and pins[OK] is not None
        self._latch = bytearray(1)      # bit i: falling edge on button i since last poll
        self._down = bytearray(_N)      # debounced state, 1 = pressed
        self._flags = bytearray(_N)
        self._t = [0] * _N              # time of the last accepted change
        self._next = [0] * _N           # next LONG / REPEAT time
        self._prev = 0                  # time of the previous poll
        self._polled = False
        self._back = False              # 3-button mode: OK held into BACK
        for i in range(_N):
            p = pins[i]
            if p is None:
                continue
            if p.value() == 0:
                self._down[i] = 1
                self._flags[i] = _F_IGNORE
            if hasattr(p, "irq"):
                p.irq(handler=self._handler(i), trigger=p.IRQ_FALLING)

    def _handler(self, i):
        latch = self._latch
        bit = 1 << i

        def edge(pin):  # runs as an IRQ: set one bit, nothing more
            latch[0] |= bit
        return edge

    def held(self, b):
        if self.three and b == BACK:
            return self._back
        if not self._down[b] or self._flags[b] & _F_IGNORE:
            return False
        return not (self.three and b == OK and self._back)

    def ignore_held(self):
        """Buttons held now report nothing until released (e.g. the one that woke us)."""
        for i in range(_N):
            if self._down[i]:
                self._flags[i] |= _F_IGNORE
        self._back = False
        self._latch[0] = 0

    def poll(self, now):
        latch = self._latch[0]
        self._latch[0] = 0
        prev = self._prev
        polled = self._polled
        self._prev = now
        self._polled = True
        pins = self.pins
        for i in range(_N):
            p = pins[i]
            if p is not None:
                self._step(i, p.value() == 0, (latch >> i) & 1, now, prev, polled)

    def _step(self, i, raw, edge, now, prev, polled):
        db = self.debounce_ms
        fl = self._flags[i]
        seen = fl & _F_SEEN
        t = self._t[i]
        settled = not seen or ticks_diff(now, t) >= db
        if self._down[i]:
            if not raw:
                if settled:
                    self._down[i] = 0
                    self._t[i] = now
                    self._flags[i] = _F_SEEN
                    if not fl & _F_IGNORE:
                        self._released(i, fl)
            elif not fl & _F_IGNORE:
                self._holding(i, fl, now)
            return
        if raw:
            if settled:
                self._down[i] = 1
                self._t[i] = now
                self._flags[i] = _F_SEEN
                self._pressed(i, now)
        elif edge and settled and (not seen or (polled and ticks_diff(prev, t) >= db)):
            # Pressed and let go between two polls: report the whole tap now.
            self._t[i] = now
            self._flags[i] = _F_SEEN
            self._pressed(i, now)
            self._released(i, self._flags[i])

    def _pressed(self, i, now):
        self._next[i] = ticks_add(now, self.long_ms)
        if not (self.three and i == OK):
            self.queue.put(PRESS | i)

    def _released(self, i, fl):
        q = self.queue
        if self.three and i == OK:
            if self._back:
                self._back = False
                q.put(RELEASE | BACK)
            else:
                q.put(PRESS | OK)
                q.put(RELEASE | OK)
            return
        q.put(RELEASE | i)

    def _holding(self, i, fl, now):
        if self._back and i == OK:
            return  # already BACK: no LONG or REPEAT
        nxt = self._next[i]
        if ticks_diff(now, nxt) < 0:
            return
        q = self.queue
        if not fl & _F_LONG:
            self._flags[i] = fl | _F_LONG
            if self.three and i == OK:
                self._back = True
                q.put(PRESS | BACK)
                return
            q.put(LONG | i)
        elif self.repeat_ms:
            q.put(REPEAT | i)
        else:
            return
        nxt = ticks_add(nxt, self.repeat_ms)
        if ticks_diff(now, nxt) >= 0:  # a late frame: no burst of repeats
            nxt = ticks_add(now, self.repeat_ms)
        self._next[i] = nxt
