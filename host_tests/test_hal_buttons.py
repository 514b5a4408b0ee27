# portable: runs under MicroPython too
"""Buttons on simulated pins: debounce under bounce, latched short presses, long press,
auto-repeat, 3-button BACK, a button held at start."""
from hal_rig import SIM, board, events, no_alloc

import machine
from hal.buttons import Buttons
from hal.events import BACK, LONG, NEXT, OK, PRESS, PREV, RELEASE, REPEAT, Queue

_NAMES = ("PREV", "NEXT", "OK", "BACK")


def _rig(profile="sim", **kw):
    board(profile)
    pins = []
    for name in _NAMES:
        spec = SIM.profile.BUTTONS.get(name)
        if spec is None:
            pins.append(None)
        else:
            pull = machine.Pin.PULL_UP if spec[1] == "internal" else None
            pins.append(machine.Pin(spec[0], machine.Pin.IN, pull))
    q = Queue()
    return Buttons(pins, q, **kw), q


def _drive(name, level):
    SIM.buttons[name].drive(0 if level else None)


def test_press_and_release():
    b, q = _rig()
    b.poll(0)
    assert events(q) == []
    SIM.press("NEXT")
    b.poll(33)
    assert events(q) == [PRESS | NEXT] and b.held(NEXT)
    SIM.release("NEXT")
    b.poll(300)
    assert events(q) == [RELEASE | NEXT] and not b.held(NEXT)


def test_bounce_within_a_frame_gives_one_press():
    b, q = _rig()
    b.poll(0)
    SIM.press("OK", bounce=5)
    b.poll(33)
    assert events(q) == [PRESS | OK]
    SIM.release("OK", bounce=5)
    b.poll(400)
    assert events(q) == [RELEASE | OK]
    for t in range(410, 700, 10):
        b.poll(t)
    assert events(q) == []


def test_bounce_spanning_polls_is_ignored():
    b, q = _rig(debounce_ms=30)
    b.poll(0)
    _drive("PREV", 1)
    b.poll(5)                 # press seen at once
    _drive("PREV", 0)         # contact bounces open ...
    b.poll(15)                # ... within 30 ms of the press: ignored
    _drive("PREV", 1)
    b.poll(25)
    _drive("PREV", 0)
    _drive("PREV", 1)
    b.poll(45)
    assert events(q) == [PRESS | PREV]
    _drive("PREV", 0)         # let go at 200, bouncing for 20 ms
    b.poll(200)
    _drive("PREV", 1)
    b.poll(210)
    _drive("PREV", 0)
    b.poll(220)
    _drive("PREV", 1)
    _drive("PREV", 0)
    b.poll(260)
    b.poll(300)
    assert events(q) == [RELEASE | PREV]


def test_a_press_shorter_than_a_frame_is_latched():
    b, q = _rig()
    b.poll(0)
    SIM.press("OK")
    SIM.release("OK")         # 5 ms tap between two polls
    b.poll(33)
    assert events(q) == [PRESS | OK, RELEASE | OK]
    SIM.press("PREV", bounce=3)
    SIM.release("PREV", bounce=3)
    b.poll(66)
    assert events(q) == [PRESS | PREV, RELEASE | PREV]
    b.poll(99)
    assert events(q) == []


def test_release_bounce_is_not_a_tap():
    b, q = _rig()
    b.poll(0)
    SIM.press("NEXT")
    b.poll(33)
    SIM.release("NEXT")
    b.poll(200)
    assert events(q) == [PRESS | NEXT, RELEASE | NEXT]
    SIM.press("NEXT")         # the contact chatters right after the release was taken
    SIM.release("NEXT")
    b.poll(220)
    b.poll(253)
    assert events(q) == []


def test_long_press_then_repeat():
    b, q = _rig(long_ms=600, repeat_ms=150)
    b.poll(0)
    SIM.press("NEXT")
    got = []
    for t in range(10, 1010, 10):
        b.poll(t)
        got += [(t, e) for e in events(q)]
    assert got[0] == (10, PRESS | NEXT)
    assert (610, LONG | NEXT) in got
    reps = [t for (t, e) in got if e == REPEAT | NEXT]
    assert reps == [760, 910]
    assert [e for (t, e) in got].count(LONG | NEXT) == 1
    SIM.release("NEXT")
    b.poll(1020)
    assert events(q) == [RELEASE | NEXT]


def test_late_frames_do_not_burst_repeats():
    b, q = _rig(long_ms=600, repeat_ms=100)
    b.poll(0)
    SIM.press("PREV")
    b.poll(10)
    b.poll(700)
    assert events(q) == [PRESS | PREV, LONG | PREV]
    b.poll(2000)              # a 1.3 s stall: one repeat, not thirteen
    assert events(q) == [REPEAT | PREV]


def test_three_buttons_back_is_a_long_ok():
    b, q = _rig("lolin32_oled", long_ms=600)
    assert b.three
    b.poll(0)
    SIM.press("OK")
    b.poll(30)
    assert events(q) == []    # could still become BACK
    SIM.release("OK")
    b.poll(200)
    assert events(q) == [PRESS | OK, RELEASE | OK]
    SIM.press("OK")
    for t in range(300, 1300, 20):
        b.poll(t)
    assert events(q) == [PRESS | BACK]
    assert b.held(BACK) and not b.held(OK)
    SIM.release("OK")
    b.poll(1320)
    assert events(q) == [RELEASE | BACK] and not b.held(BACK)
    b.poll(1360)              # (edges less than debounce_ms after a release are bounce)
    SIM.press("OK")           # a tap between polls is OK, not BACK
    SIM.release("OK")
    b.poll(1400)
    assert events(q) == [PRESS | OK, RELEASE | OK]


def test_button_held_at_start_reports_nothing_until_released():
    b, q = _rig()
    SIM.press("OK")           # held before the driver starts (e.g. at power-on)
    b = Buttons([machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP) for p in (32, 33, 25, 26)], q)
    for t in range(0, 2000, 30):
        b.poll(t)
    assert events(q) == [] and not b.held(OK)
    SIM.release("OK")
    b.poll(2010)
    assert events(q) == []
    SIM.press("OK")
    b.poll(2100)
    assert events(q) == [PRESS | OK]


def test_ignore_held_silences_the_wake_button():
    b, q = _rig()
    b.poll(0)
    SIM.press("PREV")
    b.poll(30)
    events(q)
    b.ignore_held()
    for t in range(60, 1500, 30):
        b.poll(t)
    SIM.release("PREV")
    b.poll(1530)
    assert events(q) == []


def test_poll_allocates_nothing():
    b, q = _rig()
    b.poll(0)
    SIM.press("NEXT")
    no_alloc(b.poll, 33)
    for t in range(40, 1000, 40):
        no_alloc(b.poll, t)
    SIM.release("NEXT")
    no_alloc(b.poll, 1100)
    ev = events(q)
    assert ev[0] == PRESS | NEXT and ev[-1] == RELEASE | NEXT and LONG | NEXT in ev


def test_irq_handler_only_latches_and_allocates_nothing():
    b, q = _rig()
    b.poll(0)
    # The handler the pin calls on a falling edge, run with the heap locked: a tap on
    # BACK whose edge came while the button is up again is reported at the next poll.
    pin = b.pins[BACK]
    no_alloc(b.edge, pin)
    assert events(q) == []
    b.poll(33)
    assert events(q) == [PRESS | BACK, RELEASE | BACK]
