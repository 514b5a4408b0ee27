"""The REPL protocols the emulated board speaks on its serial port, as the ESP32 port
does: the friendly REPL (a small line editor, for `make repl`), paste mode, the raw REPL
and raw-paste with flow control (what mpremote uses). The unix port has no raw REPL
and exits on Ctrl-D, so the board speaks them itself and hands each piece of code on
to be run (the board's exec_code; the reply comes back through on_done)."""
import struct

BANNER = (b"MicroPython v1.29.0 on emuboard; unix port as an ESP32 board\r\n"
          b"Type \"help()\" for more information.\r\n")
RAW_BANNER = b"raw REPL; CTRL-B to exit\r\n"
FRIENDLY, RAW, PASTE = "friendly", "raw", "paste"
PASTE_WINDOW = 512  # raw-paste flow-control window, bytes


class Repl:
    """The client's side of the REPL: bytes in (byte), prompts and echoes out (out),
    code to run (exec_code(mode, source, on_done): mode "e" exec, "s" single), and a
    soft reset (Ctrl-D at an empty prompt)."""

    def __init__(self, out, exec_code, soft_reset):
        self._out = out
        self._exec = exec_code
        self._soft_reset = soft_reset
        self.mode = FRIENDLY
        self._line = bytearray()  # friendly line being edited
        self._block = []  # friendly compound statement lines
        self._esc = 0
        self._raw = bytearray()
        self._paste = None  # raw-paste: bytes received so far, or None
        self._paste_count = 0

    def power_on(self, hard):
        """A reset forgets what was typed; a hard one also leaves the raw REPL."""
        if hard:
            self.mode = FRIENDLY
        self._line.clear()
        self._block = []
        self._raw.clear()
        self._paste = None

    def prompt(self):
        """The banner and prompt after a boot, in the REPL the client was in."""
        if self.mode == RAW:
            self._out(RAW_BANNER + b">")
        else:
            self._out(BANNER + b">>> ")

    def out_text(self, data):
        self._out(data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))

    def byte(self, b):
        if self.mode == RAW:
            self._raw_byte(b)
        elif self.mode == PASTE:
            self._paste_byte(b)
        else:
            self._friendly_byte(b)

    # raw REPL (what mpremote uses), with raw-paste
    def _raw_byte(self, b):
        if self._paste is not None:
            if b == 4:
                src, self._paste = bytes(self._paste), None
                self._out(b"\x04")
                self._exec("e", src, self._raw_done)
                return
            self._paste.append(b)
            self._paste_count += 1
            if self._paste_count >= PASTE_WINDOW:
                self._paste_count = 0
                self._out(b"\x01")  # room for another window
            return
        if b == 1:  # Ctrl-A
            if bytes(self._raw) == b"\x05A":
                self._raw.clear()
                self._paste = bytearray()
                self._paste_count = 0
                self._out(b"R\x01" + struct.pack("<H", PASTE_WINDOW))
                return
            self._raw.clear()
            self._out(RAW_BANNER + b">")
        elif b == 2:  # Ctrl-B: friendly REPL
            self._raw.clear()
            self.mode = FRIENDLY
            self._out(b"\r\n" + BANNER + b">>> ")
        elif b == 3:
            self._raw.clear()
        elif b == 4:
            if not self._raw:
                self._out(b"\r\n")
                self._soft_reset()
                return
            src = bytes(self._raw)
            self._raw.clear()
            self._out(b"OK")
            self._exec("e", src, self._raw_done)
        else:
            self._raw.append(b)

    def _raw_done(self, err):
        self._out(b"\x04" + err + b"\x04>")

    # friendly REPL (make repl)
    def _friendly_byte(self, b):
        if self._esc:
            # Swallow cursor keys and other escape sequences: ESC [ ... final
            if self._esc == 1:
                self._esc = 2 if b in (0x5B, 0x4F) else 0
            elif 0x40 <= b <= 0x7E:
                self._esc = 0
            return
        if b == 0x1B:
            self._esc = 1
        elif b == 1:
            self._line.clear()
            self._block = []
            self.mode = RAW
            self._out(b"\r\n" + RAW_BANNER + b">")
        elif b == 2:
            self._line.clear()
            self._block = []
            self._out(b"\r\n" + BANNER + b">>> ")
        elif b == 3:
            self._line.clear()
            self._block = []
            self._out(b"\r\n>>> ")
        elif b == 4:
            if not self._line and not self._block:
                self._out(b"\r\n")
                self._soft_reset()
        elif b == 5:
            self._line.clear()
            self._block = []
            self.mode = PASTE
            self._raw.clear()
            self._out(b"\r\npaste mode; Ctrl-C to cancel, Ctrl-D to finish\r\n=== ")
        elif b in (8, 0x7F):
            if self._line:
                self._line.pop()
                self._out(b"\x08 \x08")
        elif b == 13:
            self._out(b"\r\n")
            line = bytes(self._line)
            self._line.clear()
            self._enter(line)
        elif b == 10:
            pass
        elif b >= 32 or b == 9:
            self._line.append(b)
            self._out(bytes([b]))

    def _enter(self, line):
        if self._block:
            if line.strip():
                self._block.append(line)
                self._out(b"... ")
                return
            src = b"\n".join(self._block) + b"\n"
            self._block = []
            self._exec("s", src, self._friendly_done)
            return
        if not line.strip():
            self._out(b">>> ")
            return
        if line.rstrip().endswith(b":") or line.rstrip().endswith(b"\\"):
            self._block = [line]
            self._out(b"... ")
            return
        self._exec("s", line + b"\n", self._friendly_done)

    def _friendly_done(self, err):
        if err:
            self.out_text(err)
        self._out(b">>> ")

    def _paste_byte(self, b):
        if b == 3:
            self._raw.clear()
            self.mode = FRIENDLY
            self._out(b"\r\n>>> ")
        elif b == 4:
            src = bytes(self._raw).replace(b"\r", b"\n")
            self._raw.clear()
            self.mode = FRIENDLY
            self._out(b"\r\n")
            self._exec("e", src, self._friendly_done)
        else:
            self._raw.append(b)
            self._out(b"\r\n=== " if b == 13 else bytes([b]))

