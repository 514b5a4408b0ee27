# portable: runs under MicroPython too
"""Faults on the simulated board: the panel or the shake sensor stops answering
mid-game and comes back (machine.SIM.fail), a button held at boot, a burst of contact
bounce, a stuck vibration switch, the press that wakes a dark display, deep sleep
into Continue, and a crash that restarts into Continue."""
import os

from system import guard
from system import guard_fail
from system import store
import ui_rig
from shakeup_pilot import Pilot, start_game
from fault_rig import (_Clock, _app, _board, _game_rig, _menu_after_boot, _ok_for_shake,
                       _panel_matches, _play, _sim, _to_rolling)

OK = ui_rig.OK
NEXT = ui_rig.NEXT
_PANEL = 0x3C
_ACCEL = 0x68


def _lose_display(err):
    r, p = _game_rig("disp%d" % err, 11)
    sim = _sim()
    assert _panel_matches(r)
    before = p.decisions
    sim.fail(_PANEL, True, err)
    _play(p, 8)                     # no exception; the game goes on in the dark
    assert p.decisions > before
    assert not r.app.display.ok
    mid = p.decisions
    sim.fail(_PANEL, False)
    r.wait(1500)                    # retried about once a second
    assert r.app.display.ok
    r.step(2)
    assert _panel_matches(r)        # the whole current screen was sent again
    assert sim.oled.on
    _play(p, 4)
    assert p.decisions > mid
    assert _panel_matches(r)
    ui_rig._rmtree(r.root)


def test_display_lost_mid_game_and_back_enodev():
    _lose_display(19)


def test_display_lost_mid_game_and_back_etimedout():
    _lose_display(110)


def test_sensor_lost_mid_game_ok_rolls_then_shakes_again():
    r, p = _game_rig("sensor", 21)
    sim = _sim()
    app = r.app
    sim.fail(_ACCEL, True)
    r.wait(1100)                    # three failed reads (past a roll's 800 ms cooldown)
    assert app.shaker.failed
    _ok_for_shake(r, p)
    assert _to_rolling(r, p)
    r.step()
    assert app.notice == "NO SHAKE SENSOR:" and app.notice2 == "PRESS OK TO ROLL"
    before = p.decisions
    _play(p, 6)                     # OK rolls: play goes on
    assert p.decisions > before
    sim.fail(_ACCEL, False)
    r.wait(2500)                    # the detector re-initialises the sensor
    assert not app.shaker.failed
    assert _to_rolling(r, p)
    sim.shake(True)
    for _ in range(60):
        r.step()
        if app.tumbling:
            break
    assert app.tumbling             # shaking rolls again
    sim.shake(False)
    r.wait(800)
    assert not app.tumbling
    ui_rig._rmtree(r.root)


class _AppRig(ui_rig.Rig):
    """The rig's helpers around an App built here (not by Rig itself)."""

    def __init__(self, app, root):
        self.root = root
        self.sim = True
        self.SIM = _sim()
        self.app = app
        self.t = 1000


def test_sensor_missing_at_boot_rolls_with_ok():
    root = ui_rig.tmpdir("nosensor")
    app = _app(_board(), root, lambda sim: sim.fail(_ACCEL, True))
    assert app.shaker is None and app.sensor_missing
    r = _AppRig(app, root)
    start_game(r, 2)
    p = Pilot(r, 4)
    _ok_for_shake(r, p)
    assert _to_rolling(r, p)
    r.step()
    assert app.notice == "NO SHAKE SENSOR:"
    _play(p, 6)
    assert p.decisions >= 6
    ui_rig._rmtree(root)


def test_button_held_at_boot_does_nothing_until_released():
    root = ui_rig.tmpdir("held")
    app = _app(_board(), root, lambda sim: sim.press("OK"))
    c = _Clock(app)
    c.wait(3000)                     # splash over, OK still held: no choice made
    assert app.screen.NAME == "menu" and app.screen.cur == 0
    _sim().release("OK")
    c.wait(300)
    assert app.screen.NAME == "menu"
    _sim().press("NEXT")
    c.wait(1200)                     # a real hold of NEXT repeats: the player meant it
    _sim().release("NEXT")
    c.wait(100)
    moved = app.screen.cur
    assert moved >= 2
    c.tap("OK")
    assert app.screen.NAME != "menu"  # a fresh press acts
    ui_rig._rmtree(root)


def test_burst_of_bounce_is_one_press():
    root = ui_rig.tmpdir("bounce")
    app, c = _menu_after_boot(root)
    m = app.screen
    assert m.NAME == "menu" and m.cur == 0
    for i in range(1, 4):
        c.tap("NEXT", bounce=8)
        assert m.cur == i, (i, m.cur)
    ui_rig._rmtree(root)


def test_stuck_vibration_switch_never_rolls():
    root = ui_rig.tmpdir("switch")
    sw = {"type": "switch", "pin": 4, "pull": "internal", "sensitivity": 3}
    board = _board(SHAKE=sw)
    app = _app(board, root)
    assert app.shaker is not None
    sim = _sim()
    sim.pin(4).drive(0)              # the spring contact is stuck closed
    r = _AppRig(app, root)
    start_game(r, 2)
    assert _to_rolling(r)
    g = app.screen.game.to_bytes()
    r.wait(5000)                     # stuck: no edges, so no shake
    assert not app.tumbling and app.screen.game.to_bytes() == g
    sim.pin(4).release()
    r.wait(3000)                     # let go: one edge is no shake either
    assert not app.tumbling and app.screen.game.to_bytes() == g
    r.press(OK)                      # OK still rolls
    r.wait(700)
    assert app.screen.game.to_bytes() != g
    ui_rig._rmtree(root)


def test_press_that_wakes_the_dark_display_only_wakes_it():
    # OK (and BACK) on a dark panel only wake it: nothing is chosen blind. PREV/NEXT act,
    # a cursor move being safe (issue 31; How to play's CONTROLS: DARK SCREEN page).
    root = ui_rig.tmpdir("wake")
    app, c = _menu_after_boot(root)
    m = app.screen
    assert m.NAME == "menu" and m.cur == 0
    sim = _sim()
    c.wait(31000)
    assert app.level == 1 and sim.oled.on            # dimmed
    assert sim.oled.contrast < app.settings[store.S_CONTRAST]
    c.wait(90000)
    assert app.level == 2 and not sim.oled.on        # display off (light sleep)
    c.tap("OK")
    assert sim.oled.on and app.level == 0
    assert sim.oled.contrast == app.settings[store.S_CONTRAST]
    assert app.screen is m and m.cur == 0            # the waking OK chose nothing
    c.wait(125000)
    assert app.level == 2 and not sim.oled.on
    c.tap("NEXT")                                    # a cursor move acts, and wakes
    assert sim.oled.on and app.level == 0 and app.screen is m and m.cur == 1
    c.tap("NEXT")
    assert m.cur == 2
    ui_rig._rmtree(root)


def test_holding_the_wake_button_does_not_repeat():
    root = ui_rig.tmpdir("wakehold")
    app, c = _menu_after_boot(root)
    m = app.screen
    c.wait(125000)
    assert app.level == 2
    sim = _sim()
    sim.press("NEXT")
    for _ in range(1500 // 33):                      # held well past auto-repeat
        c.step()
        assert m.cur <= 1                            # its press moved once, no repeat
    sim.release("NEXT")
    c.step(3)
    assert app.level == 0 and m.cur == 1
    sim.press("NEXT")                                # awake, a hold repeats as ever
    moves = 0
    last = m.cur
    for _ in range(1500 // 33):
        c.step()
        if m.cur != last:
            moves += 1
            last = m.cur
    sim.release("NEXT")
    c.step(3)
    assert moves >= 3
    ui_rig._rmtree(root)


class _Stop(Exception):
    pass


def _virtual_time(appmod, clock):
    """Replace the app module's clock and sleeps with a virtual one (run() tests)."""
    saved = (appmod.ticks_ms, appmod.sleep_ms)

    def ticks_ms():
        return clock[0]

    def sleep_ms(ms):
        clock[0] += ms
    appmod.ticks_ms = ticks_ms
    appmod.sleep_ms = sleep_ms
    return saved


def test_deep_sleep_saves_and_wakes_into_continue():
    import app as appmod
    root = ui_rig.tmpdir("deep")
    r, p = _game_rig("deep", 41)
    ui_rig._rmtree(root)
    root = r.root
    app = r.app
    game = app.screen.game.to_bytes() if app.screen.NAME != "pass" else \
        app.screen.back.game.to_bytes()
    sim = _sim()
    clock = [r.t]
    saved = _virtual_time(appmod, clock)

    def nap(ms):
        clock[0] += ms

    def deep(ms):
        raise _Stop()
    sim.on_lightsleep = nap
    sim.on_deepsleep = deep
    try:
        app.run()
        raise AssertionError("run() returned")
    except _Stop:
        pass
    finally:
        appmod.ticks_ms, appmod.sleep_ms = saved
        sim.on_lightsleep = None
        sim.on_deepsleep = None
    idle = clock[0] - app.power.last
    assert 600000 <= idle < 600100, idle               # 10 minutes idle
    assert [s for s in sim.sleeps if s[0] == "light"]   # napped while dark
    assert sim.sleeps[-1][0] == "deep" and not sim.oled.on
    assert sim.wdt is not None and sim.wdt.feeds > 1000
    got = store.Store(root).load_game()
    assert got is not None and got[1] == game
    # A button wakes the board: it boots with reset_cause DEEPSLEEP_RESET.
    import machine
    sim.reset_cause = machine.DEEPSLEEP_RESET
    try:
        assert guard.boot(root) is True
    finally:
        sim.reset_cause = machine.PWRON_RESET
    app2 = _app(_board(), root, seed=9)
    app2.resume()
    s = app2.screen
    if s.NAME == "pass":
        s = s.back
    assert s.game.to_bytes() == game
    ui_rig._rmtree(root)


def test_crash_logs_and_restarts_into_continue():
    r, p = _game_rig("crash", 51)
    root = r.root
    app = r.app
    s = app.screen if app.screen.NAME != "pass" else app.screen.back
    game = s.game.to_bytes()
    sim = _sim()
    guard.boot(root)

    def broken(q):
        raise KeyError("bug in a screen")
    app.screen.update = broken
    resets = []
    sim.on_reset = lambda: resets.append(1)
    try:
        try:
            for _ in range(50):
                sim.press("OK")
                r.step(2)
                sim.release("OK")
                r.step(2)
            raise AssertionError("no crash")
        except KeyError as e:
            code = guard_fail.crashed(e, root, app.display, wait_ms=0)
    finally:
        sim.on_reset = None
    assert resets == [1]
    text = sim.oled.text()
    assert sim.oled.on and text.count("#") > 100        # the restarting screen is lit
    assert bytes(sim.oled.frame()) == bytes(app.display.buf)
    f = open(root + "/crash.log")
    log = f.read()
    f.close()
    assert log.startswith(code) and "bug in a screen" in log
    assert guard.boot(root) is True                     # -> Continue
    app2 = _app(_board(), root, seed=5)
    app2.resume()
    s2 = app2.screen if app2.screen.NAME != "pass" else app2.screen.back
    assert s2.game.to_bytes() == game
    names = os.listdir(root)
    assert "restart.dat" not in names and "crash.log" in names
    ui_rig._rmtree(root)


def test_battery_pin_in_the_profile_gives_level_and_low_warning():
    from system import power_battery
    root = ui_rig.tmpdir("batt")
    board = _board(BATTERY={"pin": 35, "divider_x100": 200})
    app = _app(board, root, lambda sim: sim.adc_uv.__setitem__(35, 1950000))
    assert app.dev.battery is not None
    b = power_battery.Battery(app.dev.battery, period_ms=10000)
    assert b.mv == 3900 and b.pct == 62 and not b.low
    c = _Clock(app)
    c.wait(1500)
    assert app.screen.NAME == "menu" and app.screen.batt  # the level in the menu
    _sim().adc_uv[35] = 1770000    # 3.54 V: nearly flat
    went = 0
    for _ in range(60):
        c.wait(1000)
        went += b.update(c.t)
    assert b.low and went == 1
    # The app's own watch warns once, in any screen.
    assert app.battery is not None and app.battery.low
    ui_rig._rmtree(root)


def test_app_warns_once_when_the_battery_runs_low():
    root = ui_rig.tmpdir("battlow")
    board = _board(BATTERY={"pin": 35, "divider_x100": 200})
    app, c = _menu_after_boot(root, board, lambda sim: sim.adc_uv.__setitem__(35, 1950000))
    assert app.notice is None
    _sim().adc_uv[35] = 1770000
    seen = 0
    for _ in range(120):
        c.wait(1000)
        if app.notice == "BATTERY LOW":
            seen += 1
    assert 1 <= seen <= 3                  # one notice (~2.5 s), not a nag
    assert app.battery.low
    ui_rig._rmtree(root)


def test_damaged_save_at_boot_gives_message_and_clean_menu():
    for data in (b"", b"PDG\x01\x05\x00abc", b"\xff" * 5000):
        root = ui_rig.tmpdir("badsave")
        f = open(root + "/game.sav", "wb")
        f.write(data)
        f.close()
        app, c = _menu_after_boot(root)
        m = app.screen
        assert m.NAME == "menu" and "CONTINUE" not in m.items
        assert app.notice == "Saved game was damaged"
        assert sorted(os.listdir(root)) == ["game.sav.bad"]
        c.wait(3000)
        assert app.notice is None           # the notice goes, the menu stays
        ui_rig._rmtree(root)


def test_save_the_core_cannot_restore_goes_to_bad_and_menu():
    root = ui_rig.tmpdir("badblob")
    store.Store(root).save_game(1, b"\x09not a game", b"\x01")
    app, c = _menu_after_boot(root)
    m = app.screen
    assert m.items[0] == "CONTINUE"         # its checksum is fine...
    m.cur = 0
    c.tap("OK")
    assert app.screen.NAME == "menu"        # ...but the core refuses it
    assert "CONTINUE" not in app.screen.items
    assert app.notice == "Saved game was damaged"
    assert "game.sav.bad" in os.listdir(root)
    ui_rig._rmtree(root)
