# portable: runs under MicroPython too
"""Issue 17, items 10 and 11 on the whole app: hardware that still answers on the bus
but with the wrong thing (a frozen or garbage shake sensor, a panel that browned out
and lost its settings) on the simulated board."""
import accel_model as am
import ui_rig
from fault_rig import _game_rig, _ok_for_shake, _panel_matches, _play, _sim, _to_rolling
from shake_trace import _lcg_trace


def _never_rolls_by_itself(name, trace):
    r, p = _game_rig(name, 31)
    app = r.app
    sim = _sim()
    assert _to_rolling(r, p)             # the dice wait for a shake
    sim.play(trace)
    told = 0
    for _ in range(30000 // ui_rig.FRAME):  # 30 s with nobody touching it
        r.step()
        assert not app.tumbling, "the dice rolled by themselves"
        if app.notice == "NO SHAKE SENSOR:":
            told += 1
    assert told, "the player was not told"
    assert app.notice is None             # told once (a notice of ~2.5 s), not a nag
    _ok_for_shake(r, p)                   # OK rolls: play goes on
    before = p.decisions
    _play(p, 6)
    assert p.decisions > before
    ui_rig._rmtree(r.root)


def test_item11_frozen_sensor_in_play_says_so_once_and_ok_rolls():
    _never_rolls_by_itself("frozen", [(1500, 200, 900)] * 3000)


def test_item11_garbage_sensor_in_play_says_so_once_and_ok_rolls():
    _never_rolls_by_itself("garbage", _lcg_trace(60000, 3, -8000, 8000))


def test_item11_stuck_axis_in_play_says_so_once_and_ok_rolls():
    n = am._Noise(5, 10)
    _never_rolls_by_itself("stuck", [(3000 + n(), n(), 1000 + n()) for _ in range(3000)])


def test_item10_panel_browned_out_mid_game_is_lit_again():
    # The panel resets (power dip) but keeps answering: no I2C error ever comes.
    r, p = _game_rig("brownout", 41)
    sim = _sim()
    assert _panel_matches(r) and sim.oled.on
    for _ in range(3):
        sim.oled.reset()
        assert not sim.oled.on
        r.wait(2100)                        # the status is read every 2 s
        assert sim.oled.on and _panel_matches(r)
        before = p.decisions
        _play(p, 3)                         # and play goes on, drawn as it goes
        assert p.decisions > before and _panel_matches(r)
    assert r.app.power.revived == 3
    ui_rig._rmtree(r.root)
