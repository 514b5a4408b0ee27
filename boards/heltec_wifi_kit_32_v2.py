"""Heltec WiFi Kit 32 V2: ESP32 with an onboard SSD1306 128x64 (SDA 4, SCL 15, RST 16)
and the PRG button on GPIO0. Add three buttons to GND, a piezo and an MPU6050 on the
OLED's bus (GPIO4/15 are on the header). Profile format: boards/esp32_devkit.py.
"""
NAME = "Heltec WiFi Kit 32 V2"
CHIP = "esp32"
# Heltec's Wifi Kit 32 hardware update log (docs.heltec.org/en/node/esp32/wifi_kit_32/
# hardware_update_log.html), V2: "4MB (32M-bits) FLASH upgrade to 8MB (64M-bits) FLASH".
# The filesystem image must be made for the flash the chip has (tools/flashing/image.py).
FLASH_MB = 8
I2C = {"id": 0, "sda": 4, "scl": 15, "freq": 400000}
DISPLAY = {"type": "ssd1306", "width": 128, "height": 64, "addr": 0x3C,
           "reset": 16, "power": None, "power_level": 0, "rotate": 0}
BUTTONS = {"PREV": (32, "internal"), "NEXT": (33, "internal"),
           "OK": (27, "internal"),
           "BACK": (0, "external")}   # the onboard PRG button (10k pull-up on the board)
BUZZER = 26
SHAKE = {"type": "mpu6050", "addr": 0x68, "pin": None, "range": 8, "sensitivity": 3,
         "scale": 100}
# The V2's battery divider moved between revisions (GPIO13 / GPIO37, switched by
# GPIO21): measure yours before filling this in.
BATTERY = None
FIXED = {
    0: "onboard PRG button with its own pull-up: held at reset it selects the "
       "bootloader, which is what the button is for",
    4: "onboard OLED SDA",
    15: "onboard OLED SCL (pulled up: GPIO15 high at reset keeps the boot log on)",
    16: "onboard OLED reset",
}
