"""The terminal simulator (tools/simulator/sim.py) driven through a pseudo-terminal.

The test starts `tools/simulator/sim.py` on a pty with a fixed window size, sends keys, keeps a
small terminal emulator of what it printed, reads the OLED picture back out of the
half-block text and compares it with the frames the firmware produced (--trace).
"""
import fcntl
import os
import re
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest

import sim_render  # noqa: E402


def wait_exit(sim, timeout=10):
    end = time.monotonic() + timeout
    while sim.proc.poll() is None and time.monotonic() < end:
        sim.pump(0.05)
    return sim.proc.poll()


# ---- pure parts: rendering, keys, button timing -------------------------------------

import sim  # noqa: E402  (tools/simulator/sim.py)
from sim_rig import ROOT, SIM_ROOT, Screen, pack


def _pattern(w, h):
    """A frame with a diagonal, a border and a checker patch: every bit position used."""
    px = [[0] * w for _ in range(h)]
    for x in range(w):
        px[0][x] = px[h - 1][x] = 1
        px[(x * h) // w][x] = 1
    for y in range(h):
        px[y][0] = px[y][w - 1] = 1
    for y in range(10, 20):
        for x in range(30, 50):
            px[y][x] = (x + y) & 1
    return px


@pytest.mark.parametrize("mode", ["block2", "block1", "braille", "ascii2", "ascii1"])
@pytest.mark.parametrize("size", [(128, 64), (128, 32)])
def test_render_round_trip(mode, size):
    w, h = size
    px = _pattern(w, h)
    frame = pack(px, w, h)
    lines = sim_render.render(frame, w, h, mode)
    assert (max(len(ln) for ln in lines), len(lines)) == sim_render.text_size(mode, w, h)
    assert sim_render.unrender(lines, w, h, mode) == px


def test_ascii_modes_are_ascii_and_utf8_modes_use_blocks():
    frame = pack(_pattern(128, 64), 128, 64)
    for mode in sim_render.ASCII_MODES:
        assert all(ln.isascii() for ln in sim_render.render(frame, 128, 64, mode))
    text = "".join(sim_render.render(frame, 128, 64, "block1"))
    assert set(text) <= {" ", "\u2580", "\u2584", "\u2588"} and "\u2588" in text


def test_pick_mode_fits_the_terminal():
    assert sim_render.pick_mode(300, 80, 128, 64, True) == "block2"
    assert sim_render.pick_mode(140, 40, 128, 64, True) == "block1"
    assert sim_render.pick_mode(80, 24, 128, 64, True) == "braille"
    assert sim_render.pick_mode(80, 24, 128, 64, False) == "ascii0"
    assert sim_render.pick_mode(140, 40, 128, 64, False) == "ascii1"
    for cols, rows in ((300, 80), (140, 40), (80, 24)):
        m = sim_render.pick_mode(cols, rows, 128, 64, True)
        tc, tr = sim_render.text_size(m, 128, 64)
        assert tc + 2 <= cols and tr + 4 <= rows


def test_keys_parse_arrows_letters_and_a_lone_escape():
    kp = sim.KeyParser()
    assert kp.feed(b"\x1b[A\x1b[C\x1bOBad\r \x7fsmq", 0.0) == [
        "PREV", "NEXT", "NEXT", "PREV", "NEXT", "OK", "OK", "BACK", "SHAKE", "MUTE", "QUIT"]
    # An escape sequence split over two reads is one key.
    assert kp.feed(b"\x1b[", 1.0) == []
    assert kp.flush(1.01) == []
    assert kp.feed(b"D", 1.02) == ["PREV"]
    # A lone Esc becomes BACK once nothing follows it.
    assert kp.feed(b"\x1b", 2.0) == []
    assert kp.flush(2.01) == []
    assert kp.flush(2.0 + kp.ESC_WAIT) == ["BACK"]
    assert kp.deadline() is None


def test_controls_tap_hold_by_autorepeat_and_shake():
    sent = []
    c = sim.Controls(sent.append)
    c.key("OK", 0.0)
    assert sent == ["p OK"]
    c.tick(sim.TAP_S - 0.01)
    assert sent == ["p OK"]
    c.tick(sim.TAP_S)
    assert sent == ["p OK", "r OK"]
    # Auto-repeat (events 30 ms apart) holds the button until the repeats stop.
    del sent[:]
    t = 1.0
    c.key("NEXT", t)
    for _ in range(20):
        t += 0.03
        c.key("NEXT", t)
        c.tick(t)
    assert sent == ["p NEXT"]
    c.tick(t + sim.REPEAT_HOLD_S)
    assert sent == ["p NEXT", "r NEXT"]
    # Two quick taps are two presses, the second after a gap.
    del sent[:]
    c.key("PREV", 3.0)
    c.key("PREV", 3.1)
    for i in range(1, 60):
        c.tick(3.0 + i * 0.01)
    assert sent == ["p PREV", "r PREV", "p PREV", "r PREV"]
    # A tap of S shakes for SHAKE_TAP_S; repeats of S keep it shaking.
    del sent[:]
    c.key("SHAKE", 5.0)
    c.tick(5.0 + sim.SHAKE_TAP_S - 0.01)
    assert sent == ["s 1"] and c.shaking
    c.key("SHAKE", 5.65)
    c.tick(5.0 + sim.SHAKE_TAP_S + 0.05)
    assert sent == ["s 1"]
    c.tick(5.65 + sim.SHAKE_HOLD_S)
    assert sent == ["s 1", "s 0"] and not c.shaking


def test_back_is_a_long_ok_on_three_button_boards():
    sent = []
    c = sim.Controls(sent.append)
    c.set_buttons(["PREV", "NEXT", "OK"])
    c.key("BACK", 0.0)
    c.tick(sim.LONG_S - 0.01)
    assert sent == ["p OK"]
    c.tick(sim.LONG_S)
    assert sent == ["p OK", "r OK"]
    assert sim.LONG_S * 1000 > 600  # longer than the buttons driver's long press


# ---- the real firmware in the terminal simulator ------------------------------------

def _frame_of(sim_):
    fr = sim_.last_frame()
    return fr[2] if fr else None


def _two_humans(s):
    """On the setup (you against a CPU the first time): GREEN made human, then START."""
    for k in "ddd\r\rd\r":  # NEXT x3 (to GREEN), OK x2 (NORMAL, HARD, HUMAN), NEXT, OK
        s.send(k)


def test_menu_game_shake_and_quit_restore_the_terminal(sim_factory):
    s = sim_factory(extra=["--bell"])
    s.until(lambda: s.screen_name() == "menu" and s.shown_matches_model()
            and "screen menu" in s.status(), what="the menu on the terminal")
    assert s.screen.alt, "the simulator draws on the alternate screen"
    menu = _frame_of(s)
    s.send("\r")  # SHAKE UP (no saved game: first item)
    s.until(lambda: s.screen_name() == "setup" and s.shown_matches_model(), what="setup")
    _two_humans(s)  # 2 players
    s.until(lambda: s.screen_name() == "shakeup" and s.shown_matches_model(), what="game")
    s.pump(0.5)
    before = _frame_of(s)
    assert before != menu
    s.send("s", 0.15)
    s.until(lambda: "SHAKING" in s.status(), what="shaking in the status line")
    s.until(lambda: "\u266a" in s.status() and "Hz" in s.status(), what="the rattle's tone")
    s.until(lambda: "SHAKING" not in s.status(), what="the shake to end")
    assert s.screen.bells > 0, "--bell rings the terminal bell for the rattle"
    s.pump(1.0)
    s.until(lambda: s.shown_matches_model(), what="the rolled dice drawn")
    assert _frame_of(s) != before, "the shake changed the dice on the screen"
    s.send("q", 0)
    assert wait_exit(s) == 0
    assert termios.tcgetattr(s.slave) == s.attrs_before, "terminal modes restored"
    assert not s.screen.alt, "left the alternate screen"
    assert s.raw.endswith(b"\x1b[?1049l") or b"\x1b[?25h" in s.raw[-64:]


def test_sigterm_restores_the_terminal(sim_factory):
    s = sim_factory()
    s.until(lambda: s.screen_name() == "menu", what="menu")
    s.proc.terminate()
    assert wait_exit(s) == 128 + 15
    assert termios.tcgetattr(s.slave) == s.attrs_before
    assert not s.screen.alt


def test_continue_after_quit_shows_the_same_game(sim_factory, tmp_path):
    fs = str(tmp_path / "fs")
    s = sim_factory(fs=fs)
    s.until(lambda: s.screen_name() == "menu", what="menu")
    s.send("\r")
    s.until(lambda: s.screen_name() == "setup", what="setup")
    _two_humans(s)
    s.until(lambda: s.screen_name() == "shakeup", what="game")
    s.send("s", 0.15)
    s.pump(2.0)  # the shake lands, the decision is saved
    s.until(lambda: s.shown_matches_model(), what="settled")
    game = _frame_of(s)
    s.send("q", 0)
    assert wait_exit(s) == 0
    assert os.listdir(fs), "the game was saved into --fs"

    s2 = sim_factory(fs=fs)
    s2.until(lambda: s2.screen_name() == "menu" and s2.shown_matches_model(), what="menu")
    s2.send("\r")  # CONTINUE is the first item now
    s2.until(lambda: s2.screen_name() == "shakeup" and s2.shown_matches_model(),
             what="the continued game")
    s2.pump(0.5)
    assert _frame_of(s2) == game, "Continue shows exactly the screen we left"


def test_ascii_fallback_when_the_locale_is_not_utf8(sim_factory):
    s = sim_factory(env={"LANG": "C"}, cols=140, rows=40)
    s.until(lambda: s.screen_name() == "menu" and s.shown_matches_model("ascii1"),
            what="the menu in ASCII")
    assert all(ord(ch) < 128 for ln in s.screen.text() for ch in ln)
    s.send("q", 0)
    assert wait_exit(s) == 0


def test_small_terminal_uses_braille_at_full_resolution(sim_factory):
    s = sim_factory(cols=80, rows=24)
    s.until(lambda: s.screen_name() == "menu" and s.shown_matches_model("braille"),
            what="the menu in Braille")
    s.send("q", 0)
    assert wait_exit(s) == 0


def test_three_button_board_maps_back_to_a_long_ok(sim_factory):
    s = sim_factory(extra=["--board", "lolin32_oled"])
    s.until(lambda: s.screen_name() == "menu", what="menu")
    assert "long ok" in "\n".join(s.screen.text())
    s.send("\r")
    s.until(lambda: s.screen_name() == "setup", what="setup")
    s.send("\x7f", 1.5)  # Backspace: a long OK, which is BACK on this board
    s.until(lambda: s.screen_name() == "menu", what="back in the menu")
    s.send("q", 0)
    assert wait_exit(s) == 0


def test_cpython_runs_the_same_firmware(sim_factory):
    s = sim_factory(extra=["--cpython"])
    s.until(lambda: s.screen_name() == "menu" and s.shown_matches_model(), what="menu")
    s.send("q", 0)
    assert wait_exit(s) == 0


def test_heap_limit_is_the_firmwares_share(sim_factory):
    s = sim_factory(extra=["--heap", "256k"])
    s.until(lambda: s.screen_name() == "menu" and "KB free" in s.status(), what="menu")
    kb = int(re.search(r"heap (\d+) KB free", s.status()).group(1))
    assert 0 < kb < 256 - 50, "the firmware's modules and menu live in the 256 KB"
    s.send("q", 0)
    assert wait_exit(s) == 0


def test_too_small_a_heap_ends_with_the_memory_error_shown(sim_factory):
    s = sim_factory(extra=["--heap", "16k"])
    assert wait_exit(s, 20) == 1
    assert termios.tcgetattr(s.slave) == s.attrs_before
    text = [ln.strip() for ln in s.screen.text() if ln.strip()]
    assert "MemoryError" in "\n".join(text), "the traceback says where"
    assert text[-1].startswith("sim: the firmware ran out of memory at 16 KB: try a larger HEAP="), \
        "the last line says what happened and what to do: %r" % text[-1]


def test_a_crash_that_is_not_memory_is_not_called_one(sim_factory):
    s = sim_factory(extra=["--board", "no_such_board", "--source"])
    assert wait_exit(s, 20) == 1
    text = "\n".join(s.screen.text())
    assert "the firmware stopped" in text and "out of memory" not in text


# ---- which firmware runs: the compiled build by default, sources with --source ------

def test_default_runs_the_compiled_build_as_deployed(sim_factory):
    s = sim_factory(extra=["--board", "lolin32_oled"])
    s.until(lambda: s.screen_name() == "menu" and s.loaded(), what="menu")
    app = s.loaded()
    folder = os.path.dirname(app)
    assert app.endswith("/app.mpy") and os.path.samefile(
        os.path.dirname(folder), os.path.join(SIM_ROOT, "build", "sim-run")), app
    assert re.fullmatch(r"lolin32_oled@[0-9a-f]{12}", os.path.basename(folder)), folder
    first = r"firmware: build/sim-run/lolin32_oled@[0-9a-f]{12} \(\.mpy\)"
    s.until(lambda: re.fullmatch(first, s.headline()), what="the first line")
    built = os.listdir(folder)
    # The device layout: main.py/boot.py as source, the profile as board.mpy.
    assert {"main.py", "boot.py", "board.mpy", "app.mpy"} <= set(built), built
    assert "app.py" not in built
    s.send("q", 0)
    assert wait_exit(s) == 0


def test_source_runs_firmware_py(sim_factory):
    s = sim_factory(extra=["--source", "--heap", "1m"])
    s.until(lambda: s.screen_name() == "menu" and s.loaded(), what="menu")
    app = s.loaded()
    assert app.endswith("app.py") and os.path.samefile(
        os.path.dirname(app), os.path.join(SIM_ROOT, "firmware")), app
    s.until(lambda: s.headline() == "firmware: firmware/ (.py source) \u00b7 heap 1024 KB",
            what="the first line")
    s.send("q", 0)
    assert wait_exit(s) == 0


def test_the_build_is_redone_only_when_a_source_changed(tmp_path):
    import shutil
    import sim_build
    root = tmp_path / "tree"
    shutil.copytree(os.path.join(SIM_ROOT, "firmware"), root / "firmware",
                    ignore=shutil.ignore_patterns("__pycache__", "*.mpy"))
    shutil.copytree(os.path.join(SIM_ROOT, "boards"), root / "boards",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (root / "tools" / "flashing").mkdir(parents=True)
    shutil.copy(os.path.join(SIM_ROOT, "tools", "flashing", "build.py"), root / "tools" / "flashing" / "build.py")
    first, built, held = sim_build.ensure_build(str(root), "sim", hold=True)
    assert built and os.path.isfile(os.path.join(first, "app.mpy"))
    assert sim_build.ensure_build(str(root), "sim") == (first, False), "up to date"
    # A new module: a new build beside the first, which a run still holds.
    (root / "firmware" / "extra_mod.py").write_text("X = 1\n")
    second, built = sim_build.ensure_build(str(root), "sim")
    assert built and second != first
    assert os.path.isfile(os.path.join(second, "extra_mod.mpy"))
    assert os.path.isfile(os.path.join(first, "app.mpy")), "kept while held"
    assert os.path.realpath(root / "build" / "sim-run" / "sim") == second, "the newest"
    # Removing it again: the first build is the one (still there); the second, held by
    # no run, is cleared away.
    (root / "firmware" / "extra_mod.py").unlink()
    assert sim_build.ensure_build(str(root), "sim") == (first, False)
    assert not os.path.exists(second)
    # A changed board profile is rebuilt too, and the first build goes once let go.
    held.close()
    prof = root / "boards" / "sim.py"
    prof.write_text(prof.read_text() + "\n# changed\n")
    fourth, built = sim_build.ensure_build(str(root), "sim")
    assert built and fourth != first and not os.path.exists(first)
    (root / "firmware" / "broken.py").write_text("def f(:\n")
    with pytest.raises(sim_build.BuildFailed, match="broken.py"):
        sim_build.ensure_build(str(root), "sim")
    assert not [n for n in os.listdir(root / "build" / "sim-run") if n.startswith(".tmp")]


def test_panel_read_into_a_buffer_allocates_no_frame():
    sys.path.insert(0, os.path.join(ROOT, "tools", "sim"))
    import oled_model
    o = oled_model.Oled()
    o.on = o.pump = True
    o.seg_remap = o.com_rev = True
    for i in range(len(o.ram)):
        o.ram[i] = (i * 37) & 0xFF
    buf = bytearray(b"\xaa" * (128 * 64 // 8))
    assert o.frame(buf) is buf and bytes(buf) == o.frame() and any(buf)
    o.inverse = True
    assert o.frame(buf) is buf and bytes(buf) == o.frame()
    o.on = False
    assert o.frame(buf) is buf and not any(buf), "stale pixels cleared"


def test_a_panel_write_in_pieces_reads_as_the_same_bytes_joined():
    """The I2C stand-in's writevto hands the panel its pieces (no joined copy on the heap:
    under a fence it would come out of the firmware's share): the panel reads them as one
    transaction, a control byte's kind running across the pieces' ends."""
    sys.path.insert(0, os.path.join(ROOT, "tools", "sim"))
    import oled_model
    pieces = [b"\x80", b"\xaf\x00\x21", b"\x00\x7f", b"\x22\x00\x07"]  # Co: one command
    page = bytes((i * 29) & 0xFF for i in range(128))
    data = [b"\x40", page[:50], page[50:], page]  # data across three pieces
    joined, parts = oled_model.Oled(), oled_model.Oled()
    for o in (joined, parts):
        o.powered = True
        o.in_reset = False
    joined.write(b"".join(pieces))
    joined.write(b"".join(data))
    parts.write_parts(pieces)
    parts.write_parts(data)
    assert bytes(parts.ram) == bytes(joined.ram) and any(parts.ram)
    assert parts.commands == joined.commands and parts.on
    assert (parts.bytes_rx, parts.transactions) == (joined.bytes_rx, joined.transactions)
    assert parts.unknown == joined.unknown == []


def test_locale_detection():
    assert sim.is_utf8({"LANG": "en_US.UTF-8"})
    assert not sim.is_utf8({"LANG": "C", "LC_CTYPE": "C.UTF-8"})  # PEP 538 coercion
    assert not sim.is_utf8({"LC_ALL": "C", "LANG": "en_US.UTF-8"})
    assert sim.is_utf8({"LC_CTYPE": "de_DE.utf8", "LANG": "C"})


# ---- screenshots and the window -----------------------------------------------------

import screens  # noqa: E402  (tools/simulator/screens.py)


def _png_pixels(path, w, h, scale, offset):
    from PIL import Image
    img = Image.open(path).convert("RGB")
    px = [[0] * w for _ in range(h)]
    for y in range(h):
        for x in range(w):
            r, g, b = img.getpixel((offset[0] + x * scale + scale // 2,
                                    offset[1] + y * scale + scale // 2))
            px[y][x] = 1 if r + g + b > 384 else 0
    return px


def test_screens_writes_the_frames_as_pngs_repeatably(tmp_path):
    out1, out2 = tmp_path / "a", tmp_path / "b"
    assert screens.main(["--out", str(out1), "--only", "menu"]) == 0
    assert screens.main(["--out", str(out2), "--only", "menu"]) == 0
    png = out1 / "menu.png"
    assert png.read_bytes() == (out2 / "menu.png").read_bytes(), "same seed, same bytes"
    seed, prep, script = screens.SCENARIOS["menu"]
    (label, w, h, frame), = screens.run_scenario(script, seed, prep=prep)
    assert label == "menu" and any(frame)
    scale = 3
    border = 10 * scale  # rim + glass, as in screens.to_image
    assert pack(_png_pixels(str(png), w, h, scale, (border, border)), w, h) == frame


def test_deep_sleep_wakes_into_the_same_game():
    # Virtual clock: 10 idle minutes reach the deep-sleep level in a second or two.
    script = """
        until menu
        tap OK
        tap OK
        expect shakeup
        wait 200
        snap game
        wait 610000
        snap asleep
        tap OK              # wakes the chip; held at boot, so it does nothing else
        until shakeup 5000
        wait 300
        snap woke
    """
    (_, _, _, game), (_, _, _, asleep), (_, _, _, woke) = screens.run_scenario(script, 1)
    assert any(game) and not any(asleep), "the panel is dark in deep sleep"
    assert woke == game, "a button wakes it into the same screen, the press swallowed"


def test_screens_run_the_build_and_draw_what_the_sources_draw():
    seed, prep, script = screens.SCENARIOS["menu"]
    built = screens.run_scenario(script + "wait 1500\nsnap later\n", seed, prep=prep)
    source = screens.run_scenario(script + "wait 1500\nsnap later\n", seed, prep=prep,
                                  source=True)
    assert [lb for lb, _, _, _ in built] == ["menu", "later"]
    assert built == source


def test_screens_budget_is_the_firmwares_heap():
    script = "until menu\nsnap menu\n"
    with pytest.raises(RuntimeError, match="MemoryError"):
        screens.run_scenario(script, 1, budget=24 * 1024)
    (label, _, _, frame), = screens.run_scenario(script, 1, budget=1024 * 1024)
    assert label == "menu" and any(frame)


def test_screens_fails_loudly_when_a_script_goes_wrong():
    with pytest.raises(RuntimeError, match="not nosuchscreen"):
        screens.run_scenario("expect nosuchscreen\n", 1)


def test_window_draws_the_oled_and_takes_clicks(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame = pytest.importorskip("pygame")
    import sim_window
    trace = tmp_path / "trace.txt"
    args = sim.parse_args(["--fs", str(tmp_path / "fs"), "--trace", str(trace), "--window"])
    ev = []
    _, _, buttons = sim_window.layout(128, 64)

    pos = buttons["OK"].center
    down_at = []

    def on_menu(st):
        if st.screen == "menu":
            down_at.append(time.monotonic())
            return True
        return False
    ev.append((on_menu, pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=pos)))
    ev.append((lambda st: time.monotonic() - down_at[0] > 0.25,
               pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=pos)))
    ev.append((lambda st: st.screen == "setup", pygame.event.Event(pygame.QUIT)))
    shot = tmp_path / "window.png"
    assert sim_window.run(args, ev, str(shot)) == 0
    lines = trace.read_text().splitlines()
    screens_seen = [ln[2:] for ln in lines if ln.startswith("S ")]
    assert "menu" in screens_seen and screens_seen[-1] == "setup", screens_seen
    _, w, h, hx = [ln for ln in lines if ln.startswith("F ")][-1].split()
    w, h = int(w), int(h)
    r = sim_window.LAST_OLED_RECT
    assert pack(_png_pixels(str(shot), w, h, sim_window.SCALE, r.topleft), w, h) \
        == bytes.fromhex(hx)


def test_window_click_on_shake_shakes_like_a_tap_of_s():
    # Window mode: holds of 0.10 and 0.15 s did nothing (a click lasts about 0.1 s),
    # 0.20 s shook: the shake ended at the release, before the detector's ~1/4 s.
    # The window's SHAKE button calls these two (tools/simulator/sim_window.py).
    for hold in (0.1, 0.15):
        sent = []
        c = sim.Controls(sent.append)
        c.shake_down(10.0)
        c.shake_up(10.0 + hold)
        end = 10.0 + sim.SHAKE_TAP_S
        assert end - 10.0 > 0.25  # longer than the detector needs
        c.tick(end - 0.01)
        assert sent == ["s 1"] and c.shaking, (hold, sent)
        c.tick(end)
        assert sent == ["s 1", "s 0"] and not c.shaking, (hold, sent)
    # A hold longer than a tap ends at the release.
    sent = []
    c = sim.Controls(sent.append)
    c.shake_down(10.0)
    c.tick(11.0)
    assert sent == ["s 1"]
    c.shake_up(11.5)
    assert sent == ["s 1", "s 0"] and not c.shaking, sent


def test_resizing_the_terminal_redraws_at_the_new_size(sim_factory):
    s = sim_factory(cols=140, rows=40)
    s.until(lambda: s.screen_name() == "menu" and s.shown_matches_model("block1"),
            what="the menu in half blocks")
    fcntl.ioctl(s.slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    s.screen = Screen(80, 24)
    os.kill(s.proc.pid, signal.SIGWINCH)
    s.until(lambda: s.shown_matches_model("braille"), what="the menu redrawn in Braille")
    s.send("q", 0)
    assert wait_exit(s) == 0


def _messages(data):
    """The simrun stream's messages as (kind, rest), frames skipped."""
    out = []
    i = 0
    while i < len(data):
        nl = data.find(b"\n", i)
        if nl < 0:
            break
        kind, _, rest = data[i:nl].decode("utf-8", "replace").partition(" ")
        i = nl + 1
        if kind == "F":
            i += int(rest.split()[2])
        out.append((kind, rest))
    return out


def _simrun(script, fs, *more):
    """tools/sim/simrun.py on CPython playing `script` on a virtual clock."""
    res = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "sim", "simrun.py"),
                          "--root", ROOT, "--board", "sim", "--fs", str(fs), "--seed", "1",
                          "--script", str(script), "--out", "1"] + list(more), cwd=ROOT,
                         stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    return res


def test_power_saving_shows_dimmed_then_display_off(tmp_path):
    # In the simulator the 30 s dim was invisible and the screen-off looked like a
    # hang: the panel's state now reaches the front end (D lines), which renders the
    # dim level and says "display off: any key wakes".
    script = tmp_path / "s.txt"
    script.write_text("until menu\nwait 40000\nsnap dim\nwait 100000\nsnap off\n")
    fs = tmp_path / "fs"
    fs.mkdir()
    res = _simrun(script, fs)
    panel = [rest for kind, rest in _messages(res.stdout) if kind == "D"]
    lit = [p for p in panel if p.startswith("1 ")]
    assert int(lit[0].split()[1]) >= sim.DIM_BELOW, panel  # on at full contrast first
    assert any(int(p.split()[1]) < sim.DIM_BELOW for p in lit), panel
    assert panel[-1].startswith("0 "), panel
    state = sim.State()
    controls = sim.Controls(lambda s: None)
    ui = sim.TerminalUI(sim.parse_args(["--fs", str(fs)]), 0, 1)
    seen = []
    for p in panel:
        state.apply(("D", p), controls)
        seen.append(state.power_note())
        if state.dimmed():
            state.frame, state.w, state.h = bytes(1024), 128, 64
            lines, _ = ui.compose(state, controls, 80, 24)
            assert any("\x1b[90;40m" in b for _, b, _ in lines), "drawn grey when dimmed"
    assert "display dimmed: any key wakes" in seen
    assert seen[-1] == "display off: any key wakes"
    assert "display off: any key wakes" in ui.status(state, controls)


def test_80x24_terminal_shows_the_screens_texts_under_the_panel(tmp_path):
    # In an 80x24 terminal the panel becomes braille (or shaded ASCII) dots and its
    # 3x5 text cannot be read: the screen's texts go on a line under the panel.
    script = tmp_path / "s.txt"
    script.write_text("until menu\nwait 200\ntap NEXT\nwait 200\nsnap m\n")
    fs = tmp_path / "fs"
    fs.mkdir()
    res = _simrun(script, fs, "--prompt", "1")
    prompts = [rest for kind, rest in _messages(res.stdout) if kind == "P"]
    assert "> SHAKE UP" in prompts and prompts[-1] == "> FARKLE FRENZY", prompts
    state = sim.State()
    controls = sim.Controls(lambda s: None)
    state.apply(("P", prompts[-1]), controls)
    state.frame, state.w, state.h = bytes(1024), 128, 64
    for ascii_ in (False, True):
        ui = sim.TerminalUI(sim.parse_args(["--fs", str(fs)] + (["--ascii"] if ascii_ else [])), 0, 1)
        ui.utf8 = not ascii_
        lines, width = ui.compose(state, controls, 80, 24)
        assert len(lines) <= 24 and width <= 80, (len(lines), width)
        assert ("> FARKLE FRENZY", "", "") in lines
    # Without --prompt the stream has none (a measured heap holds no such strings).
    res = _simrun(script, fs)
    assert not [k for k, _ in _messages(res.stdout) if k == "P"]
