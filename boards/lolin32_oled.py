"""Wemos LOLIN32 with the onboard 0.96" SSD1306 128x64 (SDA 5, SCL 4, no reset line).
Add three buttons to GND (BACK is a long press of OK), a piezo and an MPU6050 on the
OLED's bus. Profile format: boards/esp32_devkit.py.
"""
NAME = "LOLIN32 OLED"
CHIP = "esp32"
I2C = {"id": 0, "sda": 5, "scl": 4, "freq": 400000}
DISPLAY = {"type": "ssd1306", "width": 128, "height": 64, "addr": 0x3C,
           "reset": None, "power": None, "power_level": 0, "rotate": 0}
BUTTONS = {"PREV": (32, "internal"), "NEXT": (33, "internal"), "OK": (25, "internal")}
BUZZER = 27
SHAKE = {"type": "mpu6050", "addr": 0x68, "pin": None, "range": 8, "sensitivity": 3,
         "scale": 100}
BATTERY = None
FIXED = {
    5: "onboard OLED SDA (pulled up: GPIO5 high at reset is its default)",
    4: "onboard OLED SCL",
}
