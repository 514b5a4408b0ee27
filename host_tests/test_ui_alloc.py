# portable: runs under MicroPython too
"""No allocation per frame in steady state (MicroPython: gc.mem_alloc()).

The app runs on the stand-in devices (the simulated board's models are host code and
allocate), so what is measured is the app, the screens and the drawing. Under CPython
(no gc.mem_alloc) only the scenario runs."""
import ui_rig
from ui import shakeup_screen as ss

FRAMES = 60


def _rig():
    r = ui_rig.Rig("alloc", seed=4, sim=False)
    r.wait(1500)
    assert r.screen == "menu"
    return r


def test_idle_menu_allocates_nothing():
    r = _rig()
    r.step(3)
    used = ui_rig.alloc_over(r, FRAMES)
    assert used == 0, "idle menu: %d bytes in %d frames" % (used, FRAMES)


def test_menu_cursor_allocates_nothing():
    r = _rig()
    q = r.dev.queue

    def feed(i):
        if i % 3 == 0:
            q.put(0x11)  # PRESS NEXT: cursor moves, the menu redraws
    r.step(3)
    ui_rig.alloc_over(r, 12, feed)  # every item drawn once (first draws may intern text)
    used = ui_rig.alloc_over(r, FRAMES, feed)
    assert used == 0, "menu cursor: %d bytes in %d frames" % (used, FRAMES)


def _to_board(r):
    ui_rig.setup_game(r, "SHAKE UP", 2)  # 2 human players
    for _ in range(40):
        s = r.app.screen
        if s.NAME == "shakeup" and s.view == ss.BOARD:
            return s
        if s.NAME == "pass" or (s.NAME == "shakeup" and s.info):
            r.press(ui_rig.OK)
        else:
            r.press(ui_rig.OK)
            r.wait(600)
    raise AssertionError("never reached the turn start")


def test_tumbling_dice_allocate_nothing():
    r = _rig()
    s = _to_board(r)
    r.dev.queue.put(0x50)  # SHAKE_START: the dice tumble and rattle until SHAKE_END
    r.step(2)
    assert r.app.tumbling
    used = ui_rig.alloc_over(r, FRAMES)
    assert r.app.tumbling and s.view == ss.BOARD
    assert used == 0, "tumbling: %d bytes in %d frames" % (used, FRAMES)
    r.dev.queue.put(0x60)
    r.step(2)
    assert not r.app.tumbling and s.view == ss.DICE


def test_dice_cursor_allocates_nothing():
    r = _rig()
    s = _to_board(r)
    r.press(ui_rig.OK)
    r.wait(600)
    assert s.view == ss.DICE
    q = r.dev.queue

    def feed(i):
        if i % 2 == 0:
            q.put(0x11)  # NEXT over dice, SHAKE and STOP
    ui_rig.alloc_over(r, 12, feed)
    used = ui_rig.alloc_over(r, FRAMES, feed)
    assert used == 0, "dice cursor: %d bytes in %d frames" % (used, FRAMES)
