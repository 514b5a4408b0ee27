"""Random bytes for core.dice.Dice: os.urandom, the ESP32's hardware RNG (true random
while the radio or the bootloader's entropy source runs; on the host, the OS's)."""
import os


def source(n):
    return os.urandom(n)
