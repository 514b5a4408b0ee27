"""Persistence: the saved game, the settings and the stats, each in its own file.

Every file is `b"PD"`, a type letter, a schema version, the payload length (2 bytes,
little-endian), the payload and a CRC-32 (4 bytes, little-endian) over all before it.
Writes are atomic: the bytes go to `<name>.tmp`, the file is closed, then `os.rename`
replaces the old file (atomic on LittleFS and on POSIX). A power cut therefore leaves
either the old or the new file, plus maybe a stale `.tmp`, which the constructor
removes (or promotes when the real file is missing: a filesystem whose rename cannot
replace a file needs a remove first, and the cut may have fallen between the two).

A file that is truncated, damaged, of another version or too big is renamed to
`<name>.bad` (kept for a bug report), `problem` gets a short message for the UI, and
the load returns the defaults (settings, stats) or None (game). Loads never raise.
Writes whose content equals the file's last content are skipped, so calling a save
once per frame still costs no flash write; `writes` counts the real ones.

Only what a game needs stays loaded (saving, the stats a finished game updates, the
constants); the boot-time clean-up, loading settings and games, setting damaged
files aside and crc32_soft are in store_load.py, loaded for a call and dropped
again: Store's load_settings/load_game/reject_game and store.crc32_soft work as
before.
"""
import os

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

try:
    from binascii import crc32 as _crc32
except ImportError:  # a build without binascii.crc32: same CRC, slower
    _crc32 = None


def crc32(data, crc=0):
    """CRC-32 (IEEE, as zlib) of data, continuing from crc."""
    if _crc32 is not None:
        return _crc32(data, crc) & 0xFFFFFFFF
    return _rare("crc32_soft")(data, crc)


# Settings indices (see brief: app_api.md).
S_SOUND = const(0)
S_CONTRAST = const(1)
S_SCHEDULE = const(2)
S_ONES = const(3)
S_SPOTS = const(4)
S_SENS = const(5)
S_ODDS = const(6)
S_DIM = const(7)      # tens of seconds idle before dimming (0 = never)
S_OFF = const(8)      # minutes before display off + light sleep (0 = never)
S_SLEEP = const(9)    # minutes before deep sleep (0 = never)
SETTINGS_LEN = const(12)

# Per index: the default (store_load has the ranges; out of range gets the default).
SETTINGS_DEFAULT = bytes((1, 207, 0, 0, 0, 3, 1, 3, 2, 10, 0, 0))

# Stats: STATS_N counters of 4 bytes (little-endian) in a bytearray.
ST_SU_GAMES = const(0)    # Shake Up games finished
ST_FF_GAMES = const(1)    # Farkle Frenzy games finished
ST_SU_WINS = const(2)     # + seat (0-3): Shake Up wins per colour
ST_FF_WINS = const(6)     # + seat (0-3): Frenzy wins per colour
ST_FF_BEST = const(10)    # best Frenzy round score
ST_FF_HIGH = const(11)    # best Frenzy final total
STATS_N = const(16)
STATS_LEN = const(64)

KIND_SHAKEUP = const(1)
KIND_FRENZY = const(2)

GAME = "game.sav"
SETTINGS = "settings.dat"
STATS = "stats.dat"

_VERSION = const(1)
_HEAD = const(6)          # magic 2 + type 1 + version 1 + length 2
_CAP = const(1024)        # largest file we accept; more is damage
_UI_MAX = const(64)        # Frenzy screen state is 44 bytes, plus the holder byte
_T_GAME = const(0x47)     # "G"
_T_SET = const(0x53)      # "S"
_T_STATS = const(0x54)    # "T"

MSG_GAME = "Saved game was damaged"
MSG_SETTINGS = "Settings were reset"
MSG_STATS = "Stats were reset"
MSG_WRITE = "Could not save"


def pack(ftype, payload):
    """The bytes of a file of type ftype holding payload."""
    n = len(payload)
    head = bytes((0x50, 0x44, ftype, _VERSION, n & 0xFF, n >> 8))
    c = crc32(payload, crc32(head))
    return head + bytes(payload) + bytes((c & 0xFF, (c >> 8) & 0xFF, (c >> 16) & 0xFF,
                                          (c >> 24) & 0xFF))


def stat(ba, i):
    """Counter i of a stats bytearray."""
    o = i * 4
    return ba[o] | ba[o + 1] << 8 | ba[o + 2] << 16 | ba[o + 3] << 24


def stat_set(ba, i, v):
    """Set counter i (clamped to 0 .. 2**31 - 1)."""
    if v < 0:
        v = 0
    elif v > 0x7FFFFFFF:
        v = 0x7FFFFFFF
    o = i * 4
    ba[o] = v & 0xFF
    ba[o + 1] = (v >> 8) & 0xFF
    ba[o + 2] = (v >> 16) & 0xFF
    ba[o + 3] = (v >> 24) & 0xFF


def record_game(ba, kind, winner, best_round=0, total=0):
    """Count a finished game in the stats bytearray ba (the caller saves it)."""
    if kind == KIND_SHAKEUP:
        stat_set(ba, ST_SU_GAMES, stat(ba, ST_SU_GAMES) + 1)
        if 0 <= winner < 4:
            stat_set(ba, ST_SU_WINS + winner, stat(ba, ST_SU_WINS + winner) + 1)
    elif kind == KIND_FRENZY:
        stat_set(ba, ST_FF_GAMES, stat(ba, ST_FF_GAMES) + 1)
        if 0 <= winner < 4:
            stat_set(ba, ST_FF_WINS + winner, stat(ba, ST_FF_WINS + winner) + 1)
        if best_round > stat(ba, ST_FF_BEST):
            stat_set(ba, ST_FF_BEST, best_round)
        if total > stat(ba, ST_FF_HIGH):
            stat_set(ba, ST_FF_HIGH, total)
    else:
        raise ValueError("unknown game kind %d" % kind)


def unpack(ftype, data):
    """The payload of a file of type ftype, or None when data is not a good one."""
    if data is None or len(data) < _HEAD + 4:
        return None
    if data[0] != 0x50 or data[1] != 0x44 or data[2] != ftype or data[3] != _VERSION:
        return None
    n = data[4] | data[5] << 8
    if len(data) != _HEAD + n + 4:
        return None
    c = data[_HEAD + n] | data[_HEAD + n + 1] << 8 | data[_HEAD + n + 2] << 16 \
        | data[_HEAD + n + 3] << 24
    if crc32(memoryview(data)[:_HEAD + n]) != c:
        return None
    return data[_HEAD:_HEAD + n]


def _read(path):
    """The file's bytes (at most _CAP + 1 of them), or None when it does not exist."""
    try:
        f = open(path, "rb")
    except OSError:
        return None
    try:
        data = f.read(_CAP + 1)
    finally:
        f.close()
    return data if data is not None else b""


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass


def _replace(src, dst):
    """Rename src over dst. LittleFS/POSIX replace atomically; FAT needs a remove."""
    try:
        os.rename(src, dst)
    except OSError:
        _remove(dst)
        os.rename(src, dst)


def _rare(name):
    """A name from store_load, loaded for the call and dropped again."""
    if name[:2] == "__":
        raise AttributeError(name)  # CPython's import asks for __path__ and the like
    import sys

    import store_load
    sys.modules.pop("store_load", None)
    return getattr(store_load, name)


def __getattr__(name):
    # crc32_soft: see store_load.
    return _rare(name)


class Store:
    """The three files under root ("/" on the device)."""

    def __init__(self, root="/"):
        if root and not root.endswith("/"):
            root += "/"
        self.root = root
        self.problem = None
        self.writes = 0
        self._last = {}       # file name -> CRC of the content it holds now
        self._has = None      # cached: does a good saved game exist?
        if root and root != "/":
            try:
                os.mkdir(root[:-1])
            except OSError:
                pass
        _rare("clean")(self)

    # -- files -------------------------------------------------------------
    def _path(self, name):
        return self.root + name

    def _say(self, msg):
        if self.problem is None:
            self.problem = msg

    def _save(self, name, ftype, payload):
        """Write atomically unless the file already holds this payload."""
        c = crc32(payload)
        if self._last.get(name) == c:
            return True
        path = self._path(name)
        tmp = path + ".tmp"
        try:
            data = pack(ftype, payload)
            f = open(tmp, "wb")
            try:
                f.write(data)
            finally:
                f.close()
            _replace(tmp, path)
        except OSError:
            _remove(tmp)
            self._last.pop(name, None)
            self._say(MSG_WRITE)
            return False
        self._last[name] = c
        self.writes += 1
        return True

    def _load(self, name, ftype, msg):
        """The payload of a good file, None if missing; a bad file is set aside."""
        try:
            data = _read(self._path(name))
            if data is None:
                return None
            payload = unpack(ftype, data)
        except MemoryError:
            raise  # short of heap is no sign of a bad file: never set a good one aside
        except Exception:  # unreadable counts as damaged; never crash the device
            payload = None
        if payload is None:
            _rare("_bad")(self, name, msg)  # rare: set a damaged file aside
            return None
        self._last[name] = crc32(payload)
        return payload

    def load_stats(self):
        """bytearray(STATS_LEN) of counters (see stat(), record_game())."""
        p = self._load(STATS, _T_STATS, MSG_STATS)
        if p is None:
            return bytearray(STATS_LEN)
        if len(p) != STATS_LEN:
            _rare("_bad")(self, STATS, MSG_STATS)
            return bytearray(STATS_LEN)
        return bytearray(p)

    def __getattr__(self, name):
        # load_settings, load_game, reject_game (and the helpers they use) are in
        # store_load: rare, so loaded for the call and dropped again.
        f = _rare(name)
        return lambda *a, **k: f(self, *a, **k)

    # -- saving --------------------------------------------------------------
    def save_settings(self, ba):
        if len(ba) != SETTINGS_LEN:
            raise ValueError("settings must be %d bytes" % SETTINGS_LEN)
        return self._save(SETTINGS, _T_SET, bytes(ba))

    def save_stats(self, ba):
        if len(ba) != STATS_LEN:
            raise ValueError("stats must be %d bytes" % STATS_LEN)
        return self._save(STATS, _T_STATS, bytes(ba))

    def save_game(self, kind, blob, ui=b""):
        """Save the game (kind 1 Shake Up, 2 Frenzy; blob = Game.to_bytes())."""
        if kind != KIND_SHAKEUP and kind != KIND_FRENZY:
            raise ValueError("unknown game kind %d" % kind)
        if len(ui) > _UI_MAX or len(blob) + len(ui) + 2 > _CAP - _HEAD - 4:
            raise ValueError("saved game too big")
        ok = self._save(GAME, _T_GAME, bytes((kind, len(ui))) + bytes(ui) + bytes(blob))
        if ok:
            self._has = True
        return ok

    def has_game(self):
        """True when a good saved game exists (checked once, then cached)."""
        if self._has is None:
            _rare("load_game")(self)
        return self._has

    def clear_game(self):
        """Forget the saved game (it ended or the player abandoned it)."""
        _remove(self._path(GAME))
        _remove(self._path(GAME + ".tmp"))
        self._last.pop(GAME, None)
        self._has = False
