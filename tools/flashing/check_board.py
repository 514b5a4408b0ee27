#!/usr/bin/env python3
"""Validate board profiles: tools/flashing/check_board.py [NAME | PATH ...] (default: all of boards/).

Each problem is printed as `boards/x.py: GPIOn (role): reason`; the exit status is 1
when any profile has one, else a summary line is printed and the status is 0.

Rules (ESP32 = "esp32", ESP32-S3 = "esp32s3"; "host" profiles get the generic ones):
- a GPIO used by two roles (the I2C lines count once for all devices on the bus);
- a GPIO the chip does not have;
- SPI flash pins: 6-11 (ESP32), 26-32 (S3; also 33-37 when PSRAM = "octal");
- UART0 TX/RX, the REPL and the serial bootloader: 1, 3 (ESP32), 43, 44 (S3);
- input-only 34-39 (ESP32) used as an output (I2C, display reset/power, buzzer, battery
  switch) or as an input that needs the chip's pull-up (button or switch "internal");
- strapping pins used in a way that can break boot (below);
- two I2C devices on one address, and an address the chip cannot have;
- a battery on a pin without an ADC; malformed entries (types, sizes, keys);
- the I2C clock outside 100 kHz-1 MHz, or above 400 kHz (the default, the panels'
  datasheet fast mode) without I2C["freq_source"] saying where it comes from.

Strapping pins are read at reset, before the firmware runs, so what matters is the
level the wiring can force on the pin then. Each use has the levels it can impose at
reset: I2C lines and a display reset line are pulled up (high); a power switch sits at
its "off" level; a button or switch with an external pull-up is high, or low while held
or closed; with the internal pull-up (not yet on at reset) it floats to the pin's own
strapping default, or is low while held; a buzzer is a piezo (no DC path) or a driver
transistor's base with a pull-down (default or low); a battery divider or its switch
can be anything. A use is rejected when one of its levels breaks boot on that pin:
- ESP32 GPIO0 low: the serial bootloader starts instead of the firmware;
- ESP32 GPIO2 high: the chip cannot enter the bootloader, so flashing fails;
- ESP32 GPIO12 (MTDI) high: 1.8 V flash voltage, a 3.3 V-flash module does not boot;
- ESP32-S3 GPIO0 low: bootloader; GPIO45 high: 1.8 V flash voltage; GPIO46 high:
  invalid with GPIO0 low (no flashing);
- ESP32 GPIO5, GPIO15 and S3 GPIO3 only select SDIO timing, silence the boot log or the
  JTAG source (an eFuse option): any level is safe, so the onboard OLEDs' I2C on
  GPIO5 (LOLIN32) and GPIO15 (Heltec V2) pass.
A board's own fixed wiring is listed in the profile's FIXED {pin: "reason"}; a FIXED pin
with a reason may break the strapping rule (e.g. the onboard PRG button on GPIO0, made
to be held at reset), and nothing else. A FIXED entry without a reason, or for a pin
the profile does not use, is an error.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOARDS = os.path.join(ROOT, "boards")

_ESP32_PINS = set(range(0, 20)) | {21, 22, 23, 25, 26, 27} | set(range(32, 40))
_S3_PINS = set(range(0, 22)) | set(range(26, 49))
_ESP32_ADC = {0, 2, 4, 12, 13, 14, 15, 25, 26, 27} | set(range(32, 40))
_S3_ADC = set(range(1, 21))

# Strapping pins: pin -> (levels at reset that break boot, why).
_STRAP = {
    "esp32": {
        0: ({"low"}, "GPIO0 low at reset starts the serial bootloader instead of the firmware"),
        2: ({"high"}, "GPIO2 high at reset keeps the chip out of the serial bootloader, "
                      "so flashing fails"),
        5: (set(), "SDIO timing strap only"),
        12: ({"high"}, "GPIO12 (MTDI) high at reset selects 1.8 V flash: a 3.3 V-flash "
                       "module does not boot"),
        15: (set(), "GPIO15 low only silences the boot log"),
    },
    "esp32s3": {
        0: ({"low"}, "GPIO0 low at reset starts the serial bootloader instead of the firmware"),
        3: (set(), "JTAG source strap, read only when an eFuse asks"),
        45: ({"high"}, "GPIO45 high at reset selects 1.8 V flash: a 3.3 V-flash module "
                       "does not boot"),
        46: ({"high"}, "GPIO46 high at reset is an invalid boot mode with GPIO0 low "
                       "(flashing fails)"),
    },
}
# The chip's own pull at reset on strapping pins (what a floating pin reads).
_DEFAULT = {"esp32": {0: "high", 2: "low", 5: "high", 12: "low", 15: "high"},
            "esp32s3": {0: "high", 3: "low", 45: "low", 46: "low"}}

_ADDRS = {"ssd1306": (0x3C, 0x3D), "sh1106": (0x3C, 0x3D), "mpu6050": (0x68, 0x69),
          "mpu6886": (0x68, 0x69), "lis3dh": (0x18, 0x19)}
_BUTTONS = ("PREV", "NEXT", "OK", "BACK")


def load(path):
    """A profile file's module-level names as a dict."""
    ns = {}
    with open(path) as f:
        exec(compile(f.read(), path, "exec"), ns)
    return {k: v for k, v in ns.items() if not k.startswith("_")}


class _Use:
    def __init__(self, pin, role, out, levels):
        self.pin = pin
        self.role = role
        self.out = out            # drives the pin (or needs it to drive: I2C)
        self.levels = levels      # levels the wiring can impose at reset


def _uses(p, errors):
    """Every pin use in profile dict p, with its electrical kind."""
    uses = []
    bus = p.get("I2C") or {}
    for k in ("sda", "scl"):
        if bus.get(k) is None:
            errors.append("I2C: no %s pin" % k)
        else:
            uses.append(_Use(bus[k], "I2C %s" % k.upper(), True, {"high"}))
    d = p.get("DISPLAY") or {}
    if d.get("reset") is not None:
        uses.append(_Use(d["reset"], "display reset", True, {"high"}))
    if d.get("power") is not None:
        lvl = d.get("power_level", 0)
        uses.append(_Use(d["power"], "display power", True, {"high" if lvl == 0 else "low"}))
    for name, spec in (p.get("BUTTONS") or {}).items():
        if not isinstance(spec, (tuple, list)) or len(spec) != 2:
            errors.append("BUTTONS %s: expected (pin, 'internal' | 'external')" % name)
            continue
        pin, pull = spec
        if pull == "internal":
            uses.append(_Use(pin, "button %s, internal pull-up" % name, False,
                             {"default", "low"}))
        else:
            uses.append(_Use(pin, "button %s, external pull-up" % name, False,
                             {"high", "low"}))
    if p.get("BUZZER") is not None:
        uses.append(_Use(p["BUZZER"], "buzzer", True, {"default", "low"}))
    sh = p.get("SHAKE") or {}
    if sh.get("pin") is not None:
        pull = sh.get("pull", "internal")
        lv = {"default", "low"} if pull == "internal" else {"high", "low"}
        uses.append(_Use(sh["pin"], "shake switch, %s pull-up" % pull, False, lv))
    bat = p.get("BATTERY") or {}
    if bat.get("pin") is not None:
        uses.append(_Use(bat["pin"], "battery ADC", False, {"high", "low"}))
    if bat.get("ctrl") is not None:
        uses.append(_Use(bat["ctrl"], "battery divider switch", True, {"high", "low"}))
    return uses


def _shape(p, errors):
    """Keys and values that hal.devices relies on."""
    for k in ("NAME", "CHIP", "I2C", "DISPLAY", "BUTTONS", "BUZZER", "SHAKE", "BATTERY"):
        if k not in p:
            errors.append("missing %s" % k)
    if p.get("CHIP") not in ("esp32", "esp32s3", "host"):
        errors.append("CHIP must be 'esp32', 'esp32s3' or 'host', not %r" % (p.get("CHIP"),))
    bus = p.get("I2C") or {}
    f = bus.get("freq", 400000)  # hal.devices' default
    if not isinstance(f, int) or not 100000 <= f <= 1000000:
        errors.append("I2C freq must be 100000-1000000 Hz (400000: the default), "
                      "not %r" % (f,))
    elif f > 400000 and not bus.get("freq_source"):
        # Fast-mode Plus is beyond the SSD1306/SH1106 datasheets' 400 kHz: a board that
        # runs its panel faster names where that fact comes from.
        errors.append("I2C freq %d above 400000 needs a freq_source (where the panel is "
                      "known to run at it)" % f)
    d = p.get("DISPLAY") or {}
    if d.get("type") not in ("ssd1306", "sh1106"):
        errors.append("DISPLAY type must be 'ssd1306' or 'sh1106', not %r" % (d.get("type"),))
    if (d.get("width", 128), d.get("height", 64)) not in ((128, 64), (128, 32)):
        errors.append("DISPLAY must be 128x64 or 128x32")
    if d.get("rotate", 0) not in (0, 180):
        errors.append("DISPLAY rotate must be 0 or 180")
    if d.get("power_level", 0) not in (0, 1):
        errors.append("DISPLAY power_level must be 0 or 1")
    b = p.get("BUTTONS") or {}
    for name in b:
        if name not in _BUTTONS:
            errors.append("BUTTONS: unknown button %r (PREV, NEXT, OK, BACK)" % (name,))
        elif isinstance(b[name], (tuple, list)) and len(b[name]) == 2 and \
                b[name][1] not in ("internal", "external"):
            errors.append("BUTTONS %s: pull-up must be 'internal' or 'external'" % name)
    if "OK" not in b:
        errors.append("BUTTONS: an OK button is required")
    if len([n for n in b if n in _BUTTONS]) < 3:
        errors.append("BUTTONS: at least PREV, NEXT and OK are needed")
    sh = p.get("SHAKE") or {}
    t = sh.get("type")
    if t not in (None, "mpu6050", "mpu6886", "lis3dh", "switch"):
        errors.append("SHAKE type %r unknown" % (t,))
    if t == "switch" and sh.get("pin") is None:
        errors.append("SHAKE switch needs a pin")
    if t not in (None, "switch") and sh.get("range", 8) not in (4, 8):
        errors.append("SHAKE range must be 4 or 8 (g)")
    if not 1 <= sh.get("sensitivity", 3) <= 5:
        errors.append("SHAKE sensitivity must be 1..5")
    fixed = p.get("FIXED", {})
    if not isinstance(fixed, dict):
        errors.append("FIXED must be a dict {pin: reason}")


def _addresses(p, errors):
    found = {}
    d = p.get("DISPLAY") or {}
    sh = p.get("SHAKE") or {}
    devs = [("display %s" % d.get("type"), d.get("type"), d.get("addr", 0x3C))]
    if sh.get("type") in ("mpu6050", "mpu6886", "lis3dh"):
        dflt = 0x18 if sh["type"] == "lis3dh" else 0x68
        devs.append(("shake sensor %s" % sh["type"], sh["type"], sh.get("addr", dflt)))
    for extra_addr, extra_name in (p.get("I2C_EXTRA") or {}).items():
        devs.append((extra_name, None, extra_addr))
    for role, kind, addr in devs:
        if kind in _ADDRS and addr not in _ADDRS[kind]:
            errors.append("I2C 0x%02X (%s): a %s answers only at %s" % (
                addr, role, kind, " or ".join("0x%02X" % a for a in _ADDRS[kind])))
        if addr in found:
            errors.append("I2C 0x%02X: two devices on one address (%s and %s)" % (
                addr, found[addr], role))
        else:
            found[addr] = role


def check(profile):
    """All problems with one profile (a dict or a module), as messages."""
    if not isinstance(profile, dict):
        profile = {k: getattr(profile, k) for k in dir(profile) if not k.startswith("_")}
    p = profile
    errors = []
    _shape(p, errors)
    uses = _uses(p, errors)
    chip = p.get("CHIP")
    fixed = p.get("FIXED") or {}
    if not isinstance(fixed, dict):
        fixed = {}

    by_pin = {}
    for u in uses:
        if not isinstance(u.pin, int) or isinstance(u.pin, bool):
            errors.append("%s: pin %r is not a GPIO number" % (u.role, u.pin))
            continue
        if u.pin in by_pin:
            errors.append("GPIO%d (%s): used twice, also by %s" % (u.pin, u.role, by_pin[u.pin].role))
        else:
            by_pin[u.pin] = u
        errors.extend(_pin_rules(chip, p, u, fixed))

    for pin, why in fixed.items():
        if not isinstance(why, str) or not why.strip():
            errors.append("GPIO%s: FIXED needs a reason (what on the board is wired there)" % (pin,))
        if pin not in by_pin:
            errors.append("GPIO%s: listed in FIXED but not used by the profile" % (pin,))
    _addresses(p, errors)
    return errors


def _pin_rules(chip, p, u, fixed):
    n = u.pin
    tag = "GPIO%d (%s)" % (n, u.role)
    if chip == "esp32":
        if n not in _ESP32_PINS:
            return ["%s: the ESP32 has no GPIO%d" % (tag, n)]
        if 6 <= n <= 11:
            return ["%s: connected to the SPI flash (GPIO6-11)" % tag]
        out = []
        if n in (1, 3):
            out.append("%s: UART0 %s, used by the REPL and the serial bootloader"
                       % (tag, "TX" if n == 1 else "RX"))
        if 34 <= n <= 39:
            if u.out:
                out.append("%s: input-only pin (GPIO34-39) cannot drive an output" % tag)
            elif "internal" in u.role:
                out.append("%s: input-only pin (GPIO34-39) has no internal pull-up; "
                           "wire an external one and say 'external'" % tag)
        if u.role == "battery ADC" and n not in _ESP32_ADC:
            out.append("%s: no ADC on this pin" % tag)
        out.extend(_strap(chip, u, tag, fixed))
        return out
    if chip == "esp32s3":
        if n not in _S3_PINS:
            return ["%s: the ESP32-S3 has no GPIO%d" % (tag, n)]
        if 26 <= n <= 32:
            return ["%s: connected to the SPI flash / PSRAM (GPIO26-32)" % tag]
        if 33 <= n <= 37 and p.get("PSRAM") == "octal":
            return ["%s: used by the octal PSRAM (GPIO33-37)" % tag]
        out = []
        if n in (43, 44):
            out.append("%s: UART0 %s, used by the REPL and the serial bootloader"
                       % (tag, "TX" if n == 43 else "RX"))
        if u.role == "battery ADC" and n not in _S3_ADC:
            out.append("%s: no ADC on this pin" % tag)
        out.extend(_strap(chip, u, tag, fixed))
        return out
    if n < 0:
        return ["%s: negative pin number" % tag]
    return []


def _strap(chip, u, tag, fixed):
    entry = _STRAP.get(chip, {}).get(u.pin)
    if entry is None:
        return []
    bad, why = entry
    levels = set(u.levels)
    if "default" in levels:
        levels.discard("default")
        levels.add(_DEFAULT[chip][u.pin])
    hit = levels & bad
    if not hit:
        return []
    reason = fixed.get(u.pin)
    if isinstance(reason, str) and reason.strip():
        return []  # the board's own wiring, with its reason
    return ["%s: strapping pin: the wiring can hold it %s at reset, and %s" % (
        tag, "/".join(sorted(hit)), why)]


def _paths(argv):
    if not argv:
        return sorted(os.path.join(BOARDS, f) for f in os.listdir(BOARDS)
                      if f.endswith(".py") and not f.startswith("_"))
    out = []
    for a in argv:
        if os.path.exists(a):
            out.append(a)
        else:
            out.append(os.path.join(BOARDS, a if a.endswith(".py") else a + ".py"))
    return out


def main(argv):
    bad = 0
    names = []
    for path in _paths(argv):
        rel = os.path.relpath(path, ROOT)
        try:
            prof = load(path)
        except (OSError, SyntaxError) as e:
            print("%s: cannot read: %s" % (rel, e))
            bad += 1
            continue
        errs = check(prof)
        for e in errs:
            print("%s: %s" % (rel, e))
        if errs:
            bad += 1
        names.append(os.path.basename(path)[:-3])
    if bad:
        print("check_board: %d of %d profiles have problems" % (bad, len(names)))
        return 1
    print("check_board: %d profile%s OK (%s)" % (len(names), "" if len(names) == 1 else "s",
                                               ", ".join(names)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
