"""tools/flashing/build.py (mpy-cross build), tools/flashing/gen_package.py (package.json, freeze
manifests) and the deploy planner, checked against the firmware tree as it is."""
import json
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

import build  # noqa: E402
import deploy  # noqa: E402
import gen_package  # noqa: E402

from conftest import micropython_bin  # noqa: E402


def firmware_files():
    out = []
    for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, "firmware")):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for fn in filenames:
            if not fn.endswith((".pyc", ".mpy")):
                out.append(os.path.relpath(os.path.join(dirpath, fn), os.path.join(ROOT, "firmware")))
    return sorted(p.replace(os.sep, "/") for p in out
                  if not p.replace(os.sep, "/").startswith(build.HOST_ONLY))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = tmp_path_factory.mktemp("build")
    return str(out), build.build("esp32_devkit", str(out))


def test_every_module_compiled_except_main_and_boot(built):
    out, listing = built
    names = {dev for dev, _s, _h in listing}
    for rel in firmware_files():
        if rel in ("main.py", "boot.py") or not rel.endswith(".py"):
            assert rel in names, rel
        else:
            assert rel[:-3] + ".mpy" in names, rel
            assert rel not in names, "%s shipped as source" % rel
    assert "board.mpy" in names
    # Nothing else: the device gets exactly the firmware plus the board choice.
    assert len(names) == len(firmware_files()) + 1
    on_disk = []
    for dirpath, _d, filenames in os.walk(os.path.join(out, "esp32_devkit")):
        for fn in filenames:
            on_disk.append(os.path.relpath(os.path.join(dirpath, fn), os.path.join(out, "esp32_devkit")))
    assert sorted(on_disk) == sorted(names)


def test_mpy_headers_are_v6_bytecode_for_a_32_bit_chip(built):
    out, listing = built
    for dev, size, _h in listing:
        if not dev.endswith(".mpy"):
            continue
        with open(os.path.join(out, "esp32_devkit", dev), "rb") as f:
            head = f.read(4)
        assert head[0:1] == b"M" and head[1] == 6, dev
        assert head[2] == 0, "%s has native code" % dev
        assert head[3] <= 31, dev
        assert size == os.path.getsize(os.path.join(out, "esp32_devkit", dev))


def test_board_profile_is_installed_as_board(built, tmp_path):
    out, _ = built
    script = tmp_path / "t.py"
    script.write_text("import sys\nsys.path[:] = [%r]\nimport board\nprint(board.NAME, board.__file__)\n"
                      % os.path.join(out, "esp32_devkit"))
    res = subprocess.run([micropython_bin(), str(script)], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    ns = {}
    with open(os.path.join(ROOT, "boards", "esp32_devkit.py")) as f:
        exec(f.read(), ns)
    assert res.stdout.split()[0] == ns["NAME"].split()[0]
    assert res.stdout.strip().endswith("board.mpy")


def test_unix_port_imports_the_built_firmware(built, tmp_path):
    """The .mpy files load on MicroPython (same bytecode as the ESP32 gets)."""
    out, listing = built
    mods = [dev[:-4].replace("/", ".") for dev, _s, _h in listing
            if dev.endswith(".mpy") and dev.startswith("core/")]
    script = tmp_path / "t.py"
    script.write_text("import sys\nsys.path[:] = [%r]\n" % os.path.join(out, "esp32_devkit")
                      + "".join("import %s\n" % m for m in mods)
                      + "from core.dice import Dice\nprint(sys.modules['core.dice'].__file__)\n")
    res = subprocess.run([micropython_bin(), str(script)], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip().endswith("esp32_devkit/core/dice.mpy")


def test_rebuild_is_byte_identical_and_drops_stale_outputs(built, tmp_path):
    out, listing = built
    stale = os.path.join(out, "esp32_devkit", "old_module.mpy")
    with open(stale, "wb") as f:
        f.write(b"M\x06")
    again = build.build("esp32_devkit", out)
    assert again == listing
    assert not os.path.exists(stale)
    # Another folder gives the same bytes: nothing depends on where the clone lives.
    other = build.build("esp32_devkit", str(tmp_path))
    assert other == listing


def test_unknown_board_fails_clearly(tmp_path):
    res = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "flashing", "build.py"), "--board", "nope",
                          "--out", str(tmp_path)], capture_output=True, text=True)
    assert res.returncode == 2
    assert "unknown board 'nope'" in res.stderr and "esp32_devkit" in res.stderr
    assert not os.listdir(str(tmp_path))


def test_compile_error_fails_clearly(tmp_path):
    fw = tmp_path / "fw"
    fw.mkdir()
    (fw / "good.py").write_text("X = 1\n")
    (fw / "bad.py").write_text("def f(:\n")
    with pytest.raises(build.BuildError) as e:
        build.build("esp32_devkit", str(tmp_path / "out"), firmware=str(fw))
    assert "bad.py" in str(e.value)


def test_package_json_lists_every_firmware_file():
    with open(os.path.join(ROOT, "package.json")) as f:
        pkg = json.load(f)
    assert pkg["deps"] == []
    targets = sorted(t for t, _u in pkg["urls"])
    assert targets == firmware_files(), "package.json is stale: run python tools/flashing/gen_package.py"
    for target, url in pkg["urls"]:
        assert url == "firmware/" + target and os.path.isfile(os.path.join(ROOT, url))


def test_generated_files_are_current():
    assert gen_package.stale() == [], "run python tools/flashing/gen_package.py"
    for b in build.boards():
        man = os.path.join(ROOT, "boards", "freeze", b, "manifest.py")
        with open(man) as f:
            text = f.read()
        assert 'module("%s.py", base_path="../.."' % b in text
        # The firmware comes through the shared manifest the board's one includes
        # (include() paths are relative to the including manifest).
        assert 'include("../%s")' % gen_package.COMMON in text
        with open(os.path.join(os.path.dirname(man), "..", gen_package.COMMON)) as f:
            text += f.read()
        for top in ("core", "hal", "ui"):
            assert 'package("%s"' % top in text


def test_freeze_manifests_name_the_port_board_of_the_profiles_chip():
    # An ESP32-S3 builds with BOARD=ESP32_GENERIC_S3 (ports/esp32/boards/ESP32_GENERIC_S3/
    # mpconfigboard.cmake v1.28.0:1 sets IDF_TARGET esp32s3); a plain ESP32 (and the
    # simulator's profile, built as one) with ESP32_GENERIC.
    want = {"esp32": "ESP32_GENERIC", "esp32s3": "ESP32_GENERIC_S3", "host": "ESP32_GENERIC"}
    chips = set()
    for b in build.boards():
        chip = build.profile(b)["CHIP"]
        chips.add(chip)
        with open(os.path.join(ROOT, "boards", "freeze", b, "manifest.py")) as f:
            boards = re.findall(r"\bBOARD=(\S+)", f.read())
        assert boards == [want[chip]], (b, boards)
    assert {"esp32", "esp32s3"} <= chips
    assert gen_package.port_board("heltec_wifi_kit_32_v3") == "ESP32_GENERIC_S3"


def test_deploy_plan_copies_changes_and_removes_stale_code():
    listing = [("main.py", 10, "a" * 64), ("app.mpy", 20, "b" * 64), ("ui/gfx.mpy", 30, "c" * 64)]
    device = {"/main.py": "a" * 64, "/app.mpy": "0" * 64, "/ui/gfx.py": "d" * 64,
              "/ui/old.mpy": "e" * 64, "/game.sav": "f" * 64, "/boot.py": "9" * 64,
              "/notes.txt": "1" * 64, "/lib/x.py": "2" * 64}
    mkdirs, copies, removals, manifest = deploy.plan(
        listing, device, {"/", "/ui"}, ["/main.py", "/app.mpy", "/notes.txt"])
    assert mkdirs == []
    assert copies == ["/app.mpy", "/ui/gfx.mpy"]
    # The .py beside a built .mpy, a module the build lost, a file of the last deploy
    # that is gone; never data, boot.py or another folder's code.
    assert removals == ["/notes.txt", "/ui/gfx.py", "/ui/old.mpy"]
    assert manifest.splitlines()[0] == "/app.mpy " + "b" * 64
    # Nothing to do the second time.
    now = dict(device, **{"/app.mpy": "b" * 64, "/ui/gfx.mpy": "c" * 64})
    for p in removals:
        del now[p]
    assert deploy.plan(listing, now, {"/", "/ui"}, [line.split()[0] for line in manifest.splitlines()])[:3] \
        == ([], [], [])


def test_deploy_plan_makes_missing_folders_parents_first():
    listing = [("a/b/c.mpy", 1, "a" * 64), ("a/d.mpy", 1, "b" * 64)]
    mkdirs, copies, _r, _m = deploy.plan(listing, {}, {"/"}, [])
    assert mkdirs == ["/a", "/a/b"]
    assert copies == ["/a/b/c.mpy", "/a/d.mpy"]


# ---- the shared codes: tools/flashing/inline_consts.py -----------------------------------------

import ast  # noqa: E402

import inline_consts  # noqa: E402


def _tree(tmp_path, files):
    fw = tmp_path / "fw"
    for rel, text in files.items():
        p = fw / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return fw


_CONST = "from micropython import const\n"


def test_an_imported_const_is_folded_and_the_owners_go_private(tmp_path):
    fw = _tree(tmp_path, {
        "codes.py": _CONST + "A = const(3)\nB = const(A << 8 | 1)\n_P = const(9)\n"
                    "def f():\n    return A + B\n",
        "user.py": "from codes import B, f\nfrom codes import A as AA\n"
                   "def g():\n    from codes import A\n    return A + AA + B + f()\n",
    })
    items = [(rel, str(fw / rel)) for rel in ("codes.py", "user.py")]
    out = inline_consts.rewrite_tree(items)
    user = out["user.py"].decode()
    first = user.splitlines()[0]
    assert "_A = const(3)" in first and "_AA = const(3)" in first and "_B = const(769)" in first
    tree = ast.parse(user)
    imports = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    assert [(n.module, [a.name for a in n.names]) for n in imports] == [("codes", ["f"])]
    assert "return _A + _AA + _B + f()" in user
    codes = out["codes.py"].decode()
    assert "_A = const(3)" in codes and "_B = const(_A << 8 | 1)" in codes
    assert "return _A + _B" in codes
    # Both run as they did: the values are the owner's.
    ns = {}
    exec(compile("def const(x):\n    return x\n" + codes.replace(_CONST, ""), "codes", "exec"), ns)
    assert ns["f"]() == 3 + 769


def test_attribute_use_of_a_const_fails_the_build(tmp_path):
    fw = _tree(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/codes.py": _CONST + "SELECT = const(0x1A1C)\n",
        "user.py": "from pkg import codes\n\ndef play(app):\n    app.play(codes.SELECT)\n",
    })
    with pytest.raises(build.BuildError) as e:
        build.build("esp32_devkit", str(tmp_path / "out"), firmware=str(fw))
    msg = str(e.value)
    assert "user.py:4: codes.SELECT reads a const of pkg.codes as an attribute" in msg
    assert "from pkg.codes import SELECT" in msg


def test_a_const_name_bound_elsewhere_fails_the_build(tmp_path):
    fw = _tree(tmp_path, {
        "codes.py": _CONST + "N = const(4)\n",
        "user.py": "from codes import N\n\ndef f(N=2):\n    return N\n",
    })
    with pytest.raises(build.BuildError) as e:
        build.build("esp32_devkit", str(tmp_path / "out"), firmware=str(fw))
    assert "user.py:3: the const N is also bound here" in str(e.value)


def test_no_const_import_reaches_mpy_cross_and_values_are_the_owners():
    """The firmware as built: no `from M import NAME` of a const survives in the source
    mpy-cross compiles, and each inlined value is the owner's (imported on CPython)."""
    import importlib
    items = [(rel, host) for rel, host in build.sources() if rel.endswith(".py")]
    values = inline_consts.values(items)
    out = inline_consts.rewrite_tree(items)
    folded = 0
    for rel, host in items:
        text = out[rel].decode() if rel in out else open(host).read()
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in values:
                for a in node.names:
                    assert a.name not in values[node.module] or a.name.startswith("_"), \
                        "%s still imports the const %s.%s" % (rel, node.module, a.name)
        with open(host) as f:
            src = ast.parse(f.read())
        for node in ast.walk(src):
            if isinstance(node, ast.ImportFrom) and node.module in values:
                owner = importlib.import_module(node.module)
                for a in node.names:
                    if a.name in values[node.module] and not a.name.startswith("_"):
                        want = getattr(owner, a.name)
                        line = "_%s = const(%d)" % (a.asname or a.name, want)
                        assert line in text.splitlines()[0], (rel, line)
                        folded += 1
    assert folded >= 50, folded  # the settings, sounds, kinds, phases the modules share
    # And the owners' public consts are private in what the device gets.
    store = out["system/store/__init__.py"].decode()
    assert "_S_SOUND = const(0)" in store and "\nS_SOUND" not in store
