"""Boot only: what a power cut, a failed rename or a stray folder left at the store's
paths is settled once, as the Store is made (store.Store() runs settle(), then forgets
this module, so its code keeps no heap afterwards).

- A folder (anything not a regular file) at a store path is removed, or renamed to
  `<path>.bad` when it is not empty, and said (Store.problem): saves would fail on it
  for ever, and the interpreters would disagree on what it is.
- A `.tmp` or `.old` beside its file is dropped; with the file gone, a whole one is
  promoted (the `.tmp`, newer, first): a cut inside store._swap() or a rename that
  could not replace.
"""
import store
from store import MSG_FOLDER


def _odd(path):
    """True when something that is not a regular file (a folder) is at path."""
    try:
        return store.os.stat(path)[0] & 0xF000 != 0x8000
    except OSError:
        return False


def _clear(st, path, msg):
    os = store.os
    try:
        os.rmdir(path)
    except OSError:
        try:
            if not _odd(path + ".bad"):
                store._remove(path + ".bad")
            os.rename(path, path + ".bad")
        except OSError:
            pass  # nothing more to do here: the saves say they failed
    st._say(msg)


def settle(st, files, fin):
    """files: (name, type, message) for each store file (the game's first); fin: the
    finished record's type. Returns the payload of game.sav when it is a finished
    record (the stats a game's end could not commit), else None."""
    os = store.os
    read = store._read
    exists = store._exists
    unpack = store.unpack
    root = st.root
    for name, ftype, msg in files:
        path = root + name
        for p in (path, path + ".tmp", path + ".old"):
            if _odd(p):
                _clear(st, p, msg if p is path else MSG_FOLDER)
        for p in (path + ".tmp", path + ".old"):
            try:
                if not exists(p):
                    continue
                if not exists(path) and (unpack(ftype, read(p)) is not None or (
                        name is files[0][0] and unpack(fin, read(p)) is not None)):
                    os.rename(p, path)
                else:
                    store._remove(p)
            except MemoryError:
                raise  # short of heap is no sign of a bad file: keep it
            except Exception:
                store._remove(p)
    try:
        return unpack(fin, read(root + files[0][0]))
    except MemoryError:
        raise
    except Exception:
        return None
