"""Persistence: the saved game, the settings and the stats, each in its own file.

Every file is `b"PD"`, a type letter, a schema version, the payload length (2 bytes,
little-endian), the payload and a CRC-32 (4 bytes, little-endian) over all before it.
Writes are atomic: the bytes go to `<name>.tmp`, the file is closed, then `os.rename`
replaces the old file (atomic on LittleFS and on POSIX). A power cut therefore leaves
either the old or the new file, plus maybe a stale `.tmp`, which the constructor
removes (or promotes when the real file is missing). A filesystem whose rename cannot
replace a file (or a rename that fails whatever the errno) gets the old file renamed
to `<name>.old` first and put back if the second rename fails: one whole copy, old or
new, exists at every moment, and the constructor settles what a cut left.
Anything at a store path that is not a regular file (a folder) is removed or renamed
to `<name>.bad` by the constructor, and said (problem).

A file that is truncated, damaged, of another version or too big is renamed to
`<name>.bad` (kept for a bug report), `problem` gets a short message for the UI, and
the load returns the defaults (settings, stats) or None (game). Loads never raise.
Writes whose content equals the file's last content are skipped, so calling a save
once per frame still costs no flash write; `writes` counts the real ones.

The stats record is read once (load_stats(), at boot) and kept: a game's end counts in
it (finish_game -> record_game) and saves it without reading a file. A game's end first
replaces game.sav by a finished record (type "F") holding the new stats, then writes
the stats, then removes game.sav: a power cut anywhere counts the game once (a boot
that finds the finished record writes its stats again and removes it; before it, the
game's last save stands and Continue plays it to its end). While the stats cannot be
written (the flash is full) the count stays in RAM (and in the finished record when
that could be written), the flash's game.sav is not offered, and every later save
(and commit(), at each return to the menu) tries the stats first; game.sav is never
replaced before they are written. A power cut while the flash stays full loses what
only RAM held (a LittleFS with no free block takes no write at all, even after a
remove): the count, and the newest game; Continue then offers the last one on flash.

A full flash: a game save that cannot be written is kept in RAM (load_game() gives it,
newer than the file) until a save is written, so leaving a game and continuing it
loses no decision while the flash stays full.
"""
import os

from core.games import BEST, GAMES, HIGH, WINS, game

from micropython import const

try:
    from binascii import crc32  # CRC-32 (IEEE, as zlib), unsigned on both pythons
except ImportError:
    def crc32(data, crc=0):
        """A build without binascii.crc32: the same CRC, slower."""
        return crc32_soft(data, crc)

# The file names and the messages for the UI (Store.problem).
GAME = "game.sav"
SETTINGS = "settings.dat"
STATS = "stats.dat"
MSG_GAME = "Saved game was damaged"
MSG_SETTINGS = "Settings were reset"
MSG_WRITE = "Could not save"
MSG_STATS = "Stats were reset"
MSG_FOLDER = "Removed a stray folder"

# Settings: indices into the settings bytearray (app.settings).
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
# The last setup of each game, offered again: at S_SETUP + (kind - 1) * 2 the number
# of players, then the seats (2 bits each, seat 0 lowest: 0 HUMAN, 1-3 a CPU of skill
# 0-3 EASY, NORMAL, HARD). The first time: you against one EASY CPU (and EASY for the
# seats added to it), a first game a beginner can win.
S_SETUP = const(12)
SETTINGS_LEN = const(16)
_SETTINGS_OLD = const(12)  # a settings file from before the setups: still loads
# Per index: the default (the range of each: store_check).
SETTINGS_DEFAULT = bytes((1, 207, 0, 0, 0, 3, 1, 3, 2, 10, 0, 0, 2, 0x54, 2, 0x54))

# Stats: STATS_N counters of 4 bytes (little-endian); which is which: core.games, and
# from ST_CPU the games against CPUs (kept apart: the counters before count only
# all-human games): at ST_CPU + (kind - 1) * 6 + (level - 1) * 2 the games whose
# strongest CPU had that level (1-3: EASY, NORMAL, HARD), + 1 those a human won.
ST_CPU = const(16)
_ST_SOLO = const(28)  # core.games.ST_FF_SOLO: a solo Frenzy game's fewest rounds
_ST_LINK = const(29)  # core.games.ST_LINK_GAMES, _WINS, _LAST
STATS_N = const(32)
STATS_LEN = const(128)
_STATS_OLD = const(64)  # a stats file from before the CPU counters: still loads
_STATS_CPU = const(112)  # one from before the solo record: still loads
_STATS_SOLO = const(116)  # one from before the linked games: still loads

_VERSION = const(1)
_HEAD = const(6)          # magic 2 + type 1 + version 1 + length 2
_CAP = const(1024)        # the largest file we accept; more is damage
_UI_MAX = const(64)       # Frenzy screen state is 44 bytes, plus the holder byte
_T_GAME = const(0x47)     # "G"
_T_SET = const(0x53)      # "S"
_T_STATS = const(0x54)    # "T"
_T_FIN = const(0x46)      # "F": game.sav once the game ended, holding the new stats
_T_LINK = const(0x4C)     # "L": link.sav, a link game (docs/link.md)
LINK = "link.sav"
MSG_LINK = "Link game was damaged"


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
    return data + crc32(data).to_bytes(4, "little")


def unpack(ftype, data):
    """The payload of a file of type ftype, or None when data is not a good one."""
    if data is None or len(data) < _HEAD + 4:
        return None
    if data[0] != 0x50 or data[1] != 0x44 or data[2] != ftype or data[3] != _VERSION:
        return None
    n = data[4] | data[5] << 8
    if len(data) != _HEAD + n + 4:
        return None
    if crc32(memoryview(data)[:_HEAD + n]) != int.from_bytes(data[-4:], "little"):
        return None
    return data[_HEAD:_HEAD + n]


def stat(ba, i):
    """Counter i of a stats bytearray."""
    return int.from_bytes(ba[i * 4:i * 4 + 4], "little")


def stat_set(ba, i, v):
    """Set counter i (clamped to 0 .. 2**31 - 1)."""
    ba[i * 4:i * 4 + 4] = max(0, min(v, 0x7FFFFFFF)).to_bytes(4, "little")


def record_game(ba, kind, winner, best_round=0, total=0, cpus=None, rounds=0):
    """Count a finished game in the stats bytearray ba (the caller saves it): one more
    game, a win for the winner's seat (0-3), and the bests the game keeps (rounds: a
    solo Frenzy game's, its score: the fewest is kept). With CPUs (cpus: each seat's
    code, 0 HUMAN, 1-3 a CPU's level; the seats past the game's are 0) it counts
    apart: one more game against the strongest CPU's level, and whether a human
    won."""
    g = game(kind)
    if rounds > 0 and (not stat(ba, _ST_SOLO) or rounds < stat(ba, _ST_SOLO)):
        stat_set(ba, _ST_SOLO, rounds)
    lv = max(cpus) if cpus else 0
    if lv and cpus is not None:
        i = ST_CPU + (kind - 1) * 6 + (lv - 1) * 2
        stat_set(ba, i, stat(ba, i) + 1)
        if 0 <= winner < len(cpus) and not cpus[winner]:
            stat_set(ba, i + 1, stat(ba, i + 1) + 1)
        return
    stat_set(ba, g[GAMES], stat(ba, g[GAMES]) + 1)
    if 0 <= winner < 4:
        i = g[WINS] + winner
        stat_set(ba, i, stat(ba, i) + 1)
    for i, v in ((g[BEST], best_round), (g[HIGH], total)):
        if i < STATS_N and v > stat(ba, i):
            stat_set(ba, i, v)


def record_link(ba, gid, won):
    """Count a linked game over on this handheld (gid: its game id; won: its seat won)
    in the stats bytearray ba, once: False when that game was the last one counted."""
    if stat(ba, _ST_LINK + 2) == gid + 1:
        return False
    stat_set(ba, _ST_LINK, stat(ba, _ST_LINK) + 1)
    if won:
        stat_set(ba, _ST_LINK + 1, stat(ba, _ST_LINK + 1) + 1)
    stat_set(ba, _ST_LINK + 2, gid + 1)
    return True


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


def _exists(path):
    try:
        os.stat(path)
        return True
    except OSError:
        return False


def _odd(path):
    """True when something that is not a regular file (a folder) is at path."""
    try:
        return os.stat(path)[0] & 0xF000 != 0x8000
    except OSError:
        return False


def _swap(tmp, path):
    """os.rename(tmp, path) for a filesystem whose rename cannot replace a file, or a
    rename that failed for another reason: the old file goes aside to path.old first
    and comes back if the second rename fails too, so a whole copy, old or new, exists
    at every moment (Store() settles a cut). Raises OSError when the save failed."""
    old = path + ".old"
    _remove(old)
    os.rename(path, old)  # fails (no old file, rename broken): tmp is dropped
    try:
        os.rename(tmp, path)
    except OSError:
        try:
            os.rename(old, path)
        except OSError:
            pass  # path.old holds it: the next boot puts it back
        raise
    _remove(old)


class Store:
    """The three files under root ("/" on the device)."""

    def __init__(self, root="/"):
        if root and not root.endswith("/"):
            root += "/"
        self.root = root
        self.problem = None
        self.writes = 0
        self._last = {}       # file name -> CRC of the file it holds now
        self._has = None      # cached: does a good saved game exist?
        self._stats = None    # the stats record, once load_stats() read it (at boot)
        self._fin = None      # stats a finished game counted, not yet on flash
        self._ram = None      # the game a failed save_game() could not write: newer
        # Make the folder; clear folders from the store's paths; settle the .tmp and
        # .old files a power cut may have left: drop them, or promote one when the real
        # file is gone and it is whole (the .tmp, newer, first).
        if root and root != "/":
            try:
                os.mkdir(root[:-1])
            except OSError:
                pass
        for name, ftype, msg in ((GAME, _T_GAME, MSG_GAME), (SETTINGS, _T_SET, MSG_SETTINGS),
                                 (STATS, _T_STATS, MSG_STATS)):
            path = root + name
            for p in (path, path + ".tmp", path + ".old"):
                if _odd(p):
                    self._clear(p, msg if p is path else MSG_FOLDER)
            for p in (path + ".tmp", path + ".old"):
                try:
                    if not _exists(p):
                        continue
                    if not _exists(path) and (unpack(ftype, _read(p)) is not None or (
                            ftype == _T_GAME and unpack(_T_FIN, _read(p)) is not None)):
                        os.rename(p, path)
                    else:
                        _remove(p)
                except MemoryError:
                    raise  # short of heap is no sign of a bad file: keep it
                except Exception:
                    _remove(p)
        # A game that ended but whose stats a cut (or a full flash) kept off the flash:
        # count it now, from its finished record.
        try:
            p = unpack(_T_FIN, _read(root + GAME))
        except MemoryError:
            raise
        except Exception:
            p = None
        if p is not None and len(p) <= STATS_LEN:
            ba = bytearray(STATS_LEN)
            ba[:len(p)] = p  # (a record from before the newest counters: they start at 0)
            self._stats = self._fin = ba
            self._commit()

    def _clear(self, path, msg):
        """A folder where a store file belongs: remove it (empty) or set it aside as
        path.bad, and say so; saves would fail on it for ever."""
        try:
            os.rmdir(path)
        except OSError:
            try:
                if not _odd(path + ".bad"):
                    _remove(path + ".bad")
                os.rename(path, path + ".bad")
            except OSError:
                pass  # nothing more to do here: the saves say they failed
        self._say(msg)

    # ---- reading ---------------------------------------------------------------

    def _say(self, msg):
        if self.problem is None:
            self.problem = msg

    def _bad(self, name, msg):
        """Keep a damaged file as name.bad for a bug report, and say so."""
        path = self.root + name
        try:
            try:
                os.rename(path, path + ".bad")
            except OSError:  # a filesystem whose rename cannot replace an old .bad
                _remove(path + ".bad")
                os.rename(path, path + ".bad")
        except OSError:
            _remove(path)
        self._last.pop(name, None)
        self._say(msg)

    def _load(self, name, ftype, msg, size=0):
        """The payload of a good file (of size bytes, unless 0), None if missing; a bad
        file is set aside with msg for the UI."""
        try:
            data = _read(self.root + name)
            if data is None:
                return None
            payload = unpack(ftype, data)
            if payload is not None and (not size or len(payload) == size):
                self._last[name] = int.from_bytes(data[-4:], "little")  # as _save
                return payload
        except MemoryError:
            raise  # short of heap is no sign of a bad file: never set a good one aside
        except Exception:  # unreadable counts as damaged; never crash the device
            pass
        self._bad(name, msg)
        return None

    def load_settings(self):
        """bytearray(SETTINGS_LEN): the saved settings, defaults where missing/bad."""
        ba = bytearray(SETTINGS_DEFAULT)
        p = self._load(SETTINGS, _T_SET, MSG_SETTINGS)
        if p is not None and len(p) < _SETTINGS_OLD:
            self._bad(SETTINGS, MSG_SETTINGS)
            p = None
        if p is not None:
            from system.store.check import settings_in_range  # (boot only: forgotten after it)
            settings_in_range(ba, p)
        return ba

    def load_stats(self):
        """bytearray(STATS_LEN) of counters (see record_game()); the Store keeps it as
        the record finish_game() counts in (the caller may change and save it)."""
        if self._fin is not None:
            return self._fin  # a game's count not yet on flash: newer than the file
        p = self._load(STATS, _T_STATS, MSG_STATS)
        if p is not None:
            from system.store.check import stats_ok  # (boot and the stats screen: forgotten after)
            if len(p) not in (STATS_LEN, _STATS_OLD, _STATS_CPU, _STATS_SOLO) \
                    or not stats_ok(p):
                self._bad(STATS, MSG_STATS)  # well-formed, but no play gives it: damaged
                p = None
        self._stats = ba = bytearray(STATS_LEN)
        if p is not None:
            ba[:len(p)] = p  # an older file: the CPU counters start at 0
        return ba

    def load_game(self):
        """(kind, blob, ui) of the saved game, or None (missing or damaged): the one
        save_game() last failed to write while saves fail (kept in RAM), else the
        file's."""
        if self._ram is not None:
            self._has = True
            return self._ram
        if self._fin is not None:  # game.sav is a finished game's: no Continue
            self._has = False
            return None
        p = self._load(GAME, _T_GAME, MSG_GAME)
        if p is None:
            self._has = False
            return None
        if len(p) < 2 or p[1] > _UI_MAX or len(p) < 2 + p[1] + 1:
            self.reject_game()
            return None
        try:
            game(p[0])
        except ValueError:
            self.reject_game()
            return None
        self._has = True
        n = 2 + p[1]
        return p[0], bytes(p[n:]), bytes(p[2:n])

    def reject_game(self, msg=MSG_GAME):
        """The saved game passed its checksum but cannot be restored (e.g.
        Game.from_bytes raised): set it aside as game.sav.bad and say so."""
        self._has = False
        self._ram = None
        if _exists(self.root + GAME):
            self._bad(GAME, msg)
        else:
            self._say(msg)

    def has_game(self):
        """True when a good saved game exists (checked once, then cached): the menu
        asks on every entry."""
        if self._has is None:
            self.load_game()
        return self._has

    # ---- writing ---------------------------------------------------------------

    def _save(self, name, ftype, *parts):
        """Write the file atomically unless it already holds this payload (the parts,
        in order)."""
        n = 0
        for p in parts:
            n += len(p)
        head = bytes((0x50, 0x44, ftype, _VERSION, n & 0xFF, n >> 8))
        # The file is head + payload + CRC, written in pieces: joined, they would take
        # more copies of the game on the heap at every decision (play's fullest).
        c = crc32(head)
        for p in parts:
            c = crc32(p, c)
        last = self._last
        if last.get(name) == c:  # the file's own CRC: the same content
            return True
        path = self.root + name
        tmp = path + ".tmp"
        try:
            f = open(tmp, "wb")
            try:
                f.write(head)
                for p in parts:
                    f.write(p)
                f.write(c.to_bytes(4, "little"))
            finally:
                f.close()
            try:
                os.rename(tmp, path)
            except OSError:  # a filesystem whose rename cannot replace (FAT), or worse
                _swap(tmp, path)
        except OSError:
            _remove(tmp)
            last.pop(name, None)
            self._say(MSG_WRITE)
            return False
        last[name] = c
        self.writes += 1
        return True

    def save_settings(self, ba):
        if len(ba) != SETTINGS_LEN:
            raise ValueError("settings must be %d bytes" % SETTINGS_LEN)
        return self._save(SETTINGS, _T_SET, bytes(ba))

    def save_stats(self, ba):
        if len(ba) != STATS_LEN:
            raise ValueError("stats must be %d bytes" % STATS_LEN)
        self._stats = ba  # the record finish_game() counts in from now on
        if self._fin is not None:  # a finished game's count waits: this record has it
            self._fin = ba
            return self._commit()
        return self._save(STATS, _T_STATS, bytes(ba))

    def save_game(self, kind, blob, ui=b""):
        """Save the game (kind: core.games; blob = Game.to_bytes()). False when it could
        not be written (the flash is full: the old save stays on flash, and this one
        in RAM, which load_game() gives until a save is written)."""
        game(kind)
        if len(ui) > _UI_MAX or len(blob) + len(ui) + 12 > _CAP:  # 12: head, len, CRC
            raise ValueError("saved game too big")
        ok = self._commit()  # a finished game's count first: game.sav may hold it
        if ok:
            ok = self._save(GAME, _T_GAME, bytes((kind, len(ui))), ui, blob)
        self._ram = None if ok else (kind, bytes(blob), bytes(ui))
        self._has = True
        return ok

    def count_link(self, gid, won):
        """A linked game is over here: counted once in the stats (record_link), which
        are saved. False when it was counted before or could not be written."""
        ba = self._stats
        if ba is None:
            ba = self.load_stats()
        return record_link(ba, gid, won) and self.save_stats(ba)

    def save_link(self, blob):
        """The link game's save (link.game's bytes: the host's game or a guest's seat),
        apart from game.sav so a link game never replaces a game on this device."""
        return self._save(LINK, _T_LINK, blob)

    def load_link(self):
        """The link game's save, or None (missing; a damaged one is set aside)."""
        return self._load(LINK, _T_LINK, MSG_LINK)

    def clear_link(self):
        _remove(self.root + LINK)
        self._last.pop(LINK, None)

    def clear_game(self):
        """Forget the saved game (it ended or the player abandoned it)."""
        path = self.root + GAME
        _remove(path)
        _remove(path + ".tmp")
        self._last.pop(GAME, None)
        self._has = False
        self._ram = None

    def finish_game(self, kind, winner, best_round=0, total=0, cpus=None, rounds=0):
        """A game is over: count it in the stats; replace its save by the finished
        record (the new stats), write the stats, remove the record. True when the count
        is on flash; else it is kept in RAM and committed by the next save (or boot).
        cpus: see record_game()."""
        ba = self._stats
        if ba is None:  # a Store whose stats nobody read yet (tests, tools)
            ba = self.load_stats()
        record_game(ba, kind, winner, best_round, total, cpus, rounds)
        self._fin = ba
        self._has = False
        self._ram = None
        if _exists(self.root + GAME):  # (no save, nothing Continue could count again)
            self._save(GAME, _T_FIN, bytes(ba))  # failing (full), the last save stays
        return self._commit()

    def _commit(self):
        """Write the stats a finished game counted, then forget its save (or finished
        record). True when nothing is left to commit. As commit(): the app tries at
        every return to the menu (the flash was full: room now?); every save tries."""
        ba = self._fin
        if ba is None:
            return True
        if not self._save(STATS, _T_STATS, bytes(ba)):
            return False
        self._fin = None
        self.clear_game()
        return True

    commit = _commit
