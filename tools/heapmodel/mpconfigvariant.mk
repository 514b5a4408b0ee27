# The heap model (tools/bench/mp32.py --heap; README "The split heap").
FROZEN_MANIFEST ?=
# py/gc.c:369 at v1.28.0 adds a byte count to a void pointer: GNU C, which counts it in
# bytes (the ESP32 port's compiler accepts it). The unix port's -Wpointer-arith under
# -Werror refuses it; CFLAGS_EXTRA comes after those flags. No line of upstream changes.
CFLAGS_EXTRA += -Wno-pointer-arith
