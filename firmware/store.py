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

Only what a running game calls stays loaded: save_game() and the atomic write,
finish_game(), plus has_game() (cached; the menu asks on every entry). The game's end
(finish_game) stays resident with the stats record read at boot, so a game's end loads
no code while the game's is loaded. The rest is loaded for a call and dropped again,
through __getattr__ (module and Store): from store_end.py load_stats, save_stats,
clear_game, record_game, stat, stat_set, unpack; everything else from store_load.py
(the boot-time clean-up, load_settings, save_settings, load_game, reject_game, pack,
crc32_soft, the settings indices S_*, GAME, MSG_*, ST_*, KIND_*,
SETTINGS_DEFAULT, STATS_LEN, ...).
"""
import os

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

try:
    from binascii import crc32  # CRC-32 (IEEE, as zlib), unsigned on both pythons
except ImportError:
    def crc32(data, crc=0):
        """A build without binascii.crc32: the same CRC, slower (store_load)."""
        return __getattr__("crc32_soft")(data, crc)


_VERSION = const(1)       # store_load.pack and store_end.unpack expect the same
_CAP = const(1024)        # largest file store_end reads; more is damage
_UI_MAX = const(64)       # Frenzy screen state is 44 bytes, plus the holder byte
_T_GAME = const(0x47)     # "G"


def __getattr__(name):
    """A name from store_end (the game's end, reading a file) or else store_load (the
    rest), loaded for the access and dropped again."""
    if name[:2] == "__":
        raise AttributeError(name)  # CPython's import asks for __path__ and the like
    import sys

    import store_end
    mod = store_end
    if not hasattr(mod, name):
        import store_load  # it imports store_end's reading (loaded above)
        mod = store_load
    sys.modules.pop("store_load", None)
    sys.modules.pop("store_end", None)
    return getattr(mod, name)


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
        __getattr__("clean")(self)  # the folder; .tmp files a power cut left

    def __getattr__(self, name):
        # The rare methods (loads, settings, stats, clear_game, ...) are functions of
        # store_load taking the Store first: loaded for the call, dropped again.
        f = __getattr__(name)
        return lambda *a, **k: f(self, *a, **k)

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
            except OSError:  # a filesystem whose rename cannot replace (FAT)
                try:
                    os.remove(path)
                except OSError:
                    pass
                os.rename(tmp, path)
        except OSError:
            try:
                os.remove(tmp)
            except OSError:
                pass
            last.pop(name, None)
            if self.problem is None:
                self.problem = "Could not save"  # store.MSG_WRITE
            return False
        last[name] = c
        self.writes += 1
        return True

    def has_game(self):
        """True when a good saved game exists (checked once, then cached): the menu
        asks on every entry, also right after a game whose code is still loaded."""
        if self._has is None:
            __getattr__("load_game")(self)
        return self._has

    def finish_game(self, kind, winner, best_round=0, total=0):
        """A game is over: count it in the stats, save them, then forget the saved game.
        It runs with the game's code loaded, so it loads nothing: the stats record has
        been in RAM since boot (ui.boot calls load_stats(); counters as store_end's
        stat(): 4 bytes little-endian each; games, wins + seat, best round, best total)."""
        if kind == 1:    # KIND_SHAKEUP: ST_SU_GAMES, ST_SU_WINS
            games, wins = 0, 2
        elif kind == 2:  # KIND_FRENZY: ST_FF_GAMES, ST_FF_WINS (ST_FF_BEST, _HIGH 10, 11)
            games, wins = 1, 6
        else:
            raise ValueError("unknown game kind %d" % kind)
        ba = self._stats
        if ba is None:  # a Store not opened by ui.boot (tests, tools)
            ba = self.load_stats()
        more = kind == 2
        # (counter, None: one more, or a score: the best so far); -1 skips it
        for i, v in ((games, None), (wins + winner if 0 <= winner < 4 else -1, None),
                     (10 if more else -1, best_round), (11 if more else -1, total)):
            if i >= 0:
                j = i * 4
                old = int.from_bytes(ba[j:j + 4], "little")
                ba[j:j + 4] = min(old + 1 if v is None else max(old, v),
                                  0x7FFFFFFF).to_bytes(4, "little")
        self._save("stats.dat", 0x54, bytes(ba))  # store_end.STATS, _T_STATS
        path = self.root + "game.sav"  # the result is on disk: now the save may go
        for p in (path, path + ".tmp"):
            try:
                os.remove(p)
            except OSError:
                pass
        self._last.pop("game.sav", None)
        self._has = False

    def save_game(self, kind, blob, ui=b""):
        """Save the game (kind 1 Shake Up, 2 Frenzy; blob = Game.to_bytes())."""
        if kind != 1 and kind != 2:  # KIND_SHAKEUP, KIND_FRENZY
            raise ValueError("unknown game kind %d" % kind)
        if len(ui) > _UI_MAX or len(blob) + len(ui) + 12 > _CAP:  # 12: head, len, CRC
            raise ValueError("saved game too big")
        ok = self._save("game.sav", _T_GAME, bytes((kind, len(ui))), ui, blob)
        if ok:
            self._has = True
        return ok
