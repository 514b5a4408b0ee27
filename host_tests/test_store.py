# portable: runs under MicroPython too
"""store.py: round trips, atomic writes, and save fuzzing (never an exception)."""
from core import games
import os

from system import store
from checks import tmpdir
from system.store import Store
from cut_rig import _Cut, _CutFile, _CutOs, _Plan


def _fresh():
    """An empty folder of its own for each test."""
    return tmpdir("store")


def _files(root):
    return sorted(os.listdir(root))


def _write(root, name, data):
    f = open(root + "/" + name, "wb")
    f.write(data)
    f.close()


def _read(root, name):
    f = open(root + "/" + name, "rb")
    d = f.read()
    f.close()
    return d


def _wipe(root):
    for n in os.listdir(root):
        os.remove(root + "/" + n)


def _rmtree(root):
    _wipe(root)
    os.rmdir(root)


def _real_blob():
    """A real mid-game Shake Up state (falls back to fixed bytes without the core)."""
    try:
        from core.dice import Dice
        from core.seeded import Seeded
        from core.shakeup import Game
    except ImportError:
        return bytes(range(40))
    g = Game(3, dice=Dice(Seeded(7)))
    for _ in range(25):
        legal = g.legal()
        if not legal or g.winner >= 0:
            break
        g.apply(legal[len(legal) // 2])
    return g.to_bytes()


def test_crc32_fallback_matches():
    for data in (b"", b"a", b"hello", bytes(range(256))):
        assert store.crc32_soft(data) == store.crc32(data)
    assert store.crc32(b"123456789") == 0xCBF43926  # the CRC-32 check value


def test_defaults_when_missing_and_no_problem():
    root = _fresh()
    s = Store(root)
    assert s.load_settings() == bytearray(store.SETTINGS_DEFAULT)
    assert s.load_settings()[store.S_CONTRAST] == 207
    assert s.load_settings()[store.S_SENS] == 3
    assert s.load_stats() == bytearray(store.STATS_LEN)
    assert s.load_game() is None
    assert not s.has_game()
    assert s.problem is None
    assert _files(root) == []
    _rmtree(root)


def test_round_trips():
    root = _fresh()
    s = Store(root)
    st = s.load_settings()
    st[store.S_SOUND] = 0
    st[store.S_CONTRAST] = 90
    st[store.S_SLEEP] = 30
    assert s.save_settings(st)
    stats = s.load_stats()
    store.record_game(stats, games.SHAKEUP, 2)
    store.record_game(stats, games.FRENZY, 1, best_round=1750, total=10350)
    store.record_game(stats, games.FRENZY, 0, best_round=900, total=10050)
    assert s.save_stats(stats)
    blob = _real_blob()
    assert s.save_game(2, blob, b"\x03\x01")
    assert _files(root) == ["game.sav", "settings.dat", "stats.dat"]
    t = Store(root)
    assert t.load_settings() == st
    got = t.load_stats()
    assert store.stat(got, games.ST_SU_GAMES) == 1
    assert store.stat(got, games.ST_SU_WINS + 2) == 1
    assert store.stat(got, games.ST_FF_GAMES) == 2
    assert store.stat(got, games.ST_FF_WINS + 1) == 1
    assert store.stat(got, games.ST_FF_WINS + 0) == 1
    assert store.stat(got, games.ST_FF_BEST) == 1750
    assert store.stat(got, games.ST_FF_HIGH) == 10350
    assert t.has_game()
    assert t.load_game() == (2, blob, b"\x03\x01")
    assert t.problem is None
    t.clear_game()
    assert not t.has_game() and t.load_game() is None
    assert "game.sav" not in _files(root)
    _rmtree(root)


def test_finish_game_counts_saves_stats_and_clears():
    root = _fresh()
    s = Store(root)
    assert s.save_game(2, b"state", b"\x01")
    s.finish_game(games.FRENZY, 3, best_round=1200, total=10400)
    assert _files(root) == ["stats.dat"]
    assert not s.has_game()
    t = Store(root)
    got = t.load_stats()
    assert store.stat(got, games.ST_FF_GAMES) == 1
    assert store.stat(got, games.ST_FF_WINS + 3) == 1
    assert store.stat(got, games.ST_FF_BEST) == 1200
    assert store.stat(got, games.ST_FF_HIGH) == 10400
    assert store.stat(got, games.ST_SU_GAMES) == 0
    t.finish_game(games.SHAKEUP, 0)
    assert store.stat(Store(root).load_stats(), games.ST_SU_WINS) == 1
    assert t.problem is None and t.writes == 1
    _rmtree(root)


def test_game_from_core_survives_round_trip():
    try:
        from core.dice import Dice
        from core.seeded import Seeded
        from core.shakeup import Game
    except ImportError:
        return
    root = _fresh()
    blob = _real_blob()
    Store(root).save_game(1, blob)
    kind, b, ui = Store(root).load_game()
    assert kind == 1 and ui == b""
    assert Game.from_bytes(b, dice=Dice(Seeded(1))).to_bytes() == blob
    _rmtree(root)


def test_identical_saves_are_not_written_again():
    root = _fresh()
    s = Store(root)
    blob = _real_blob()
    for _ in range(50):  # e.g. a save called every frame
        s.save_game(1, blob)
    assert s.writes == 1
    s.save_game(1, blob + b"\x00")
    assert s.writes == 2
    st = s.load_settings()
    s.save_settings(st)
    s.save_settings(st)
    assert s.writes == 3
    _rmtree(root)


def test_no_tmp_left_after_saves():
    root = _fresh()
    s = Store(root)
    for i in range(5):
        s.save_game(1, bytes((i,)) * 30)
    assert _files(root) == ["game.sav"]
    _rmtree(root)


def _check_bad_game(root, data, what):
    _wipe(root)
    _write(root, "game.sav", data)
    s = Store(root)
    try:
        got = s.load_game()
    except Exception as e:  # the point of the test: this must never happen
        raise AssertionError("%s raised %r" % (what, e))
    assert got is None, what
    assert s.problem == store.MSG_GAME, what
    assert _files(root) == ["game.sav.bad"], what
    assert _read(root, "game.sav.bad") == data, what
    assert not s.has_game(), what


def test_truncated_save_at_every_length():
    root = _fresh()
    s = Store(root)
    s.save_game(1, _real_blob(), b"\x07")
    good = _read(root, "game.sav")
    for n in range(len(good)):
        _check_bad_game(root, good[:n], "truncated to %d" % n)
    print("damaged files: %d truncated saves, none loaded, all kept as .bad" % len(good))
    _rmtree(root)


def test_flipped_bits_at_every_position():
    root = _fresh()
    Store(root).save_game(1, _real_blob(), b"\x07")
    good = _read(root, "game.sav")
    for i in range(len(good)):
        for mask in (0x01, 0x10, 0x80, 0xFF):
            bad = bytearray(good)
            bad[i] ^= mask
            _check_bad_game(root, bytes(bad), "byte %d ^ %02x" % (i, mask))
    print("damaged files: %d saves with flipped bits, none loaded" % (len(good) * 4))
    _rmtree(root)


def test_empty_garbage_wrong_version_wrong_type_huge():
    root = _fresh()
    blob = _real_blob()
    good = store.pack(0x47, bytes((1, 0)) + blob)
    # Same checksum scheme, other version: must not be read as this version.
    v2 = bytearray(good[:-4])
    v2[3] = 2
    c = store.crc32(v2)
    v2 = bytes(v2) + bytes((c & 255, (c >> 8) & 255, (c >> 16) & 255, c >> 24))
    cases = (
        (b"", "empty"),
        (b"\x00" * 64, "zeros"),
        (b"\xff" * 300, "erased flash"),
        (v2, "wrong version"),
        (store.pack(0x53, bytes((1, 0)) + blob), "settings file as a game"),
        (store.pack(0x47, bytes((9, 0)) + blob), "unknown kind"),
        (store.pack(0x47, bytes((1, 200)) + blob), "ui length past the end"),
        (store.pack(0x47, b""), "empty payload"),
        (good + b"\x00", "trailing byte"),
        (good * 40, "huge: many copies"),
        (b"PDG\x01" + b"\xff" * 100000, "huge: 100 kB"),
    )
    for data, what in cases:
        _check_bad_game(root, data, what)
    _rmtree(root)


def test_bad_settings_fall_back_to_defaults():
    root = _fresh()
    s = Store(root)
    st = s.load_settings()
    st[store.S_CONTRAST] = 10
    s.save_settings(st)
    good = _read(root, "settings.dat")
    for n in (0, 3, len(good) - 1):
        _wipe(root)
        _write(root, "settings.dat", good[:n])
        t = Store(root)
        assert t.load_settings() == bytearray(store.SETTINGS_DEFAULT)
        assert t.problem == store.MSG_SETTINGS
        assert _files(root) == ["settings.dat.bad"]
    for i in range(len(good)):
        _wipe(root)
        bad = bytearray(good)
        bad[i] ^= 0x04
        _write(root, "settings.dat", bad)
        t = Store(root)
        assert t.load_settings() == bytearray(store.SETTINGS_DEFAULT)
        assert t.problem == store.MSG_SETTINGS
    _rmtree(root)


def test_out_of_range_setting_gets_its_default():
    root = _fresh()
    raw = bytearray(store.SETTINGS_DEFAULT)
    raw[store.S_SENS] = 9      # 1-5
    raw[store.S_SOUND] = 3     # 0-1
    raw[store.S_CONTRAST] = 40
    _write(root, "settings.dat", store.pack(0x53, bytes(raw)))
    got = Store(root).load_settings()
    assert got[store.S_SENS] == 3
    assert got[store.S_SOUND] == 1
    assert got[store.S_CONTRAST] == 40
    _rmtree(root)


def test_bad_stats_reset():
    root = _fresh()
    _write(root, "stats.dat", b"PDT\x01\x40\x00" + b"\x01" * 10)
    s = Store(root)
    assert s.load_stats() == bytearray(store.STATS_LEN)
    assert s.problem == store.MSG_STATS
    assert _files(root) == ["stats.dat.bad"]
    _rmtree(root)


def test_stale_tmp_removed_at_boot():
    root = _fresh()
    s = Store(root)
    blob = _real_blob()
    s.save_game(1, blob)
    old = _read(root, "game.sav")
    # A cut mid-write: half a file in game.sav.tmp beside the good one.
    _write(root, "game.sav.tmp", store.pack(0x47, b"\x01\x00" + blob[:-1] + b"\x09")[:20])
    _write(root, "settings.dat.tmp", b"")
    t = Store(root)
    assert _files(root) == ["game.sav"]
    assert _read(root, "game.sav") == old
    assert t.load_game() == (1, blob, b"")
    assert t.problem is None
    _rmtree(root)


def test_whole_tmp_beside_old_file_is_not_committed():
    # Cut after the .tmp was closed but before the rename: the rename is the
    # commit point, so the old save stays (the decision was not completed).
    root = _fresh()
    s = Store(root)
    s.save_game(1, b"old-state" * 3)
    _write(root, "game.sav.tmp", store.pack(0x47, b"\x01\x00" + b"new-state" * 3))
    assert Store(root).load_game() == (1, b"old-state" * 3, b"")
    assert _files(root) == ["game.sav"]
    _rmtree(root)


def test_whole_tmp_without_file_is_promoted():
    # A filesystem whose rename cannot replace: cut between remove and rename.
    root = _fresh()
    _write(root, "game.sav.tmp", store.pack(0x47, b"\x02\x01\x05" + b"state"))
    s = Store(root)
    assert _files(root) == ["game.sav"]
    assert s.load_game() == (2, b"state", b"\x05")
    _rmtree(root)


def test_write_failure_is_reported_not_raised():
    root = _fresh()
    s = Store(root)
    os.mkdir(root + "/game.sav.tmp")  # the temp file cannot be created (after the boot,
    # which would clear the folder: test_never_lose.py, item 5)
    assert s.save_game(1, b"abc") is False
    assert s.problem == store.MSG_WRITE
    assert s.writes == 0
    os.rmdir(root + "/game.sav.tmp")
    assert s.save_game(1, b"abc") is True
    _rmtree(root)


def test_reject_game_keeps_it_as_bad():
    root = _fresh()
    s = Store(root)
    s.save_game(1, b"\xee" * 10)
    assert s.load_game() is not None
    s.reject_game()
    assert s.problem == store.MSG_GAME
    assert not s.has_game()
    assert _files(root) == ["game.sav.bad"]
    _rmtree(root)


def test_bad_arguments_raise_value_error():
    root = _fresh()
    s = Store(root)
    for call in (lambda: s.save_game(3, b"x"), lambda: s.save_game(1, b"x", b"u" * 80),
                 lambda: s.save_game(1, b"x" * 2000), lambda: s.save_settings(b"\x00"),
                 lambda: s.save_stats(bytearray(3)),
                 lambda: store.record_game(bytearray(64), 5, 0)):
        try:
            call()
            raise AssertionError("no ValueError")
        except ValueError:
            pass
    assert _files(root) == []
    _rmtree(root)


def test_stat_saturates():
    ba = bytearray(store.STATS_LEN)
    store.stat_set(ba, 3, 0x7FFFFFFF + 5)
    assert store.stat(ba, 3) == 0x7FFFFFFF
    store.stat_set(ba, 4, -2)
    assert store.stat(ba, 4) == 0


def test_largest_screen_state_round_trips():
    root = _fresh()
    ui = bytes(range(64))  # the holder byte plus Frenzy's 44 and room to spare
    blob = _real_blob()
    assert Store(root).save_game(2, blob, ui)
    assert Store(root).load_game() == (2, blob, ui)
    _rmtree(root)


def _cut_save_at_every_step(fat):
    root = _fresh()
    old = b"old-state-" * 8
    new = b"NEW-STATE-" * 9
    Store(root).save_game(1, old, b"\x01")
    real_open = open
    real_os = store.os
    n = 1
    outcomes = {}
    while True:
        plan = _Plan(n)
        store.os = _CutOs(plan, fat)
        store.open = lambda p, m="r": _CutFile(real_open(p, m), plan) if "w" in m \
            else real_open(p, m)
        s = Store(root)  # (cleans up before the save: no cut points in there)
        cut = False
        try:
            s.save_game(1, new, b"\x02")
        except _Cut:
            cut = True
        finally:
            store.os = real_os
            del store.open
        # Power back: boot and Continue.
        t = Store(root)
        got = t.load_game()
        assert t.problem is None, (n, t.problem)
        assert got in ((1, old, b"\x01"), (1, new, b"\x02")), (n, got)
        assert _files(root) == ["game.sav"], (n, _files(root))
        outcomes[n] = got[1] == new
        if not cut:
            break
        # Put the old save back for the next cut point.
        _wipe(root)
        Store(root).save_game(1, old, b"\x01")
        n += 1
    _rmtree(root)
    print("power cuts: %d inside one save (rename %s), none lost" % (
        len(outcomes) - 1, "cannot replace" if fat else "atomic"))
    return outcomes


def test_cut_at_every_step_of_a_save():
    out = _cut_save_at_every_step(False)
    steps = sorted(out)
    # Before the rename the old save stands; from the rename on, the new one.
    assert [out[k] for k in steps] == [False] * (len(steps) - 2) + [True, True], out
    assert len(steps) >= 4


def test_cut_at_every_step_of_a_save_without_atomic_rename():
    out = _cut_save_at_every_step(True)
    # The cut between removing the old file and renaming the new one leaves only
    # game.sav.tmp: the next boot promotes it, so the new save wins there too.
    steps = sorted(out)
    assert out[steps[-1]] and out[steps[-2]] and out[steps[-3]], out
    assert not out[steps[0]]


def test_linked_games_count_once_each_and_old_stats_still_load():
    """A linked game over counts once on each handheld (its game id guards a second
    count: a screen made again for the same game), a win when its seat won; a stats
    file from before the linked games (116 bytes) loads with them at 0; impossible
    link counters are damage."""
    from core import games as gm
    from system.store.check import stats_ok
    root = _fresh()
    s = Store(root)
    assert s.count_link(0x1234, True)
    assert not s.count_link(0x1234, True)  # the same game: not again
    assert s.count_link(0x0042, False)
    st = Store(root).load_stats()
    assert (store.stat(st, gm.ST_LINK_GAMES), store.stat(st, gm.ST_LINK_WINS),
            store.stat(st, gm.ST_LINK_LAST)) == (2, 1, 0x43)
    old = bytearray(116)
    store.record_game(old, gm.FRENZY, 2, best_round=500, total=10050)
    _write(root, store.STATS, store.pack(0x54, old))
    st = Store(root).load_stats()
    assert len(st) == store.STATS_LEN and st[:116] == old and not any(st[116:])
    for i, v in ((gm.ST_LINK_WINS, 1), (gm.ST_LINK_LAST, 5), (gm.ST_LINK_LAST, 0x10001)):
        bad = bytearray(store.STATS_LEN)
        store.stat_set(bad, gm.ST_LINK_GAMES, 0 if v != 0x10001 else 1)
        store.stat_set(bad, i, v)
        assert not stats_ok(bad), (i, v)
