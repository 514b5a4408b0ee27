/* icount: a valgrind tool (this project's own) that counts the instructions a program
 * executes and tells it the count through a client request, so that the program itself
 * can measure a stretch of its work (tools/bench/icount/module/icount.c, the frame
 * model's guest side). Unlike time, the count does not move with the machine's load: the
 * same binary on the same input executes the same instructions.
 *
 * Each superblock gets one 64-bit add of the instructions it ran, placed before each side
 * exit and before its end (so a taken exit counts only the instructions before it), as
 * the cheapest exact count: the program runs at a few times its native time, not the
 * 50x of callgrind, and a read costs nothing but the request.
 *
 * Built and run by tools/bench/icount/vgtool.py against the valgrind headers and
 * libraries Debian's valgrind package ships (the interface of valgrind's
 * include/pub_tool_tooliface.h). */
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"
#include "icount.h"

static ULong ic_count;  /* instructions executed */
static ULong ic_read;   /* ic_count at the last read */

static void ic_add(IRSB *sb, Int n) {
    IRTemp before = newIRTemp(sb->tyenv, Ity_I64);
    IRTemp after = newIRTemp(sb->tyenv, Ity_I64);
    IRExpr *where = mkIRExpr_HWord((HWord)&ic_count);
    addStmtToIRSB(sb, IRStmt_WrTmp(before, IRExpr_Load(Iend_LE, Ity_I64, where)));
    addStmtToIRSB(sb, IRStmt_WrTmp(after, IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(before),
                                                       IRExpr_Const(IRConst_U64(n)))));
    addStmtToIRSB(sb, IRStmt_Store(Iend_LE, where, IRExpr_RdTmp(after)));
}

static IRSB *ic_instrument(VgCallbackClosure *closure, IRSB *in,
                           const VexGuestLayout *layout, const VexGuestExtents *vge,
                           const VexArchInfo *arch, IRType gWordTy, IRType hWordTy) {
    IRSB *out = deepCopyIRSBExceptStmts(in);
    Int i;
    Int n = 0;
    for (i = 0; i < in->stmts_used; i++) {
        IRStmt *st = in->stmts[i];
        if (st == NULL || st->tag == Ist_NoOp) {
            continue;
        }
        if (st->tag == Ist_IMark) {
            n++;
        } else if (st->tag == Ist_Exit && n > 0) {
            ic_add(out, n);
            n = 0;
        }
        addStmtToIRSB(out, st);
    }
    if (n > 0) {
        ic_add(out, n);
    }
    return out;
}

static Bool ic_request(ThreadId tid, UWord *args, UWord *ret) {
    if (!VG_IS_TOOL_USERREQ('I', 'C', args[0])) {
        return False;
    }
    if (args[0] == ICOUNT_REQ_HELLO) {
        *ret = ICOUNT_HELLO;
    } else if (args[0] == ICOUNT_REQ_READ) {
        ULong d = ic_count - ic_read;
        ic_read = ic_count;
        /* A word on a 32-bit guest: a stretch of 4e9 instructions saturates. */
        *ret = d > (ULong)(UWord)-1 ? (UWord)-1 : (UWord)d;
    } else {
        return False;
    }
    return True;
}

static void ic_post_clo_init(void) {
}

static void ic_fini(Int exitcode) {
    if (VG_(clo_verbosity) > 0) {
        VG_(umsg)("icount: %llu instructions\n", ic_count);
    }
}

static void ic_pre_clo_init(void) {
    VG_(details_name)("icount");
    VG_(details_version)(NULL);
    VG_(details_description)("Pocket Dice's instruction counter");
    VG_(details_copyright_author)("Pocket Dice contributors, MIT licence.");
    VG_(details_bug_reports_to)("the Pocket Dice project");
    VG_(basic_tool_funcs)(ic_post_clo_init, ic_instrument, ic_fini);
    VG_(needs_client_requests)(ic_request);
}

VG_DETERMINE_INTERFACE_VERSION(ic_pre_clo_init)
