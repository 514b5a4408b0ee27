"""main.py's except, loaded only when the app or its start failed (guard.py stays
small: it is resident for the whole run).

failed(exc, display, board, started): with no display to say it, the buzzer sounds
ERROR_BEEPS long low beeps; then guard.crashed() logs, marks and resets. A start that
failed (started False: the board profile's import, or App() - e.g. no display answered,
whose error names the address looked for and what the bus scan found) is retried
once, then the device stops with the REPL reachable (no watchdog was armed).
"""
import guard
from guard import GIVE_UP

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

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


def failed(exc, display, board, started):
    """An exception ended the app (started: App() was made) or its start."""
    if display is None and board is not None:
        error_beeps(board)  # nothing can be shown: say it with the buzzer
    guard.crashed(exc, guard.ROOT, display, guard.WAIT_MS, True,
                  GIVE_UP if started else 1)
