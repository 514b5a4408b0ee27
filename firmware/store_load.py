"""Loading settings and games, the boot-time clean-up and repairs for store.py.

Needed at boot and in the menu, never during play: store.py loads this module for a
call and drops it again (Store's load_settings, load_game and reject_game, the
setting aside of damaged files, and store.crc32_soft come from here). Files are
reached through store.os and store's own helpers, so a test that points store.py at
another filesystem points this module there too.
"""
import store
from store import (GAME, KIND_FRENZY, KIND_SHAKEUP, MSG_GAME, MSG_SETTINGS, SETTINGS,
                   SETTINGS_DEFAULT, SETTINGS_LEN, STATS, _read, _remove, _replace, unpack)

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

_UI_MAX = const(64)       # as store._UI_MAX
_T_GAME = const(0x47)     # "G"
_T_SET = const(0x53)      # "S"
_T_STATS = const(0x54)    # "T"
_SET_MIN = bytes((0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0))
_SET_MAX = bytes((1, 255, 1, 1, 1, 5, 1, 255, 255, 255, 255, 255))


def crc32_soft(data, crc=0):
    """Bitwise CRC-32 for builds without binascii.crc32 (identical results)."""
    crc ^= 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def _exists(path):
    try:
        store.os.stat(path)
        return True
    except OSError:
        return False


def clean(st):
    """At boot: settle the .tmp files a power cut may have left (see _clean_tmp)."""
    for name, ftype in ((GAME, _T_GAME), (SETTINGS, _T_SET), (STATS, _T_STATS)):
        _clean_tmp(st, name, ftype)


def _clean_tmp(st, name, ftype):
    """A .tmp is left only by a cut mid-save: drop it, or promote it when the
    real file is gone and the .tmp is whole (cut between remove and rename)."""
    tmp = st._path(name + ".tmp")
    try:
        if not _exists(tmp):
            return
        if not _exists(st._path(name)) and unpack(ftype, _read(tmp)) is not None:
            store.os.rename(tmp, st._path(name))
        else:
            _remove(tmp)
    except MemoryError:
        raise  # short of heap is no sign of a bad file: keep the .tmp
    except Exception:
        _remove(tmp)


def _bad(st, name, msg):
    """Keep a damaged file as name.bad for a bug report, and say so."""
    path = st._path(name)
    try:
        _replace(path, path + ".bad")
    except OSError:
        _remove(path)
    st._last.pop(name, None)
    st._say(msg)


def load_settings(st):
    """bytearray(SETTINGS_LEN): the saved settings, defaults where missing/bad."""
    ba = bytearray(SETTINGS_DEFAULT)
    p = st._load(SETTINGS, _T_SET, MSG_SETTINGS)
    if p is None:
        return ba
    if len(p) != SETTINGS_LEN:
        _bad(st, SETTINGS, MSG_SETTINGS)
        return ba
    for i in range(SETTINGS_LEN):
        v = p[i]
        if _SET_MIN[i] <= v <= _SET_MAX[i]:
            ba[i] = v
    return ba


def load_game(st):
    """(kind, blob, ui) of the saved game, or None (missing or damaged)."""
    p = st._load(GAME, _T_GAME, MSG_GAME)
    if p is None:
        st._has = False
        return None
    if len(p) < 2 or (p[0] != KIND_SHAKEUP and p[0] != KIND_FRENZY) \
            or p[1] > _UI_MAX or len(p) < 2 + p[1] + 1:
        reject_game(st)
        return None
    st._has = True
    n = 2 + p[1]
    return p[0], bytes(p[n:]), bytes(p[2:n])


def reject_game(st, msg=MSG_GAME):
    """The saved game passed its checksum but cannot be restored (e.g.
    Game.from_bytes raised): set it aside as game.sav.bad and say so."""
    st._has = False
    if _exists(st._path(GAME)):
        _bad(st, GAME, msg)
    else:
        st._say(msg)
