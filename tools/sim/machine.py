"""The simulated `machine` module: a board on the host, for CPython and the MicroPython
unix port.

Put tools/sim on sys.path and `import machine` gets this file. On the unix port the
built-in `machine` is an extensible module, so a machine.py found on sys.path wins
over it (checked by host_tests/test_hal_sim.py); the port's own stays reachable as
`umachine`.

The classes follow the ESP32 port: Pin, Signal, I2C, SoftI2C, PWM, ADC, WDT and the
functions reset, soft_reset, deepsleep, lightsleep, freq, unique_id, reset_cause,
wake_reason, idle, disable_irq, enable_irq.

`SIM` is the simulated world around the chip, built from a board profile
(`SIM.configure(profile)`, a module, object, dict or name in boards/; default
boards/sim.py):
- `SIM.oled`: the panel model (tools/sim/oled_model.py): `pixel(x, y)`, `frame()`,
  `on`, `contrast`, `bytes_rx`, `text()`. Powered only while the profile's power pin
  is at its power level, held in reset while the reset pin is low (both when the
  profile has them); power-up and reset clear its registers and fill RAM with noise.
- `SIM.accel`: MPU6050/MPU6886/LIS3DH register model, or None; `SIM.motion` its motion
  source (tools/sim/accel_model.py: `SIM.play(trace)` plays a scripted trace).
- `SIM.press(name, bounce=0)` / `SIM.release(name, bounce=0)` ("PREV", "NEXT", "OK",
  "BACK"): the button's pin goes low / is let go; `bounce` extra toggles first, each
  firing the pin's IRQ like a real contact.
- `SIM.shake(on)`: the accelerometer reports vigorous motion while on; a vibration
  switch chatters (each read of its pin first toggles it 4 times).
- `SIM.pwm`: the buzzer's PWM recorder: `freq`, `duty` (duty_u16), `log` of
  (freq, duty) changes.
- `SIM.fail(addr, on=True, err=19)`: the I2C device at addr stops answering with
  OSError(err) (19 ENODEV, 110 ETIMEDOUT) until `fail(addr, False)`.
- `SIM.i2c_log`: recent transactions as (addr, "w" | "r", bytes).
- `SIM.pin(n)`: the state of GPIO n (`level()`, `drive(level)` from outside,
  `release()`), `SIM.adc_uv[pin] = microvolts` for ADC reads.
- Hooks: `SIM.on_reset`, `SIM.on_deepsleep(ms)`, `SIM.on_lightsleep(ms)`; without a hook
  reset() and deepsleep() raise SystemExit and lightsleep() returns at once. Calls are
  counted in `SIM.resets` and recorded in `SIM.sleeps` as ("light" | "deep", ms).
Logs are bounded so a long run does not grow the heap.
"""
import accel_model
import oled_model

ENODEV = 19
ETIMEDOUT = 110

PWRON_RESET = 1
HARD_RESET = 2
WDT_RESET = 3
DEEPSLEEP_RESET = 4
SOFT_RESET = 5
PIN_WAKE = 2
EXT0_WAKE = 2
EXT1_WAKE = 3
TIMER_WAKE = 4
TOUCHPAD_WAKE = 5
ULP_WAKE = 6
IDLE = 0
SLEEP = 2
DEEPSLEEP = 4

_LOG_MAX = 512


def _bounded_append(log, item):
    if len(log) >= _LOG_MAX:
        del log[:_LOG_MAX // 2]
    log.append(item)


def _pin_no(p):
    if p is None:
        return None
    if isinstance(p, Pin):
        return p.id
    return p


# ---- pins ---------------------------------------------------------------------------

class PinState:
    """One GPIO of the simulated chip, shared by every Pin object made for it."""

    def __init__(self, n):
        self.n = n
        self.mode = None     # Pin.IN / OUT / OPEN_DRAIN, None until configured
        self.pull = None     # internal pull set by the firmware
        self.ext_pull = None  # 1: external pull-up resistor on the board, 0: pull-down
        self.out = 0
        self.ext = None      # level driven from outside (a closed button: 0)
        self.handler = None
        self.trigger = 0
        self.pin_obj = None
        self.chatter = 0     # toggles made by each read (a vibration switch being shaken)
        self.watchers = []   # callables(state, old, new) run on level changes
        self.edges = 0

    def level(self):
        if self.mode == Pin.OUT:
            return self.out
        if self.mode == Pin.OPEN_DRAIN and self.out == 0:
            return 0
        if self.ext is not None:
            return self.ext
        if self.pull == Pin.PULL_UP or self.ext_pull == 1:
            return 1
        return 0  # pulled down or floating

    def _changed(self, old):
        new = self.level()
        if new == old:
            return
        self.edges += 1
        for w in self.watchers:
            w(self, old, new)
        h = self.handler
        if h is not None:
            if (new == 0 and self.trigger & Pin.IRQ_FALLING) or \
                    (new == 1 and self.trigger & Pin.IRQ_RISING):
                h(self.pin_obj)

    def drive(self, level):
        """Drive the pin from outside (None lets go)."""
        old = self.level()
        self.ext = level
        self._changed(old)

    def release(self):
        self.drive(None)

    def set_out(self, v):
        old = self.level()
        self.out = 1 if v else 0
        self._changed(old)

    def configure(self, mode, pull):
        old = self.level()
        if mode is not None:
            self.mode = mode
        if pull is not None:
            self.pull = pull
        self._changed(old)

    def read(self):
        if self.chatter:
            for _ in range(self.chatter):
                cur = self.level()
                self.drive(1 - cur)
        return self.level()


def _input_only(n):
    """GPIO34-39 of an ESP32 profile are input only ("host" profiles, like
    tools/flashing/check_board.py, get the generic rules only)."""
    chip = _get(SIM.profile, "CHIP", "host") if SIM.profile is not None else "host"
    return chip == "esp32" and isinstance(n, int) and 34 <= n <= 39


class _Irq:
    def __init__(self, state):
        self._s = state

    def trigger(self):
        return self._s.trigger

    def flags(self):
        return 0


class Pin:
    IN = 1
    OUT = 3
    OPEN_DRAIN = 7
    PULL_UP = 2
    PULL_DOWN = 1
    PULL_HOLD = 4
    IRQ_RISING = 1
    IRQ_FALLING = 2
    WAKE_LOW = 4
    WAKE_HIGH = 5
    DRIVE_0 = 0
    DRIVE_1 = 1
    DRIVE_2 = 2
    DRIVE_3 = 3

    def __init__(self, id, mode=-1, pull=-1, value=None, drive=None, hold=None):
        self.id = id
        self._s = SIM.pin(id)
        self.init(mode, pull, value)

    def init(self, mode=-1, pull=-1, value=None, drive=None, hold=None):
        s = self._s
        if _input_only(self.id):
            # ESP32 GPIO34-39: the port refuses output modes; there are no pull
            # resistors, so a pull request leaves the pin floating.
            if mode in (Pin.OUT, Pin.OPEN_DRAIN):
                raise ValueError("pin can only be input")
            pull = -1
        if value is not None:
            s.out = 1 if value else 0
        s.configure(None if mode == -1 else mode, None if pull == -1 else (pull or 0))

    def value(self, v=None):
        if v is None:
            return self._s.read()
        self._s.set_out(v)
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self._s.set_out(1)

    def off(self):
        self._s.set_out(0)

    def mode(self, m=None):
        if m is None:
            return self._s.mode
        self.init(m)

    def pull(self, p=None):
        if p is None:
            return self._s.pull
        self.init(-1, p)

    def irq(self, handler=None, trigger=3, wake=None, hard=False):
        s = self._s
        s.handler = handler
        s.trigger = trigger if handler is not None else 0
        s.pin_obj = self
        return _Irq(s)

    def __repr__(self):
        return "Pin(%s)" % (self.id,)


class Signal:
    def __init__(self, pin, *args, invert=False):
        if not isinstance(pin, Pin):
            pin = Pin(pin, *args)
        self.pin = pin
        self.invert = invert

    def value(self, v=None):
        if v is None:
            return self.pin.value() ^ (1 if self.invert else 0)
        self.pin.value((1 if v else 0) ^ (1 if self.invert else 0))

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


# ---- I2C ----------------------------------------------------------------------------

class I2C:
    def __init__(self, id=-1, scl=None, sda=None, freq=400000, timeout=50000):
        self.id = id
        self.scl = _pin_no(scl)
        self.sda = _pin_no(sda)
        self.freq = freq

    def init(self, scl=None, sda=None, freq=400000, timeout=50000):
        if scl is not None:
            self.scl = _pin_no(scl)
        if sda is not None:
            self.sda = _pin_no(sda)
        self.freq = freq

    def deinit(self):
        pass

    def _wired(self):
        # Buses on other pins than the profile's reach no device.
        return (self.scl is None or self.scl == SIM.scl) and \
            (self.sda is None or self.sda == SIM.sda)

    def _dev(self, addr):
        if not self._wired():
            raise OSError(ENODEV)
        return SIM.device(addr)

    def scan(self):
        if not self._wired():
            return []
        return [a for a in sorted(SIM.devices) if SIM.answers(a)]

    def writeto(self, addr, buf, stop=True):
        dev = self._dev(addr)
        data = bytes(buf)
        SIM.log(addr, "w", data)
        dev.write(data)
        return len(data)

    def writevto(self, addr, vector, stop=True):
        dev = self._dev(addr)
        if not SIM.log_i2c and hasattr(dev, "write_parts"):
            # No joined copy: under a heap fence it would come out of the firmware's
            # share, where the device's C call takes nothing (a frame's 1,025 bytes).
            dev.write_parts(vector)
            n = 0
            for b in vector:
                n += len(b)
            return n
        data = b"".join(bytes(b) for b in vector)
        SIM.log(addr, "w", data)
        dev.write(data)
        return len(data)

    def readfrom(self, addr, nbytes, stop=True):
        dev = self._dev(addr)
        data = dev.read(nbytes)
        SIM.log(addr, "r", data)
        return data

    def readfrom_into(self, addr, buf, stop=True):
        data = self.readfrom(addr, len(buf))
        for i in range(len(buf)):
            buf[i] = data[i]

    def writeto_mem(self, addr, memaddr, buf, addrsize=8):
        self.writeto(addr, bytes((memaddr & 0xFF,)) + bytes(buf))

    def readfrom_mem(self, addr, memaddr, nbytes, addrsize=8):
        self.writeto(addr, bytes((memaddr & 0xFF,)), False)
        return self.readfrom(addr, nbytes)

    def readfrom_mem_into(self, addr, memaddr, buf, addrsize=8):
        self.writeto(addr, bytes((memaddr & 0xFF,)), False)
        self.readfrom_into(addr, buf)


class SoftI2C(I2C):
    pass


# ---- PWM, ADC, WDT --------------------------------------------------------------------

class PwmRecorder:
    """What the buzzer pin carries: current freq and duty_u16, and a log of changes."""

    def __init__(self):
        self.pin = None
        self.freq = 0
        self.duty = 0
        self.active = False
        self.log = []
        self.changes = 0

    def set(self, freq, duty):
        if freq == self.freq and duty == self.duty:
            return
        self.freq = freq
        self.duty = duty
        self.changes += 1
        _bounded_append(self.log, (freq, duty))

    def sounding(self):
        return self.active and self.duty > 0 and self.freq > 0


class PWM:
    def __init__(self, dest, freq=None, duty=None, duty_u16=None, duty_ns=None, invert=False):
        self.pin = _pin_no(dest)
        self._freq = 5000
        self._duty = 32768  # the ESP32 port starts at 50 % unless told otherwise
        rec = SIM.pwm
        rec.pin = self.pin
        rec.active = True
        self.init(freq, duty, duty_u16, duty_ns)

    def init(self, freq=None, duty=None, duty_u16=None, duty_ns=None, invert=False):
        if freq is not None:
            self._freq = int(freq)
        if duty is not None:
            self._duty = int(duty) * 65535 // 1023
        if duty_u16 is not None:
            self._duty = int(duty_u16)
        if duty_ns is not None:
            self._duty = min(65535, int(duty_ns) * self._freq * 65535 // 1000000000)
        self._rec()

    def _rec(self):
        if not 0 <= self._duty <= 65535:
            raise ValueError("duty_u16 must be 0..65535")
        if self._freq <= 0 or self._freq > 40000000:
            raise ValueError("freq out of range")
        SIM.pwm.set(self._freq, self._duty)

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = int(f)
        self._rec()

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = int(d)
        self._rec()

    def duty(self, d=None):
        if d is None:
            return self._duty * 1023 // 65535
        self._duty = int(d) * 65535 // 1023
        self._rec()

    def duty_ns(self, ns=None):
        if ns is None:
            return self._duty * 1000000000 // 65535 // max(1, self._freq)
        self.init(duty_ns=ns)

    def deinit(self):
        SIM.pwm.set(self._freq, 0)
        SIM.pwm.active = False


class ADC:
    ATTN_0DB = 0
    ATTN_2_5DB = 1
    ATTN_6DB = 2
    ATTN_11DB = 3
    WIDTH_9BIT = 0
    WIDTH_10BIT = 1
    WIDTH_11BIT = 2
    WIDTH_12BIT = 3

    def __init__(self, pin, atten=None):
        self.pin = _pin_no(pin)
        self._atten = 0 if atten is None else atten

    def atten(self, a):
        self._atten = a

    def width(self, w):
        pass

    def read_uv(self):
        return SIM.adc_uv.get(self.pin, 0)

    def read_u16(self):
        full = (950000, 1250000, 1750000, 3100000)[self._atten]
        return min(65535, self.read_uv() * 65535 // full)

    def read(self):
        return self.read_u16() >> 4


class WDT:
    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.feeds = 0
        SIM.wdt = self

    def feed(self):
        self.feeds += 1


# ---- functions ----------------------------------------------------------------------

def reset():
    SIM.resets += 1
    if SIM.on_reset is not None:
        return SIM.on_reset()
    raise SystemExit("machine.reset()")


def soft_reset():
    reset()


def deepsleep(ms=0):
    _bounded_append(SIM.sleeps, ("deep", ms))
    if SIM.on_deepsleep is not None:
        return SIM.on_deepsleep(ms)
    raise SystemExit("machine.deepsleep(%d)" % ms)


def lightsleep(ms=0):
    _bounded_append(SIM.sleeps, ("light", ms))
    if SIM.on_lightsleep is not None:
        return SIM.on_lightsleep(ms)
    return None


def freq(hz=None):
    if hz is None:
        return 240000000
    return None


def unique_id():
    return b"\x30\xae\xa4\x5d\x1c\x01"


def reset_cause():
    return SIM.reset_cause


def wake_reason():
    return SIM.wake_reason


def idle():
    pass


def disable_irq():
    return 0


def enable_irq(state=0):
    pass


# ---- the simulated world ---------------------------------------------------------------

class _Profile:
    """A board profile read from a file or a dict: attributes like a module."""

    def __init__(self, d):
        for k in d:
            if k[:1] != "_":
                setattr(self, k, d[k])


# The same board as boards/sim.py, for when that file is not beside us (emulated board).
_DEFAULT = {
    "NAME": "Simulator", "CHIP": "host",
    "I2C": {"id": 0, "sda": 21, "scl": 22, "freq": 400000},
    "DISPLAY": {"type": "ssd1306", "width": 128, "height": 64, "addr": 0x3C,
                "reset": None, "power": None, "power_level": 0, "rotate": 0},
    "BUTTONS": {"PREV": (32, "internal"), "NEXT": (33, "internal"),
                "OK": (25, "internal"), "BACK": (26, "internal")},
    "BUZZER": 27,
    "SHAKE": {"type": "mpu6050", "addr": 0x68, "pin": None, "sensitivity": 3},
    "BATTERY": None,
}


def _here():
    f = globals().get("__file__", "machine.py")
    i = f.rfind("/")
    return f[:i] if i >= 0 else "."


def load_profile(name):
    """A board profile by name ("esp32_devkit") or path, read from boards/."""
    path = name
    if "/" not in name and not name.endswith(".py"):
        path = _here() + "/../../boards/" + name + ".py"
    ns = {}
    with open(path) as f:
        src = f.read()
    exec(src, ns)
    return _Profile(ns)


def _get(profile, key, default=None):
    if isinstance(profile, dict):
        return profile.get(key, default)
    return getattr(profile, key, default)


class World:
    def __init__(self):
        self.profile = None
        self.resets = 0
        self.on_reset = None
        self.on_deepsleep = None
        self.on_lightsleep = None
        self.reset_cause = PWRON_RESET
        self.wake_reason = 0
        self._clear()

    def _clear(self):
        self.pins = {}
        self.devices = {}
        self.faults = {}
        self.i2c_log = []
        self.sleeps = []
        self.pwm = PwmRecorder()
        self.wdt = None
        self.adc_uv = {}
        self.oled = None
        self.accel = None
        self.motion = accel_model.Motion()
        self.buttons = {}
        self.switch = None
        self.sda = None
        self.scl = None
        self.log_i2c = True

    # -- building --

    def configure(self, profile=None):
        """Rebuild the world (pins, bus, panel, sensor, buttons) for a board profile."""
        if profile is None:
            try:
                profile = load_profile("sim")
            except OSError:
                profile = _Profile(_DEFAULT)
        elif isinstance(profile, str):
            profile = load_profile(profile)
        elif isinstance(profile, dict):
            profile = _Profile(profile)
        self.profile = profile
        self._clear()
        bus = _get(profile, "I2C") or {}
        self.sda = bus.get("sda")
        self.scl = bus.get("scl")
        disp = _get(profile, "DISPLAY")
        if disp:
            o = oled_model.Oled(disp.get("type", "ssd1306"), disp.get("width", 128),
                                disp.get("height", 64), disp.get("addr", 0x3C))
            self.oled = o
            self.devices[o.addr] = o
            o.powered = True
            o.in_reset = False
            pw = disp.get("power")
            if pw is not None:
                level = disp.get("power_level", 0)
                o.powered = False
                self.pin(pw).watchers.append(self._power_watch(o, level))
            rs = disp.get("reset")
            if rs is not None:
                o.in_reset = True  # RES# low until the firmware drives it high
                self.pin(rs).watchers.append(self._reset_watch(o))
        sh = _get(profile, "SHAKE") or {}
        kind = sh.get("type")
        if kind in (accel_model.MPU6050, accel_model.MPU6886):
            self.accel = accel_model.MPU(sh.get("addr", 0x68), self.motion, kind)
        elif kind == accel_model.LIS3DH:
            self.accel = accel_model.LIS3DHModel(sh.get("addr", 0x18), self.motion)
        elif kind == "switch":
            st = self.pin(sh["pin"])
            if sh.get("pull", "internal") == "external":
                st.ext_pull = 1
            self.switch = st
        if self.accel is not None:
            self.devices[self.accel.addr] = self.accel
        for name, spec in (_get(profile, "BUTTONS") or {}).items():
            n, pull = spec[0], spec[1]
            st = self.pin(n)
            if pull == "external":
                st.ext_pull = 1
            self.buttons[name] = st
        return self

    def _power_watch(self, o, level):
        def w(state, old, new):
            was = o.powered
            o.powered = state.mode == Pin.OUT and new == level
            if o.powered and not was:
                o.reset()
        return w

    def _reset_watch(self, o):
        def w(state, old, new):
            o.in_reset = new == 0
            if new == 1 and old == 0:
                o.reset()
        return w

    # -- parts --

    def pin(self, n):
        st = self.pins.get(n)
        if st is None:
            st = self.pins[n] = PinState(n)
        return st

    def answers(self, addr):
        dev = self.devices.get(addr)
        if dev is None or addr in self.faults:
            return False
        if getattr(dev, "powered", True) is False or getattr(dev, "in_reset", False):
            return False
        return True

    def device(self, addr):
        if addr in self.faults:
            raise OSError(self.faults[addr])
        if not self.answers(addr):
            raise OSError(ENODEV)
        return self.devices[addr]

    def log(self, addr, kind, data):
        if self.log_i2c:
            _bounded_append(self.i2c_log, (addr, kind, data))

    # -- the test interface --

    def _button(self, name):
        st = self.buttons.get(name)
        if st is None:
            raise ValueError("this board has no %s button" % name)
        return st

    def press(self, name, bounce=0):
        st = self._button(name)
        for i in range(bounce * 2):
            st.drive(0 if i % 2 == 0 else None)
        st.drive(0)

    def release(self, name, bounce=0):
        st = self._button(name)
        for i in range(bounce * 2):
            st.drive(None if i % 2 == 0 else 0)
        st.drive(None)

    def pressed(self, name):
        return self._button(name).ext == 0

    def shake(self, on):
        self.motion.shake(on)
        if self.switch is not None:
            self.switch.chatter = 4 if on else 0

    def play(self, trace):
        self.motion.play(trace)

    def fail(self, addr, on=True, err=ENODEV):
        if on:
            self.faults[addr] = err
        elif addr in self.faults:
            del self.faults[addr]


SIM = World()
SIM.configure()
