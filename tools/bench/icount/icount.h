/* The client requests of the icount valgrind tool (tools/bench/icount/tool.c), shared
 * with its guest side (module/icount.c). */
#ifndef POCKETDICE_ICOUNT_H
#define POCKETDICE_ICOUNT_H

#if defined(__has_include) && __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
/* No valgrind here: a request answers its default, as it does outside valgrind. */
#define VG_USERREQ_TOOL_BASE(a, b) ((unsigned int)(((a) & 0xff) << 24 | ((b) & 0xff) << 16))
#define VALGRIND_DO_CLIENT_REQUEST_EXPR(_default, _req, _a1, _a2, _a3, _a4, _a5) (_default)
#endif

enum {
    /* -> ICOUNT_HELLO under the icount tool (0 outside valgrind or under another tool) */
    ICOUNT_REQ_HELLO = VG_USERREQ_TOOL_BASE('I', 'C'),
    /* -> the instructions executed since the previous read */
    ICOUNT_REQ_READ,
};

#define ICOUNT_HELLO (0x1C0C7)

#endif
