# Pure game rules: no hardware, no time, no random. Runs on CPython and MicroPython.
