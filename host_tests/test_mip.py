"""mip that boots: `mpremote mip install --target / <url>/package-<board>.json` from an
HTTP server on 127.0.0.1 (mpremote fetches each URL as it would from GitHub) onto a
fresh emulated board; after a reset the firmware boots from the installed sources with
that board's profile as board.py."""
import functools
import http.server
import json
import os
import subprocess
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import emu_control  # noqa: E402
import emu_flash  # noqa: E402
import emuboard  # noqa: E402

MPREMOTE = os.path.join(os.path.dirname(sys.executable), "mpremote")
BOARD = "esp32_devkit"


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_one_mip_command_per_board_boots(tmp_path):
    handler = functools.partial(Quiet, directory=ROOT)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/package-%s.json" % (server.server_address[1], BOARD)
    flash = str(tmp_path / "flash.bin")
    ctl = str(tmp_path / "ctl")
    try:
        with emuboard.EmuBoard(image=flash, ctl_dir=ctl, log=str(tmp_path / "serial.log")) as b:
            res = subprocess.run([MPREMOTE, "connect", b.port, "mip", "install", "--target", "/", url],
                                 capture_output=True, text=True, timeout=240)
            assert res.returncode == 0, res.stdout + res.stderr
            assert "Installing: //board.py" in res.stdout and "Installing: //main.py" in res.stdout
            b.reset()
            c = emu_control.EmuControl(ctl)
            c.wait_ready(30)
            c.wait_for("app.screen.NAME", "'menu'", 30)
            mods = c.modules()
            assert mods["board"] == "board.py" and mods["app"] == "app.py", mods
            assert c.eval("board.NAME") == "'ESP32 DevKitC'"
    finally:
        server.shutdown()
        server.server_close()
    files = emu_flash.image_files(flash)
    with open(os.path.join(ROOT, "package-%s.json" % BOARD)) as f:
        want = {"/" + dev for dev, _src in json.load(f)["urls"]}
    assert want <= set(files) and not any(p.startswith("/lib/") for p in files)
    with open(os.path.join(ROOT, "boards", BOARD + ".py"), "rb") as f:
        assert files["/board.py"] == f.read()
