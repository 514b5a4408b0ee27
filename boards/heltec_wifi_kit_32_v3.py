"""Heltec WiFi Kit 32 V3: ESP32-S3 with an onboard SSD1306 128x64 (SDA 17, SCL 18,
RST 21) powered through Vext (GPIO36 low switches it on), PRG button on GPIO0. Add
three buttons to GND, a piezo and an MPU6050 on the OLED's bus. Profile format:
boards/esp32_devkit.py.
"""
NAME = "Heltec WiFi Kit 32 V3"
CHIP = "esp32s3"
# Heltec's hardware update log (docs.heltec.org/en/node/esp32/wifi_kit_32/
# hardware_update_log.html), V3: "MCU is changed from ESP32-D0WDQ6 to ESP32-S3FN8"
# (8 MB of flash in the package).
FLASH_MB = 8
I2C = {"id": 0, "sda": 17, "scl": 18, "freq": 400000}
DISPLAY = {"type": "ssd1306", "width": 128, "height": 64, "addr": 0x3C,
           "reset": 21, "power": 36, "power_level": 0, "rotate": 0}
BUTTONS = {"PREV": (4, "internal"), "NEXT": (5, "internal"),
           "OK": (6, "internal"),
           "BACK": (0, "external")}   # the onboard PRG button
BUZZER = 2
SHAKE = {"type": "mpu6050", "addr": 0x68, "pin": None, "range": 8, "sensitivity": 3,
         "scale": 100}
# VBAT_Read is GPIO1 behind a divider switched by ADC_Ctrl (GPIO37), whose active level
# differs between board revisions: measure yours before filling this in, e.g.
# {"pin": 1, "ctrl": 37, "ctrl_level": 0, "divider_x100": 490}.
BATTERY = None
FIXED = {
    0: "onboard PRG button with its own pull-up: held at reset it selects the "
       "bootloader, which is what the button is for",
    17: "onboard OLED SDA",
    18: "onboard OLED SCL",
    21: "onboard OLED reset",
    36: "onboard Vext switch (low powers the OLED)",
}
