"""The golden frames (host_tests/golden/): a frame compared with its file, which is
written when missing or with UPDATE_GOLDEN=1."""
import os
import ui_rig


GOLDEN = "host_tests/golden/"


def _update():
    try:
        return os.getenv("UPDATE_GOLDEN") == "1"
    except AttributeError:
        return False


def compare(name, frame):
    path = GOLDEN + name + ".bin"
    want = None
    try:
        with open(path, "rb") as f:
            want = f.read()
    except OSError:
        pass
    if want is None or _update():
        with open(path, "wb") as f:
            f.write(frame)
        return
    if want != frame:
        raise AssertionError("frame %s differs from %s:\n%s" % (
            name, path, ui_rig.diff_art(want, frame)))
