"""Crash handling: log the traceback, show "Restarting", restart into Continue.

main.py imports the board profile, makes the App and runs it, all inside the guard, so
whatever fails (a profile with a syntax error or bad values, a missing display, a bug)
is logged:

    resume = guard.boot(guard.ROOT)   # True: go straight to Continue
    try:
        import board                  # the profile, installed as board.py
        app = App(board, guard.ROOT)
        if resume: wdt = watch.arm(), app.resume()
        app.run(wdt)
    except Exception as e:
        guard_fail.failed(e, app_display_or_None, board_or_None, app_was_made, root, wait)

This module is boot- and crash-time code: main.py lets go of it once the boot is done,
the app forgets it with the boot's other modules (app._BOOT_MODULES), and a crash loads
it again (guard_fail). What the run needs of it stays in `watch` (resident, small): the
boot's count of quick restarts and its time, and the watchdog's feed.

guard_fail.crashed() writes the traceback to `crash.log` (crashlog; the previous one
becomes `crash.old`), marks the restart in `restart.dat` (mark_restart() here), shows a
short screen with an error code (a hash of the traceback, so the same bug gives the
same code) and resets the board. `boot()` reads and removes the mark: after a crash, a
watchdog reset or a wake from deep sleep the app resumes the saved game. A game that
crashes again within 30 s of each of MAX_TRIES resumes is not resumed by itself again:
the player is asked (ui.crashed: TRY AGAIN / SET IT ASIDE; boot() returns ASK), so a
bad save cannot trap the device in a restart loop; a crash within 30 s of a TRY AGAIN
counts on (watch.again()); after GIVE_UP quick crashes in a row it stops resetting and
leaves the REPL to mpremote.

A watchdog reset counts as a crash (logged as one): boot() keeps the count in
`watch.dat` while the app runs its first 30 s (the watchdog's feed, watch.Fed, removes
it then), so a save that hangs the loop resumes MAX_TRIES times, then the menu comes
up. The watchdog is armed before a resume, so a hang while resuming resets too.
A failure before the app runs (the profile, the display) is retried once, then the
device stops with the REPL reachable (no watchdog armed); with no display the buzzer
sounds three long beeps, and the log says what was looked for on the bus and what
answered (guard_fail.py: loaded only then).
"""
from system import watch
from system.watch import QUICK_MS, ticks_diff, ticks_ms

from micropython import const

MARK = "restart.dat"
WATCH = "watch.dat"
ROOT = "/"          # where the files are (tests point it elsewhere)
WAIT_MS = 2500      # how long the restarting screen stays
MAX_TRIES = const(2)
GIVE_UP = const(6)
ASK = const(2)      # boot(): ask before continuing (the game crashed on MAX_TRIES resumes)

_stopped = False  # boot(): the last boot gave up, and its armed watchdog reset the board


def _path(root, name):
    if not root:
        return name
    return root + name if root.endswith("/") else root + "/" + name


def _read_mark(root, name=MARK):
    try:
        f = open(_path(root, name), "rb")
        try:
            b = f.read(1)
        finally:
            f.close()
        return b[0] if b else 1
    except (OSError, IndexError):
        return 0


def _reset_cause():
    """1 after a watchdog reset, 2 after a wake from deep sleep, else 0."""
    try:
        import machine
        c = machine.reset_cause()
        if c == getattr(machine, "WDT_RESET", -1):
            return 1
        return 2 if c == getattr(machine, "DEEPSLEEP_RESET", -1) else 0
    except Exception:
        return 0


def _remove(root, name):
    try:
        import os
        os.remove(_path(root, name))
    except OSError:
        pass


def _write_mark(root, name, n):
    try:
        f = open(_path(root, name), "wb")
        try:
            f.write(bytes((min(n, 255),)))
        finally:
            f.close()
    except OSError:
        pass


def boot(root="/"):
    """Call once at start-up. True when the app should go straight to Continue, ASK
    when the player chooses (a saved game crashed on each of MAX_TRIES resumes)."""
    watch.since = ticks_ms()
    n = _read_mark(root)
    if n:
        _remove(root, MARK)
    cause = _reset_cause()
    global _stopped
    _stopped = cause == 1 and n > GIVE_UP  # the watchdog reset a device that gave up
    if cause == 1:  # the loop hung: a crash without a traceback
        n = max(n, _read_mark(root, WATCH)) + 1
        from system.crashlog import crash_log  # (loaded only for it, and forgotten after the boot)
        crash_log(root, RuntimeError("watchdog reset: the app stopped feeding it"))
    watch.count = n
    watch.pending = None
    _remove(root, WATCH)
    if n:
        if n <= MAX_TRIES or cause == 1:  # resuming, or hung again: keep counting
            _write_mark(root, WATCH, n)  # a watchdog reset in the next 30 s counts on
            watch.pending = _path(root, WATCH)
        return True if n <= MAX_TRIES else ASK
    return cause == 2


def mark_restart(root="/"):
    """Record that the next boot follows a crash (counting quick repeats)."""
    n = 1
    c = watch.count
    if c and ticks_diff(ticks_ms(), watch.since) < QUICK_MS:
        n = c + 1
    _write_mark(root, MARK, n)
    return n


def stay_stopped():
    """main.py, first thing in its try: a device that gave up (REPL) with the
    watchdog armed is reset by it; this boot gives up again at once (and arms none)."""
    if _stopped:
        raise RuntimeError("stopped: gave up after repeated crashes; power cycle to retry")
