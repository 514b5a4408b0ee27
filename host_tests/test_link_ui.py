"""LINK GAME through the App on one handheld (ui_rig, the stand-in radio in this
process): HOST opens a lobby with its code and the radio on, BACK turns it off; ADD
CPU and START play a live round against the host's CPU; a damaged link save or a radio
that does not start is said once, in plain words, and traps nobody."""
import os
import sys

import espnow
import ui_rig
from ui_rig import BACK, NEXT, OK


def _rig(name):
    espnow.configure(id=0, base=24000 + os.getpid() % 20000)
    r = ui_rig.Rig(name)
    r.wait(1500)
    assert ui_rig.to_item(r, "LINK GAME")
    r.press(OK)
    assert r.app.screen.NAME == "link"
    return r


def _take(r, live):
    """The host's player in L_TAKE: picks the first die that scores alone (unless some
    are picked), then TAKE."""
    lv = live.h.live
    n = lv.nrolled[0]
    for i in range(n):
        if lv.points(0, 1 << i) and not live.sel:
            while live.cur != i:
                r.press(NEXT)
            r.press(OK)
            break
    while live.cur != n + (1 if lv.usable(0) else 0):
        r.press(NEXT)
    r.press(OK)


def test_host_a_game_against_a_cpu_and_leave():
    r = _rig("link_host")
    assert r.app.screen.items == ["HOST", "JOIN"]
    r.press(OK)
    scr = r.app.screen
    assert scr.NAME == "link_lobby" and scr.title.startswith("HOST ") and len(scr.title) == 9
    assert r.app.link_radio is not None and "ui.menu" not in sys.modules
    r.press(OK)  # START with nobody: refused, said
    assert r.app.screen is scr and r.app.notice == "WAIT FOR A PLAYER"
    r.press(NEXT)
    r.press(OK)  # ADD CPU
    r.press(NEXT)
    # START: the live round's code loads once the lobby's screen and code are gone (the
    # link game's fullest heap otherwise: docs/link.md, "The radio's heap").
    seen = []

    class Watch:
        def find_spec(self, name, path=None, target=None):
            if name == "ui.link_screen":
                seen.append(("ui.link_lobby" in sys.modules, r.app.screen.NAME))
            return None

    sys.modules.pop("ui.link_screen", None)
    sys.meta_path.insert(0, Watch())
    try:
        r.press(OK)
    finally:
        del sys.meta_path[0]
    assert seen == [(False, "screen")]
    live = r.app.screen
    assert live.NAME == "link_live" and live.h.live.g.players == 2
    for _ in range(40):  # roll, take, stop as a player would, until the CPU is done too
        lv = live.h.live
        if lv.g.round > 1:
            break
        if live.rolling:
            r.press(OK)
            r.wait(600)
        elif lv.ph[0] == 2:  # L_TAKE
            _take(r, live)
        elif lv.ph[0] == 3:  # L_DECIDE: STOP
            r.press(NEXT)
            r.press(OK)
        else:
            r.wait(600)
    assert live.h.live.g.round == 2 and r.app.store.load_link()[:1] == b"H"
    r.press(BACK)
    assert r.app.screen.NAME == "menu" and r.app.link_radio is None
    # The menu offers the saved link game in LINK GAME, and as its own CONTINUE (no
    # game of this device is saved), which takes the host back into the round.
    menu = r.app.screen
    assert menu.items[0] == "CONTINUE" and menu.link
    assert menu.cont == ("LINK GAME, HOST", "THE OTHERS JOIN AGAIN")
    assert ui_rig.to_item(r, "LINK GAME")
    r.press(OK)
    assert r.app.screen.items[0] == "CONTINUE"
    r.press(BACK)
    assert ui_rig.to_item(r, "CONTINUE")
    r.press(OK)
    live = r.app.screen
    assert live.NAME == "link_live" and live.h is not None and live.h.live.g.round == 2
    assert r.app.link_radio is not None
    r.press(BACK)
    assert r.app.screen.NAME == "menu" and r.app.link_radio is None


def test_a_guest_powered_on_again_continues_from_the_menu():
    """A guest's seat saved here: the menu's CONTINUE says so and goes straight to
    finding its host (LINK GAME's CONTINUE); a game of this device keeps CONTINUE for
    itself (the link game stays in LINK GAME)."""
    from core import games
    r = _rig("link_guest_cont")
    r.press(BACK)
    mac = b"\x02\x00\x00\x00\x00\x07"
    r.app.store.save_link(b"G" + bytes((1,)) + mac + bytes((0x12, 0x34, 2)))
    r.app.menu()
    r.step(2)
    menu = r.app.screen
    assert menu.items[0] == "CONTINUE" and menu.cont == ("LINK GAME, GUEST",
                                                         "BACK TO YOUR SEAT")
    menu.cur = 0
    r.press(OK)
    scan = r.app.screen
    assert scan.NAME == "link_scan" and scan.g.rejoin == (mac, 0x1234)
    r.press(BACK)
    assert r.app.screen.NAME == "menu"
    ui_rig.setup_game(r, "FARKLE FRENZY", 2)  # a game of this device, then BACK
    r.wait(1500)
    r.press(BACK)
    r.app.menu()
    r.step(2)
    menu = r.app.screen
    assert r.app.store.has_game() and r.app.saved()[0] == games.FRENZY
    assert menu.items[0] == "CONTINUE" and not menu.link and menu.cont[0] != "LINK GAME, GUEST"
    assert r.app.store.load_link()[:1] == b"G"  # still there, in LINK GAME


def test_a_damaged_link_save_is_said_and_set_aside():
    r = _rig("link_bad")
    r.press(BACK)
    r.app.store.save_link(b"H\x01\x02garbage")
    assert ui_rig.to_item(r, "LINK GAME")
    r.press(OK)
    assert r.app.screen.items[0] == "CONTINUE"
    r.press(OK)
    assert r.app.notice == "LINK GAME WAS DAMAGED"
    assert r.app.store.load_link() is None and r.app.screen.items == ["HOST", "JOIN"]
    assert r.app.link_radio is None


def test_a_radio_that_does_not_start_is_said():
    r = _rig("link_noradio")
    real = espnow.ESPNow

    def broken():
        raise OSError(-1, "ESP_ERR_ESPNOW_INTERNAL")
    espnow.ESPNow = broken
    try:
        r.press(OK)  # HOST
    finally:
        espnow.ESPNow = real
    assert r.app.screen.NAME == "link" and r.app.notice == "THE RADIO DID NOT START"
    assert r.app.link_radio is None


def test_a_fill_elsewhere_stops_you_with_its_own_sound_and_says_who():
    from ui.sounds import PENALTY
    r = _rig("link_fill")
    r.press(OK)  # HOST
    r.press(NEXT)
    r.press(OK)  # ADD CPU (GREEN)
    r.press(NEXT)
    h = r.app.screen.h
    h.cpu_at = 10 ** 9  # the CPU waits: this test plays its seat
    r.press(OK)  # START
    live = r.app.screen
    heard = []
    play = r.app.play
    r.app.play = lambda snd=0x1A1C: heard.append(snd) or play(snd)
    r.press(OK)  # RED rolls (a short tumble), then sets nothing aside yet
    r.wait(700)
    lv = h.live
    assert lv.st[0] == 0 and lv.ph[0] == 2  # rolled, setting dice aside (seeded dice)
    lv.apply(1, 0x200, (1, 1, 1, 5, 5))  # GREEN rolls and fills the riser
    lv.apply(1, 0x400 | 0x1F)
    h._announce()
    h._changed()
    r.step(2)
    assert lv.st[0] == 1 and lv.by[0] == 2  # RED stopped by GREEN
    assert PENALTY in heard
    assert r.app.notice == "GREEN FILLED:" and r.app.notice2.startswith("YOU STOP WITH")
    assert live.msg.startswith("BANKED")


def test_the_live_rounds_tumble_frames_draw_the_dice_alone():
    """A tumble's frames after its first (DIRTY_DICE) draw only the tumbling dice over
    the last frame: every such frame, and every tumbling one, is the frame a full
    draw() makes (host_tests/test_tumble_draw.py's watch), through rounds against the
    host's CPU played by random presses and shakes."""
    from mash_rig import _mash
    espnow.configure(id=0, base=24000 + os.getpid() % 20000)
    r = ui_rig.Rig("link_tumble", seed=3, sim=False)  # (its events in r.dev.pending)
    r.wait(1500)
    assert ui_rig.to_item(r, "LINK GAME")
    r.press(OK)
    r.press(OK)  # HOST
    r.press(NEXT)
    r.press(OK)  # ADD CPU
    r.press(NEXT)
    r.press(OK)  # START
    live = r.app.screen
    assert live.NAME == "link_live"

    def steer(r, b):
        """TAKE the first die that scores alone (random presses seldom find it)."""
        if r.app.screen is not live or live.h.live.ph[0] != 2 or r.app.tumbling:  # L_TAKE
            return False
        _take(r, live)
        return True

    # In the frames drawn in part, no text is drawn (the dice alone).
    from ui import gfx
    from ui.screens import DIRTY_DICE
    texts = [0, 0]
    real_text = gfx.text
    cls = type(live)
    real_draw = cls.draw

    def counting(*a, **k):
        texts[0] += 1
        return real_text(*a, **k)

    def draw(self, fb):
        if self.dirty is not True and self.dirty == DIRTY_DICE:
            texts[1] += 1
            gfx.text = counting
            try:
                return real_draw(self, fb)
            finally:
                gfx.text = real_text
        return real_draw(self, fb)

    cls.draw = draw
    try:
        seen = _mash(r, 5, 800, steer)
    finally:
        cls.draw = real_draw
    assert seen[0] > 20 and texts[1] == seen[0], (seen, texts)  # each compared
    assert texts[0] == 0, texts
    assert live.h.live.g.round > 1
