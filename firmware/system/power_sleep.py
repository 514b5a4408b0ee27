"""Deep sleep: loaded only when the device is about to sleep (App._deep_sleep), so it
keeps no heap before."""

# Pins that can wake an ESP32 from deep sleep (RTC GPIOs); ESP32-S3: 0-21.
_RTC_ESP32 = bytes((0, 2, 4, 12, 13, 14, 15, 25, 26, 27, 32, 33, 34, 35, 36, 37, 38, 39))


def wake_pin(pins, chip="esp32"):
    """The first of pins (numbers, OK first) that can wake the chip, or None."""
    for p in pins:
        if p is None:
            continue
        if chip == "esp32s3":
            if 0 <= p <= 21:
                return p
        elif chip == "esp32":
            if p in _RTC_ESP32:
                return p
        else:
            return p
    return None


def deep_sleep(pin_no):
    """Power down until the button on pin_no pulls low (the board then boots into
    Continue: machine.reset_cause() == DEEPSLEEP_RESET). Save the game first."""
    import machine
    if pin_no is not None:
        try:
            import esp32
            p = machine.Pin(pin_no, machine.Pin.IN, machine.Pin.PULL_UP)
            esp32.wake_on_ext0(p, esp32.WAKEUP_ALL_LOW)
        except (ImportError, AttributeError, ValueError, OSError):
            pass
    machine.deepsleep()


def sleep_app(app):
    """The app's deep sleep (App._deep_sleep): the panel off, then deep_sleep() with
    the first board button that can wake the chip (OK first)."""
    board = app.board
    pins = []
    b = getattr(board, "BUTTONS", None) or {}
    for name in ("OK", "PREV", "NEXT", "BACK"):
        v = b.get(name)
        pins.append(v[0] if v else None)
    try:
        app.display.sleep(True)
    except OSError:
        pass
    deep_sleep(wake_pin(pins, getattr(board, "CHIP", "esp32")))
