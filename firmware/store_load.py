"""Everything of store.py that a running game does not call after each decision:
opening the store (the boot-time clean-up), loading settings, stats and games,
setting damaged files aside, the settings and stats writes, counting a finished game
and forgetting its save (finish_game), and the file format's helpers and constants.

store.py loads this module for a call and drops it again: its __getattr__ hands out
these names (store.pack, store.GAME, ...), and Store's __getattr__ these functions
with the Store as the first argument (st.load_settings(), st.clear_game(), ...).
Files are reached through store.os and store's `open` (when a test set one), so a
test that points store.py at another filesystem points this module there too.
"""
import store

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

# The file names, the messages for the UI (Store.problem) and the game kinds.
GAME = "game.sav"
SETTINGS = "settings.dat"
STATS = "stats.dat"
MSG_GAME = "Saved game was damaged"
MSG_SETTINGS = "Settings were reset"
MSG_STATS = "Stats were reset"
MSG_WRITE = "Could not save"   # set by store.Store._save itself
KIND_SHAKEUP = const(1)
KIND_FRENZY = const(2)

SETTINGS_LEN = const(12)
# Per index (store.S_*): the default, and the range (out of range gets the default).
SETTINGS_DEFAULT = bytes((1, 207, 0, 0, 0, 3, 1, 3, 2, 10, 0, 0))
_SET_MIN = bytes((0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0))
_SET_MAX = bytes((1, 255, 1, 1, 1, 5, 1, 255, 255, 255, 255, 255))

# Stats: STATS_N counters of 4 bytes (little-endian) in a bytearray.
ST_SU_GAMES = const(0)    # Shake Up games finished
ST_FF_GAMES = const(1)    # Farkle Frenzy games finished
ST_SU_WINS = const(2)     # + seat (0-3): Shake Up wins per colour
ST_FF_WINS = const(6)     # + seat (0-3): Frenzy wins per colour
ST_FF_BEST = const(10)    # best Frenzy round score
ST_FF_HIGH = const(11)    # best Frenzy final total
STATS_N = const(16)
STATS_LEN = const(64)

_VERSION = const(1)       # as store._VERSION
_HEAD = const(6)          # magic 2 + type 1 + version 1 + length 2
_CAP = const(1024)        # as store._CAP: the largest file we accept; more is damage
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


def _load(st, name, ftype, msg, size=0):
    """The payload of a good file (of size bytes, unless 0), None if missing; a bad
    file is set aside."""
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
    _bad(st, name, msg)
    return None


def load_settings(st):
    """bytearray(SETTINGS_LEN): the saved settings, defaults where missing/bad."""
    ba = bytearray(SETTINGS_DEFAULT)
    p = _load(st, SETTINGS, _T_SET, MSG_SETTINGS, SETTINGS_LEN)
    if p is not None:
        for i in range(SETTINGS_LEN):
            if _SET_MIN[i] <= p[i] <= _SET_MAX[i]:
                ba[i] = p[i]
    return ba


def load_stats(st):
    """bytearray(STATS_LEN) of counters (see stat(), record_game())."""
    p = _load(st, STATS, _T_STATS, MSG_STATS, STATS_LEN)
    return bytearray(STATS_LEN) if p is None else bytearray(p)


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


def has_game(st):
    """True when a good saved game exists (checked once, then cached)."""
    if st._has is None:
        load_game(st)
    return st._has


def clear_game(st):
    """Forget the saved game (it ended or the player abandoned it)."""
    _remove(st.root + GAME)
    _remove(st.root + GAME + ".tmp")
    st._last.pop(GAME, None)
    st._has = False


def finish_game(st, kind, winner, best_round=0, total=0):
    """A game is over: count it in the stats (record_game), save them, and forget
    the saved game; one load of this module for the whole game end."""
    ba = load_stats(st)
    record_game(ba, kind, winner, best_round, total)
    save_stats(st, ba)
    clear_game(st)


def save_settings(st, ba):
    if len(ba) != SETTINGS_LEN:
        raise ValueError("settings must be %d bytes" % SETTINGS_LEN)
    return st._save(SETTINGS, _T_SET, bytes(ba))


def save_stats(st, ba):
    if len(ba) != STATS_LEN:
        raise ValueError("stats must be %d bytes" % STATS_LEN)
    return st._save(STATS, _T_STATS, bytes(ba))


def stat(ba, i):
    """Counter i of a stats bytearray."""
    return int.from_bytes(ba[i * 4:i * 4 + 4], "little")


def stat_set(ba, i, v):
    """Set counter i (clamped to 0 .. 2**31 - 1)."""
    ba[i * 4:i * 4 + 4] = max(0, min(v, 0x7FFFFFFF)).to_bytes(4, "little")


def record_game(ba, kind, winner, best_round=0, total=0):
    """Count a finished game in the stats bytearray ba (the caller saves it)."""
    if kind == KIND_SHAKEUP:
        games, wins = ST_SU_GAMES, ST_SU_WINS
    elif kind == KIND_FRENZY:
        games, wins = ST_FF_GAMES, ST_FF_WINS
        if best_round > stat(ba, ST_FF_BEST):
            stat_set(ba, ST_FF_BEST, best_round)
        if total > stat(ba, ST_FF_HIGH):
            stat_set(ba, ST_FF_HIGH, total)
    else:
        raise ValueError("unknown game kind %d" % kind)
    stat_set(ba, games, stat(ba, games) + 1)
    if 0 <= winner < 4:
        stat_set(ba, wins + winner, stat(ba, wins + winner) + 1)
