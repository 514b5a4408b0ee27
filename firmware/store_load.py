"""What of store.py neither a running game nor its end needs: opening the store (the
boot-time clean-up), loading settings and games, setting damaged files aside, the
settings write, and the file format's helpers and constants. The stats, the game's end
and reading a file are in store_end.py (smaller: a game ends with its modules loaded).

store.py loads this module for a call and drops it again: its __getattr__ hands out
these names (store.pack, store.GAME, ...), and Store's __getattr__ these functions
with the Store as the first argument (st.load_settings(), st.load_game(), ...).
Files are reached through store.os and store's `open` (when a test set one), so a
test that points store.py at another filesystem points this module there too.
"""
import store
from store_end import STATS, _load, _read, _remove, unpack

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# The file names and the messages for the UI (Store.problem).
GAME = "game.sav"
SETTINGS = "settings.dat"
MSG_GAME = "Saved game was damaged"
MSG_SETTINGS = "Settings were reset"
MSG_WRITE = "Could not save"   # set by store.Store._save itself
MSG_STATS = "Stats were reset"  # set by store_end.load_stats
KIND_SHAKEUP = const(1)
KIND_FRENZY = const(2)

# Settings indices (see brief: app_api.md): store.S_* through store's __getattr__.
# Firmware modules keep private copies (`_S_ONES = const(3)  # store.S_ONES`): a
# public name in store.py would be a dict slot there all game long.
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
# Per index (store.S_*): the default, and the range (out of range gets the default).
SETTINGS_DEFAULT = bytes((1, 207, 0, 0, 0, 3, 1, 3, 2, 10, 0, 0))
_SET_MIN = bytes((0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0))
_SET_MAX = bytes((1, 255, 1, 1, 1, 5, 1, 255, 255, 255, 255, 255))

# Stats: STATS_N counters of 4 bytes (little-endian) in a bytearray (store_end keeps
# them, under private names; see store_end.stat(), record_game()).
ST_SU_GAMES = const(0)    # Shake Up games finished
ST_FF_GAMES = const(1)    # Farkle Frenzy games finished
ST_SU_WINS = const(2)     # + seat (0-3): Shake Up wins per colour
ST_FF_WINS = const(6)     # + seat (0-3): Frenzy wins per colour
ST_FF_BEST = const(10)    # best Frenzy round score
ST_FF_HIGH = const(11)    # best Frenzy final total
STATS_N = const(16)
STATS_LEN = const(64)

_VERSION = const(1)       # as store._VERSION
_UI_MAX = const(64)       # as store._UI_MAX
_T_GAME = const(0x47)     # "G"
_T_SET = const(0x53)      # "S"
_T_STATS = const(0x54)    # "T"


def crc32_soft(data, crc=0):
    """Bitwise CRC-32 for builds without binascii.crc32 (identical results)."""
    crc ^= 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def pack(ftype, payload):
    """The bytes of a file of type ftype holding payload (as Store._save writes)."""
    n = len(payload)
    data = bytes((0x50, 0x44, ftype, _VERSION, n & 0xFF, n >> 8)) + bytes(payload)
    return data + store.crc32(data).to_bytes(4, "little")


def _exists(path):
    try:
        store.os.stat(path)
        return True
    except OSError:
        return False


def clean(st):
    """Store(): make its folder, and settle the .tmp files a power cut may have left:
    drop them, or promote one when the real file is gone and the .tmp is whole (a cut
    between remove and rename on a filesystem that needs both)."""
    root = st.root
    if root and root != "/":
        try:
            store.os.mkdir(root[:-1])
        except OSError:
            pass
    for name, ftype in ((GAME, _T_GAME), (SETTINGS, _T_SET), (STATS, _T_STATS)):
        path = root + name
        tmp = path + ".tmp"
        try:
            if not _exists(tmp):
                continue
            if not _exists(path) and unpack(ftype, _read(tmp)) is not None:
                store.os.rename(tmp, path)
            else:
                _remove(tmp)
        except MemoryError:
            raise  # short of heap is no sign of a bad file: keep the .tmp
        except Exception:
            _remove(tmp)


def _say(st, msg):
    if st.problem is None:
        st.problem = msg


def _bad(st, name, msg):
    """Keep a damaged file as name.bad for a bug report, and say so."""
    path = st.root + name
    try:
        try:
            store.os.rename(path, path + ".bad")
        except OSError:  # a filesystem whose rename cannot replace an old .bad
            _remove(path + ".bad")
            store.os.rename(path, path + ".bad")
    except OSError:
        _remove(path)
    st._last.pop(name, None)
    _say(st, msg)


def load_settings(st):
    """bytearray(SETTINGS_LEN): the saved settings, defaults where missing/bad."""
    ba = bytearray(SETTINGS_DEFAULT)
    p = _load(st, SETTINGS, _T_SET, MSG_SETTINGS, SETTINGS_LEN)
    if p is not None:
        for i in range(SETTINGS_LEN):
            if _SET_MIN[i] <= p[i] <= _SET_MAX[i]:
                ba[i] = p[i]
    return ba


def load_game(st):
    """(kind, blob, ui) of the saved game, or None (missing or damaged)."""
    p = _load(st, GAME, _T_GAME, MSG_GAME)
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
    if _exists(st.root + GAME):
        _bad(st, GAME, msg)
    else:
        _say(st, msg)


def save_settings(st, ba):
    if len(ba) != SETTINGS_LEN:
        raise ValueError("settings must be %d bytes" % SETTINGS_LEN)
    return st._save(SETTINGS, _T_SET, bytes(ba))
