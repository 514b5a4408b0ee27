// The heap model's port hooks: what a plain ESP32 (no PSRAM) gives MicroPython v1.28.0's
// split heap, on the unix port (tools/bench/mp32.py --heap; README "The split heap").
//
// The device: the first area, MICROPY_GC_INITIAL_HEAP_SIZE = 56 KB
// (ports/esp32/mpconfigport.h:32), is taken from the ESP-IDF heap at boot
// (ports/esp32/main.c:130). When a full collection cannot serve an allocation,
// gc_try_add_heap (py/gc.c:284-372) asks gc_get_max_new_split for the largest free
// ESP-IDF block (ports/esp32/gccollect.c:84-86) and takes MIN(that, MAX(the heap's
// total size, what the allocation needs)) (py/gc.c:354); a sweep gives back an added
// area whose last used block is 0 (py/gc.c:727-734).
//
// The model: heapmodel.arm(total) (or HEAPMODEL_IDF=total in the environment) starts an
// ESP-IDF heap of `total` bytes of which the first area holds 56 KB; added areas are
// taken from and given back to it (no fragmentation, no allocator overhead). Unarmed,
// nothing can be added (MemoryError, as the unix port without the split heap).
// "The heap's total size" is the device's: its first area (56 KB) and the added areas,
// even where the model's first area is the harness's bigger one (tools/bench/harness.py
// leaves a first area's worth of it free); so MIN(avail, total) is returned here, which
// equals upstream's choice but for one allocation bigger than the whole heap.
#include <stdlib.h>

#include "py/runtime.h"
#include "py/gc.h"
#include "py/mpstate.h"

#define FIRST_AREA (56 * 1024)  // ports/esp32/mpconfigport.h:32
#define MAX_AREAS (8)

static bool armed;
static size_t idf_free;         // the modelled ESP-IDF heap's free bytes
static size_t idf_low;          // the fewest seen free
static size_t n_added, n_freed, n_held, n_held_max;
static void *held_ptr[MAX_AREAS];
static size_t held_size[MAX_AREAS];
// Blocks given back stay in the modelled ESP-IDF heap, which hands them out again
// first (the device's allocator reuses a free block as well): a freed area's memory is
// the next area's, deterministically.
static void *back_ptr[MAX_AREAS];
static size_t back_size[MAX_AREAS];

static void arm(mp_int_t total) {
    armed = true;
    idf_free = total > FIRST_AREA ? (size_t)total - FIRST_AREA : 0;
    idf_low = idf_free;
    n_added = n_freed = n_held = n_held_max = 0;
}

static void arm_from_env(void) {
    if (!armed) {
        const char *s = getenv("HEAPMODEL_IDF");
        if (s != NULL) {
            arm(strtol(s, NULL, 0));
        }
    }
}

// The blocks of an area of `bytes` as gc_setup_area lays it out (py/gc.c:149-167;
// finaliser table on, weak references off at both ports' feature level).
static size_t area_blocks(size_t bytes) {
    return (bytes - 1) * 8 / (8 + 8 * 4 / 8 + 8 * 4 * 16) * 4;
}

size_t gc_get_max_new_split(void) {
    arm_from_env();
    if (!armed) {
        return 0;
    }
    // The device heap's size in blocks: the first area's and the added ones'
    // (py/gc.c:329-334), then in bytes as py/gc.c:336-350 computes it.
    size_t blocks = area_blocks(FIRST_AREA);
    for (mp_state_mem_area_t *a = MP_STATE_MEM(area).next; a != NULL; a = a->next) {
        blocks += a->gc_alloc_table_byte_len * 4;
    }
    size_t total = blocks / 4 + blocks / 8 + blocks * 16 + 1 + sizeof(mp_state_mem_area_t);
    total = (total + 15) & ~(size_t)15;
    return MIN(idf_free, total);
}

void *heapmodel_alloc(size_t size) {
    if (!armed || size > idf_free || n_held == MAX_AREAS) {
        return NULL;
    }
    void *p = NULL;
    for (size_t i = 0; i < MAX_AREAS && p == NULL; i++) {
        if (back_ptr[i] != NULL && back_size[i] >= size) {
            p = back_ptr[i];
            back_ptr[i] = NULL;
        }
    }
    if (p == NULL && (p = malloc(size)) == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < MAX_AREAS; i++) {
        if (held_ptr[i] == NULL) {
            held_ptr[i] = p;
            held_size[i] = size;
            break;
        }
    }
    idf_free -= size;
    idf_low = MIN(idf_low, idf_free);
    n_added++;
    n_held++;
    n_held_max = MAX(n_held_max, n_held);
    return p;
}

void heapmodel_free(void *ptr) {
    for (size_t i = 0; i < MAX_AREAS; i++) {
        if (held_ptr[i] == ptr) {
            idf_free += held_size[i];
            for (size_t j = 0; j < MAX_AREAS; j++) {
                if (back_ptr[j] == NULL) {
                    back_ptr[j] = ptr;
                    back_size[j] = held_size[i];
                    ptr = NULL;
                    break;
                }
            }
            held_ptr[i] = NULL;
            n_freed++;
            n_held--;
            break;
        }
    }
    free(ptr);
}

// heapmodel.arm(total): the ESP-IDF heap has `total` bytes from now on, the first area's
// 56 KB of them in use; the counters start at 0.
static mp_obj_t heapmodel_arm(mp_obj_t total) {
    arm(mp_obj_get_int(total));
    return mp_const_none;
}
static MP_DEFINE_CONST_FUN_OBJ_1(heapmodel_arm_obj, heapmodel_arm);

// heapmodel.stats() -> (added, freed, held, held_max, idf_free, idf_low): areas added
// and given back since arm(), held now and at most at once; the ESP-IDF heap's free
// bytes now and at the fewest.
static mp_obj_t heapmodel_stats(void) {
    arm_from_env();
    mp_obj_t t[6] = {
        MP_OBJ_NEW_SMALL_INT(n_added), MP_OBJ_NEW_SMALL_INT(n_freed),
        MP_OBJ_NEW_SMALL_INT(n_held), MP_OBJ_NEW_SMALL_INT(n_held_max),
        MP_OBJ_NEW_SMALL_INT(idf_free), MP_OBJ_NEW_SMALL_INT(idf_low),
    };
    return mp_obj_new_tuple(6, t);
}
static MP_DEFINE_CONST_FUN_OBJ_0(heapmodel_stats_obj, heapmodel_stats);

// heapmodel.take(n) -> bool: n bytes taken out of the modelled ESP-IDF heap by something
// else than MicroPython's heap (the Wi-Fi driver's buffers: tools/sim/network.py), for
// good (esp_wifi_deinit, which would give them back, is not called by the ESP32 port);
// False and nothing taken when fewer are free (the device's ESP_ERR_NO_MEM); None when
// the model is not armed (no ESP-IDF heap is modelled).
static mp_obj_t heapmodel_take(mp_obj_t n_in) {
    arm_from_env();
    mp_int_t n = mp_obj_get_int(n_in);
    if (!armed) {
        return mp_const_none;
    }
    if (n < 0 || (size_t)n > idf_free) {
        return mp_const_false;
    }
    idf_free -= (size_t)n;
    idf_low = MIN(idf_low, idf_free);
    return mp_const_true;
}
static MP_DEFINE_CONST_FUN_OBJ_1(heapmodel_take_obj, heapmodel_take);

static const mp_rom_map_elem_t heapmodel_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_heapmodel) },
    { MP_ROM_QSTR(MP_QSTR_arm), MP_ROM_PTR(&heapmodel_arm_obj) },
    { MP_ROM_QSTR(MP_QSTR_stats), MP_ROM_PTR(&heapmodel_stats_obj) },
    { MP_ROM_QSTR(MP_QSTR_take), MP_ROM_PTR(&heapmodel_take_obj) },
};
static MP_DEFINE_CONST_DICT(heapmodel_globals, heapmodel_globals_table);

const mp_obj_module_t heapmodel_module = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&heapmodel_globals,
};

MP_REGISTER_MODULE(MP_QSTR_heapmodel, heapmodel_module);
