// icount: the instructions executed since the previous call, for the frame model.
//
// The counted frame model (tools/bench/frame_model.py) runs the frame build under this
// project's valgrind tool (tools/bench/icount/tool.c, run by tools/bench/icount/vgtool.py),
// and frametime.py calls icount.read() at the boundaries of each frame: a figure that
// does not move with the load on the machine. Outside the tool, counting() is False and
// read() returns 0 (valgrind's client requests cost a few instructions and answer their
// default), so the wall-clock model runs the same binary.
#include "py/runtime.h"

#include "icount.h"

static mp_obj_t icount_counting(void) {
    return mp_obj_new_bool(VALGRIND_DO_CLIENT_REQUEST_EXPR(0, ICOUNT_REQ_HELLO,
        0, 0, 0, 0, 0) == ICOUNT_HELLO);
}
static MP_DEFINE_CONST_FUN_OBJ_0(icount_counting_obj, icount_counting);

static mp_obj_t icount_read(void) {
    return mp_obj_new_int_from_uint(VALGRIND_DO_CLIENT_REQUEST_EXPR(0, ICOUNT_REQ_READ,
        0, 0, 0, 0, 0));
}
static MP_DEFINE_CONST_FUN_OBJ_0(icount_read_obj, icount_read);

static const mp_rom_map_elem_t icount_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_icount) },
    { MP_ROM_QSTR(MP_QSTR_counting), MP_ROM_PTR(&icount_counting_obj) },
    { MP_ROM_QSTR(MP_QSTR_read), MP_ROM_PTR(&icount_read_obj) },
};
static MP_DEFINE_CONST_DICT(icount_globals, icount_globals_table);

const mp_obj_module_t icount_module = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&icount_globals,
};

MP_REGISTER_MODULE(MP_QSTR_icount, icount_module);
