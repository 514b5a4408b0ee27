// The heap model: the unix port's standard variant (built 32-bit by tools/bench/mp32.py
// --heap) with the ESP32 port's split heap. Settings and values are upstream's at
// v1.28.0, cited where used; heapmodel.c holds the port hooks and the counters.
#define MICROPY_CONFIG_ROM_LEVEL (MICROPY_CONFIG_ROM_LEVEL_EXTRA_FEATURES)
#include "variants/mpconfigvariant_common.h"

// ports/esp32/mpconfigport.h:89-90: the heap starts as one area and grows by areas.
#define MICROPY_GC_SPLIT_HEAP               (1)
#define MICROPY_GC_SPLIT_HEAP_AUTO          (1)

// Added areas come from a modelled ESP-IDF heap (heapmodel.c), not from malloc alone:
// py/gc.c:356 takes them with MP_PLAT_ALLOC_HEAP, py/gc.c:732 gives them back with
// MP_PLAT_FREE_HEAP (defaults: py/mpconfig.h:2345-2349).
void *heapmodel_alloc(size_t size);
void heapmodel_free(void *ptr);
#define MP_PLAT_ALLOC_HEAP(size) heapmodel_alloc(size)
#define MP_PLAT_FREE_HEAP(ptr) heapmodel_free(ptr)
