"""ESP32 DevKitC (WROOM-32) reference build: SSD1306 128x64 and MPU6050 on one I2C bus,
4 buttons to GND, a passive piezo. Wiring table: boards/WIRING.md.

Profile format (data only; hal.devices reads it, tools/flashing/check_board.py validates it):
NAME, CHIP ("esp32" | "esp32s3" | "host"),
FLASH_MB (optional: the flash size, for tools/flashing/image.py; 4 on ESP32, 8 on ESP32-S3 if
         absent: a filesystem image only mounts on the flash size it was made for),
I2C {"id", "sda", "scl", "freq"},
DISPLAY {"type": "ssd1306" | "sh1106", "width", "height", "addr", "reset", "power",
         "power_level" (level that powers the panel), "rotate": 0 | 180},
BUTTONS {"PREV" | "NEXT" | "OK" | "BACK": (pin, "internal" | "external" pull-up)};
         no BACK key: BACK is a long press of OK,
BUZZER pin or None,
SHAKE {"type": "mpu6050" | "mpu6886" | "lis3dh" | "switch" | None, "addr", "pin"
       (switch input or None), "pull" (switch), "range" (4 | 8 g), "sensitivity"
       (1-5, the default setting), "scale" (% applied to the thresholds, per board)},
BATTERY None or {"pin", "divider_x100", "empty_mv", "full_mv", "ctrl", "ctrl_level"},
FIXED {pin: "reason"}: pins hard-wired on the board itself (see tools/flashing/check_board.py).
"""
NAME = "ESP32 DevKitC"
CHIP = "esp32"
# GPIO21/22: the ESP32's usual I2C pins; the OLED and MPU6050 modules carry pull-ups.
I2C = {"id": 0, "sda": 21, "scl": 22, "freq": 400000}
DISPLAY = {"type": "ssd1306", "width": 128, "height": 64, "addr": 0x3C,
           "reset": None, "power": None, "power_level": 0, "rotate": 0}
# No strapping pins, all with internal pull-ups (34-39 have none).
BUTTONS = {"PREV": (32, "internal"), "NEXT": (33, "internal"),
           "OK": (25, "internal"), "BACK": (26, "internal")}
BUZZER = 27
SHAKE = {"type": "mpu6050", "addr": 0x68, "pin": None, "range": 8, "sensitivity": 3,
         "scale": 100}
# Optional: a 100k/100k divider from the battery to GPIO35 (input-only, ADC1), then
# BATTERY = {"pin": 35, "divider_x100": 200, "empty_mv": 3300, "full_mv": 4150}
BATTERY = None
FIXED = {}
