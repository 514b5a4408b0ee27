"""main.py's except, loaded only when the app or its start failed (with guard.py, which
the app forgot after the boot).

failed(exc, display, board, started, root, wait_ms): with no display to say it, the
buzzer sounds ERROR_BEEPS long low beeps; then crashed() logs (crashlog), marks
(guard), shows the restarting screen and resets. A start that failed (started False: the board profile's
import, or App() - e.g. no display answered, whose error names the address looked for
and what the bus scan found) is retried once, then the device stops with the REPL
reachable (no watchdog was armed). A board profile error found once the display
worked (hal.wiring's `made` and `at`: e.g. no OK button) is shown on that panel in
plain words, what is wrong and in which field, logged, and the device stops there at
once: a reset would only find it again.
"""
from system.crashlog import crash_log
from system.guard import GIVE_UP, mark_restart

from micropython import const

ERROR_BEEPS = const(3)


def _sleep(ms):
    import time
    if hasattr(time, "sleep_ms"):
        time.sleep_ms(ms)
    else:
        time.sleep(ms / 1000)


def error_beeps(board):
    """ERROR_BEEPS long low beeps on the profile's buzzer (none when it has none)."""
    try:
        pin = getattr(board, "BUZZER", None)
        if pin is None:
            return
        from machine import PWM, Pin
        p = PWM(Pin(pin), freq=440, duty_u16=0)
        for _ in range(ERROR_BEEPS):
            p.duty_u16(32768)
            _sleep(300)
            p.duty_u16(0)
            _sleep(150)
        p.deinit()
    except Exception:
        pass


def failed(exc, display, board, started, root, wait_ms):
    """An exception ended the app (started: App() was made) or its start; root and
    wait_ms: guard.ROOT and guard.WAIT_MS as main.py read them at the boot (tests set
    them; the guard module loaded again for the crash has its own)."""
    if display is None and not started:
        import sys
        w = sys.modules.get("hal.wiring")
        display = getattr(w, "made", None)  # the panel worked before the error came
        field = getattr(w, "at", None)  # None: the profile was read whole
        if display is not None and field is not None:
            crash_log(root, exc)
            show_profile_error(display, field, exc)
            return  # main.py ends: the REPL, the panel saying what to fix
    if display is None and board is not None:
        error_beeps(board)  # nothing can be shown: say it with the buzzer
    crashed(exc, root, display, wait_ms, True, GIVE_UP if started else 1)


def show_profile_error(display, field, exc):
    """The board profile's error on the panel: the field, what is wrong (16
    characters a line), what to do."""
    msg = str(exc)
    if msg.startswith("board profile "):
        msg = msg[14:]
    if isinstance(exc, KeyError):
        msg = "missing " + msg
    lines = ["BOARD PROFILE", "ERROR IN " + field]
    line = ""
    for word in msg.split():
        if line and len(line) + 1 + len(word) > 16:
            lines.append(line)
            line = ""
        line = (line + " " + word) if line else word[:16]
    lines.append(line)
    lines = lines[:6]
    lines.append("FIX board.py")
    try:
        display.sleep(False)
        fb = display.fb
        fb.fill(0)
        y = 0
        for t in lines:
            fb.text(t, 0, y, 1)
            y += 9
        display.show()
    except Exception:
        pass


def show_restart(display, code, line="Restarting..."):
    """Draw the restarting screen with the error code; ignores a dead panel."""
    if display is None:
        return
    try:
        display.sleep(False)    # the crash may have come while the panel was off
    except Exception:
        pass
    try:
        fb = display.fb
        fb.fill(0)
        fb.rect(0, 0, 128, 64, 1)
        fb.text("Oops!", 44, 10, 1)
        fb.text(line, 64 - len(line) * 4, 26, 1)
        fb.text(code, 64 - len(code) * 4, 44, 1)
        display.show()
    except Exception:
        pass


def crashed(exc, root="/", display=None, wait_ms=2500, reset=True, give_up=GIVE_UP):
    """The uncaught-exception path: log, mark, show, wait, reset. Returns the code
    when reset is False (tests, the simulator), or after give_up quick crashes in a
    row (guard_fail.failed(): 1 when the app never started: the profile, the display)."""
    code = crash_log(root, exc)
    if mark_restart(root) > give_up:
        show_restart(display, code, "Stopped")
        return code             # main.py ends: the REPL is there for a look
    show_restart(display, code)
    try:
        _sleep(wait_ms)
    except Exception:
        pass
    if reset:
        import machine
        machine.reset()
    return code
