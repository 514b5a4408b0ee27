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
try:
    from time import ticks_add, ticks_diff
except ImportError:  # CPython: plain integers
    def ticks_diff(a, b):
        return a - b

    def ticks_add(a, b):
        return a + b

from hal.events import BACK, LONG, OK, PRESS, RELEASE, REPEAT

from micropython import const

_TYPES = const(0)  # the attributes' types, for pyright (on the device "if 0:" is no code)
if _TYPES:
    from hal.events import Queue

_N = const(4)
# self._st: one byte of flags per button, then the IRQ latch and the driver's own flags.
_F_DOWN = const(1)     # debounced state: pressed
_F_LONG = const(2)     # LONG sent (3-button OK: became BACK)
_F_IGNORE = const(4)   # held since start: silent until released
_F_SEEN = const(8)     # a change has been accepted (its time is in _t)
_LATCH = const(4)      # bit i: falling edge on button i since the last poll (set by IRQ)
_MODE = const(5)
_M_POLLED = const(1)   # _t[_POLL] holds the previous poll's time
_M_BACK = const(2)     # 3-button mode: OK is held into BACK
# self._t: time of the last accepted change per button, then the next LONG / REPEAT
# time per button, then the previous poll's time.
_NEXT = const(4)
_POLL = const(8)


class Buttons:
    # Set by __init__ (annotations only: no code, no heap on the device).
    pins: list
    queue: "Queue"
    debounce_ms: int
    long_ms: int
    repeat_ms: int
    three: bool
    _st: bytearray
    _t: list

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
        self._st = st = bytearray(_N + 2)
        self._t = [0] * (2 * _N + 1)
        edge = self.edge  # one bound method for every pin
        for i in range(_N):
            p = pins[i]
            if p is None:
                continue
            if p.value() == 0:
                st[i] = _F_DOWN | _F_IGNORE  # held since start: silent until released
            if hasattr(p, "irq"):
                p.irq(handler=edge, trigger=p.IRQ_FALLING)

    def edge(self, pin):
        """Every button pin's falling-edge IRQ handler (__init__ installs it): sets the
        pin's bit in the latch, nothing more. Pins are matched by identity: machine.Pin
        hands the handler the very object the driver was given (static on the ESP32)."""
        pins = self.pins
        for i in range(_N):
            if pins[i] is pin:
                self._st[_LATCH] |= 1 << i

    def held(self, b):
        st = self._st
        back = st[_MODE] & _M_BACK
        if self.three and b == BACK:
            return back != 0
        if not st[b] & _F_DOWN or st[b] & _F_IGNORE:
            return False
        return not (self.three and b == OK and back)

    def ignore_held(self):
        """Buttons held now report nothing until released (e.g. the one that woke us)."""
        st = self._st
        for i in range(_N):
            if st[i] & _F_DOWN:
                st[i] |= _F_IGNORE
        st[_MODE] &= _M_POLLED  # not BACK any more
        st[_LATCH] = 0

    def poll(self, now):
        st = self._st
        t = self._t
        q = self.queue
        db = self.debounce_ms
        latch = st[_LATCH]
        st[_LATCH] = 0
        prev = t[_POLL]
        polled = st[_MODE] & _M_POLLED
        t[_POLL] = now
        st[_MODE] |= _M_POLLED
        for i in range(_N):
            p = self.pins[i]
            if p is None:
                continue
            raw = p.value() == 0
            f = st[i]
            seen = f & _F_SEEN
            settled = not seen or ticks_diff(now, t[i]) >= db
            # OK on a 3-button board: its PRESS / RELEASE come at release, a hold is BACK.
            ok3 = self.three and i == OK
            press = release = False
            if f & _F_DOWN:
                if not raw:
                    if settled:
                        st[i] = _F_SEEN
                        t[i] = now
                        release = not f & _F_IGNORE
                elif (not f & _F_IGNORE and not (ok3 and st[_MODE] & _M_BACK)
                      and ticks_diff(now, t[_NEXT + i]) >= 0):
                    # Held to the LONG / REPEAT time (an OK already BACK gets neither).
                    if not f & _F_LONG:
                        st[i] = f | _F_LONG
                        if ok3:
                            st[_MODE] |= _M_BACK
                            q.put(PRESS | BACK)
                            continue
                        q.put(LONG | i)
                    elif self.repeat_ms:
                        q.put(REPEAT | i)
                    else:
                        continue
                    nxt = ticks_add(t[_NEXT + i], self.repeat_ms)
                    if ticks_diff(now, nxt) >= 0:  # a late frame: no burst of repeats
                        nxt = ticks_add(now, self.repeat_ms)
                    t[_NEXT + i] = nxt
            elif raw:
                if settled:
                    st[i] = _F_DOWN | _F_SEEN
                    t[i] = now
                    press = True
            elif (latch >> i) & 1 and settled and (
                    not seen or (polled and ticks_diff(prev, t[i]) >= db)):
                # Pressed and let go between two polls: report the whole tap now.
                st[i] = _F_SEEN
                t[i] = now
                press = release = True
            if press:
                t[_NEXT + i] = ticks_add(now, self.long_ms)
                if not ok3:
                    q.put(PRESS | i)
            if release:
                if not ok3:
                    q.put(RELEASE | i)
                elif st[_MODE] & _M_BACK:
                    st[_MODE] &= _M_POLLED  # not BACK any more
                    q.put(RELEASE | BACK)
                else:
                    q.put(PRESS | OK)
                    q.put(RELEASE | OK)
