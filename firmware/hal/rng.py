"""Random bytes for core.dice.Dice: os.urandom, the ESP32's hardware RNG (true random
while the radio or the bootloader's entropy source runs; on the host, the OS's)."""
from os import urandom as source  # noqa: F401  (hal.devices hands out os.urandom itself)
