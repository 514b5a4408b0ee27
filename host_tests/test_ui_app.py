# portable: runs under MicroPython too
"""The app around the screens: Continue, settings applied live, shakes outside a
rolling moment, the no-sensor fallback, the frame schedule."""
import ui_rig
from shakeup_pilot import Pilot, start_game
from ui import shakeup_screen as ss

OK = ui_rig.OK
NEXT = ui_rig.NEXT


def _continue(r):
    r.wait(1500)
    m = r.app.screen
    assert m.NAME == "menu" and m.items[0] == "CONTINUE", m.items
    m.cur = 0
    r.press(OK)


def test_continue_resumes_the_same_screen():
    r = ui_rig.Rig("resume", seed=31)
    start_game(r, 3)
    p = Pilot(r, 9)
    seen = {}

    def hook(label):
        s = r.app.screen
        if label == "shakeup" and s.view not in seen and p.decisions > 3:
            seen[s.view] = 1
            return True
        return False

    p.hook = hook
    checked = 0
    for _ in range(12):
        if p.play(3000) is not None:
            break
        s = r.app.screen
        # The state right after a decision is the saved one: a restart now must show
        # the very same frame and state.
        frame = r.frame()
        state = s.game.to_bytes()
        view, cur, pending = s.view, s.cur, s.pending
        r2 = ui_rig.Rig("resume", seed=77, fs=r.root)
        _continue(r2)
        s2 = r2.app.screen
        if s2.NAME == "pass":
            # The hand-over itself is not saved: after a restart the device asks to
            # be passed to the player again; OK then shows the same screen.
            assert s2.seat == s.game.player
            r2.press(OK)
            s2 = r2.app.screen
        assert s2.NAME == "shakeup"
        if s2.view in (ss.RESULT, ss.INFO) and view not in (ss.RESULT, ss.INFO):
            # Closing a message costs no flash write (one write per decision), so
            # after a restart the message shows again; OK closes it once more.
            r2.press(OK)
            s2 = r2.app.screen
            if s2.NAME == "pass":
                r2.press(OK)
                s2 = r2.app.screen
        assert s2.game.to_bytes() == state, (state, s2.game.to_bytes(), view, s2.view)
        got = (s2.view, s2.cur, s2.pending)
        assert got == (view, cur, pending), (got, (view, cur, pending))
        assert r2.frame() == frame, ui_rig.diff_art(frame, r2.frame())
        checked += 1
        r = r2  # play on in the restarted app
        p.r = r2
    assert checked >= 3, checked


def test_settings_apply_live_and_persist():
    r = ui_rig.Rig("settings", seed=1)
    r.wait(1500)
    m = r.app.screen
    while m.items[m.cur] != "SETTINGS":
        r.press(NEXT)
    r.press(OK)
    s = r.app.screen
    assert s.NAME == "settings"
    r.press(OK)  # SOUND -> OFF
    assert r.app.buzzer.muted
    r.press(NEXT)
    r.press(OK)  # CONTRAST: next step of the cycle
    c = r.app.settings[1]
    assert c == 255
    if r.sim:
        assert r.SIM.oled.contrast == c
    else:
        assert r.dev.display.level == c
    r.press(ui_rig.BACK)
    assert r.screen == "menu"
    r2 = ui_rig.Rig("settings", seed=1, fs=r.root)
    assert r2.app.settings[0] == 0 and r2.app.settings[1] == 255
    assert r2.app.buzzer.muted


def test_shakes_outside_a_rolling_moment_are_ignored():
    r = ui_rig.Rig("noshake", seed=2)
    r.wait(1500)
    before = r.frame()
    r.shake(300)
    assert r.screen == "menu" and not r.app.tumbling
    assert r.frame() == before
    start_game(r, 2)
    s = r.app.screen
    assert s.view == ss.ROLLOFF and s.rolling
    r.press(OK)
    r.wait(600)
    assert s.info  # RED rolled; the result waits for OK: no rolling moment now
    assert not s.rolling
    state = s.game.to_bytes()
    r.shake(300)
    assert s.game.to_bytes() == state and not r.app.tumbling


def test_no_sensor_says_so_once_and_ok_rolls():
    r = ui_rig.Rig("nosensor", seed=3, sim=False)
    r.dev.sensor_missing = True
    r.app.sensor_missing = True
    r.wait(1500)
    start_game(r, 2)
    r.step(2)
    assert r.app.notice == "NO SHAKE SENSOR:"
    f = r.frame()
    # The notice is drawn over the bottom of the screen (inverted bar).
    lit = 0
    for x in range(128):
        lit += f[7 * 128 + x] >> 7 & 1
    assert lit > 100
    r.wait(3000)
    assert r.app.notice is None
    s = r.app.screen
    r.press(OK)
    r.wait(600)
    assert s.game.rolloff[0] > 0
    r.press(OK)  # acknowledge; hand to GREEN
    r.press(OK)  # pass screen
    r.step(3)
    assert r.app.notice is None  # said once only


def test_frame_schedule_catches_up_without_drift():
    import app as app_mod
    calls = []

    class Clock:
        t = 0

    def fake_ticks():
        return Clock.t

    def fake_sleep(ms):
        Clock.t += ms

    r = ui_rig.Rig("sched", seed=4, sim=False)
    a = r.app

    def step(now):
        calls.append(now)
        if len(calls) == 5:
            Clock.t += 100  # one slow frame: 3 frames late
        else:
            Clock.t += 5
        if len(calls) >= 40:
            raise StopIteration

    a.step = step
    saved = (app_mod.ticks_ms, app_mod.sleep_ms)
    app_mod.ticks_ms = fake_ticks
    app_mod.sleep_ms = fake_sleep
    try:
        try:
            a.run()
        except StopIteration:
            pass
    finally:
        app_mod.ticks_ms, app_mod.sleep_ms = saved
    # Frames stay on the 33 ms grid; the late ones run at once to catch up.
    for i in range(len(calls)):
        assert calls[i] == i * app_mod.FRAME_MS, (i, calls[i])


def test_idle_dims_then_blanks_and_the_waking_ok_does_nothing():
    r = ui_rig.Rig("power", seed=5, sim=False)
    d = r.dev.display
    r.wait(1500)
    m = r.app.screen
    assert m.NAME == "menu" and d.level == r.app.settings[1] and d.on
    r.wait(31000)  # S_DIM = 3: 30 s
    assert d.level < r.app.settings[1] and d.on
    r.press(NEXT)  # dimmed: the press counts and brightens
    assert m.cur == 1 and d.level == r.app.settings[1]
    r.wait(121000)  # S_OFF = 2 minutes
    assert not d.on
    r.press(OK)  # off: OK only wakes the display (nothing chosen blind)
    assert d.on and m.cur == 1 and r.screen == "menu"
    r.wait(121000)
    assert not d.on
    r.press(NEXT)  # off: a cursor move acts (issue 31: the key is not lost)
    assert d.on and m.cur == 2


def test_menu_shows_the_battery_level():
    class Batt:
        def percent(self):
            return 57

    r = ui_rig.Rig("batt", seed=5, sim=False)
    r.dev.battery = Batt()
    r.wait(1500)
    assert r.app.screen.batt == "57%"
    r.press(ui_rig.BACK)


def test_a_start_shows_its_key_press_first_in_one_page():
    """A game's start loads its modules before its first frame can be drawn: the key
    press shows first, LOADING... over the last display page alone (one page on the
    bus), the rest of the panel as it was; then the game's first frame."""
    for game in ("SHAKE UP", "FARKLE FRENZY"):
        r = ui_rig.Rig("feedback", seed=3)
        ui_rig.at_menu(r)
        ui_rig.setup_game(r, game, 2, press=False)
        d = r.app.display
        before = bytes(d.buf)
        shown = []
        show0 = d.show

        def show():
            shown.append(bytes(d.buf))
            return show0()

        d.show = show
        r.press(OK)
        assert r.screen in ("shakeup", "frenzy", "pass"), r.screen
        first = shown[0]
        changed = [p for p in range(8) if first[p * 128:p * 128 + 128] !=
                   before[p * 128:p * 128 + 128]]
        assert changed == [7], (game, changed)
        bar = first[7 * 128:]
        assert all(b & 1 for b in bar), "the bar fills the page's top row"
        assert sum(1 for b in bar if b != 0xFF) > 20, "LOADING... is written on it"
        assert shown[-1] != first  # then the game's frame


def test_a_notice_is_drawn_over_the_frame_on_the_panel():
    """app.say() over a screen with nothing else to redraw draws the bar alone (a CPU
    says a line at each step); a one-line notice after a two-line one redraws the
    screen, whose rows the taller bar covered. Each frame is the full draw's."""
    r = ui_rig.Rig("notice", seed=4, sim=False)
    start_game(r, 2)
    r.step(3)
    app = r.app
    scr = app.screen
    draws = [0]
    draw0 = scr.draw

    def draw(fb):
        draws[0] += 1
        return draw0(fb)

    scr.draw = draw

    def full():
        import framebuf
        b = bytearray(1024)
        fb = framebuf.FrameBuffer(b, 128, 64, framebuf.MONO_VLSB)
        draw0(fb)
        if app.notice is not None:
            app.draw_notice(fb)
        return bytes(b)

    for lines, redraws in ((("TWO LINES", "OF NOTICE"), 0), (("ONE LINE",), 1),
                           (("ANOTHER LINE",), 0)):
        n = draws[0]
        app.say(*lines)
        r.step(1)
        assert draws[0] - n == redraws, (lines, draws[0] - n)
        assert r.frame() == full(), ui_rig.diff_art(full(), r.frame())
    r.wait(3000)  # the notice ends: the screen is drawn again, without it
    assert app.notice is None and r.frame() == full()
