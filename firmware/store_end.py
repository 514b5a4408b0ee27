"""The stats for store.py (load, count, save), forgetting the save, and the reading and
checking of a file that store_load uses as well.

store.py's __getattr__ looks here before store_load (whose loads, settings and repairs
are bigger), loads the module for the call and drops it again. A game's end loads
neither: Store.finish_game() counts in the record load_stats() left in the Store.
Setting a damaged file aside is rare, so _load reaches store_load's _bad for it.
"""
import store

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

STATS = "stats.dat"

# Private (free at run time): every public name is a slot in this module's globals, and
# that table is allocated while a game's end has its code loaded. The public ST_*,
# STATS_LEN, KIND_* and MSG_STATS for other modules and tests are in store_load.
_KIND_SHAKEUP = const(1)
_KIND_FRENZY = const(2)
_ST_SU_GAMES = const(0)   # Shake Up games finished
_ST_FF_GAMES = const(1)   # Farkle Frenzy games finished
_ST_SU_WINS = const(2)    # + seat (0-3): Shake Up wins per colour
_ST_FF_WINS = const(6)    # + seat (0-3): Frenzy wins per colour
_ST_FF_BEST = const(10)   # best Frenzy round score
_ST_FF_HIGH = const(11)   # best Frenzy final total
_STATS_LEN = const(64)    # 16 counters of 4 bytes (little-endian)
_VERSION = const(1)       # as store._VERSION
_HEAD = const(6)          # magic 2 + type 1 + version 1 + length 2
_CAP = const(1024)        # as store._CAP: the largest file we accept; more is damage
_T_STATS = const(0x54)    # "T"


def unpack(ftype, data):
    """The payload of a file of type ftype, or None when data is not a good one."""
    if data is None or len(data) < _HEAD + 4:
        return None
    if data[0] != 0x50 or data[1] != 0x44 or data[2] != ftype or data[3] != _VERSION:
        return None
    n = data[4] | data[5] << 8
    if len(data) != _HEAD + n + 4:
        return None
    if store.crc32(memoryview(data)[:_HEAD + n]) != int.from_bytes(data[-4:], "little"):
        return None
    return data[_HEAD:_HEAD + n]


def _read(path):
    """The file's bytes (at most _CAP + 1 of them), or None when it does not exist."""
    try:
        f = store.__dict__.get("open", open)(path, "rb")  # a test's open, if set
    except OSError:
        return None
    try:
        data = f.read(_CAP + 1)
    finally:
        f.close()
    return data if data is not None else b""


def _remove(path):
    try:
        store.os.remove(path)
    except OSError:
        pass


def _load(st, name, ftype, msg, size=0):
    """The payload of a good file (of size bytes, unless 0), None if missing; a bad
    file is set aside (store_load._bad) with msg for the UI."""
    try:
        data = _read(st.root + name)
        if data is None:
            return None
        payload = unpack(ftype, data)
        if payload is not None and (not size or len(payload) == size):
            st._last[name] = int.from_bytes(data[-4:], "little")  # as Store._save
            return payload
    except MemoryError:
        raise  # short of heap is no sign of a bad file: never set a good one aside
    except Exception:  # unreadable counts as damaged; never crash the device
        pass
    store._bad(st, name, msg)
    return None


def load_stats(st):
    """bytearray(STATS_LEN) of counters (see stat(), record_game()); the Store keeps
    it as the record its finish_game() counts in (the caller may change and save it)."""
    p = _load(st, STATS, _T_STATS, "Stats were reset", _STATS_LEN)  # MSG_STATS
    st._stats = ba = bytearray(_STATS_LEN) if p is None else bytearray(p)
    return ba


def save_stats(st, ba):
    if len(ba) != _STATS_LEN:
        raise ValueError("stats must be %d bytes" % _STATS_LEN)
    st._stats = ba  # the record finish_game() counts in from now on
    return st._save(STATS, _T_STATS, bytes(ba))


def clear_game(st):
    """Forget the saved game (it ended or the player abandoned it)."""
    path = st.root + "game.sav"   # store_load.GAME
    _remove(path)
    _remove(path + ".tmp")
    st._last.pop("game.sav", None)
    st._has = False


def stat(ba, i):
    """Counter i of a stats bytearray."""
    return int.from_bytes(ba[i * 4:i * 4 + 4], "little")


def stat_set(ba, i, v):
    """Set counter i (clamped to 0 .. 2**31 - 1)."""
    ba[i * 4:i * 4 + 4] = max(0, min(v, 0x7FFFFFFF)).to_bytes(4, "little")


def record_game(ba, kind, winner, best_round=0, total=0):
    """Count a finished game in the stats bytearray ba (the caller saves it)."""
    if kind == _KIND_SHAKEUP:
        games, wins = _ST_SU_GAMES, _ST_SU_WINS
    elif kind == _KIND_FRENZY:
        games, wins = _ST_FF_GAMES, _ST_FF_WINS
        if best_round > stat(ba, _ST_FF_BEST):
            stat_set(ba, _ST_FF_BEST, best_round)
        if total > stat(ba, _ST_FF_HIGH):
            stat_set(ba, _ST_FF_HIGH, total)
    else:
        raise ValueError("unknown game kind %d" % kind)
    stat_set(ba, games, stat(ba, games) + 1)
    if 0 <= winner < 4:
        stat_set(ba, wins + winner, stat(ba, wins + winner) + 1)
