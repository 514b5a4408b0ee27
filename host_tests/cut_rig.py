"""A power cut at a planned write: files and an `os` that raise _Cut there."""
import os


class _Cut(BaseException):
    """The power goes: nothing after this point runs (not caught as an Exception)."""


class _CutFile:
    def __init__(self, f, plan):
        self.f = f
        self.plan = plan

    def write(self, data):
        if self.plan.at("write-half"):
            self.f.write(data[:len(data) // 2])
            raise _Cut()
        n = self.f.write(data)
        self.plan.at("written", True)
        return n

    def close(self):
        self.f.close()
        self.plan.at("closed", True)


class _Plan:
    """Cuts the power at the n-th step of a save (counting every step seen)."""

    def __init__(self, n):
        self.n = n
        self.seen = 0

    def at(self, step, after=False):
        self.seen += 1
        if self.seen == self.n:
            if after:
                raise _Cut()
            return True
        return False


class _CutOs:
    """os for store.py with cut points; fat=True: rename cannot replace a file."""

    def __init__(self, plan, fat=False):
        self.plan = plan
        self.fat = fat

    def stat(self, p):
        return os.stat(p)

    def mkdir(self, p):
        return os.mkdir(p)

    def remove(self, p):
        os.remove(p)
        self.plan.at("removed", True)

    def rename(self, a, b):
        if self.fat:
            try:
                os.stat(b)
                raise OSError(17)  # EEXIST
            except OSError as e:
                if e.args and e.args[0] == 17:
                    raise
        os.rename(a, b)
        self.plan.at("renamed", True)
