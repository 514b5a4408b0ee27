"""The host simulation (tools/sim/machine.py): the reference build's wiring on a
simulated chip. Profile format: boards/esp32_devkit.py.
"""
NAME = "Simulator"
CHIP = "host"
I2C = {"id": 0, "sda": 21, "scl": 22, "freq": 400000}
DISPLAY = {"type": "ssd1306", "width": 128, "height": 64, "addr": 0x3C,
           "reset": None, "power": None, "power_level": 0, "rotate": 0}
BUTTONS = {"PREV": (32, "internal"), "NEXT": (33, "internal"),
           "OK": (25, "internal"), "BACK": (26, "internal")}
BUZZER = 27
SHAKE = {"type": "mpu6050", "addr": 0x68, "pin": None, "range": 8, "sensitivity": 3,
         "scale": 100}
BATTERY = None
FIXED = {}
