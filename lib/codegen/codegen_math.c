/* codegen_math.c: calls the kernels make: LLVM intrinsics, float functions (libm on the
 * host, libdevice's __nv_* on nvptx64) and an internal integer-power helper. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codegen_internal.h"

LLVMValueRef cg_intrinsic(cg_module *m, const char *name, LLVMTypeRef overload, LLVMValueRef *args,
                          unsigned n) {
  unsigned id = LLVMLookupIntrinsicID(name, strlen(name));
  if (!id)
    remat_fatal("unknown intrinsic %s", name);
  size_t no = overload ? 1 : 0;
  LLVMValueRef f = LLVMGetIntrinsicDeclaration(m->mod, id, &overload, no);
  LLVMTypeRef t = LLVMIntrinsicGetType(m->ctx, id, &overload, no);
  return LLVMBuildCall2(m->b, t, f, args, n, "");
}

/* Declares (once) a function of n arguments of type t returning t. */
static LLVMValueRef declare_fn(cg_module *m, const char *name, LLVMTypeRef t, unsigned n,
                               LLVMTypeRef *fty) {
  LLVMTypeRef params[3] = {t, t, t};
  *fty = LLVMFunctionType(t, params, n, 0);
  LLVMValueRef f = LLVMGetNamedFunction(m->mod, name);
  if (!f) {
    f = LLVMAddFunction(m->mod, name, *fty);
    /* Pure functions of their arguments: lets LLVM hoist and drop unused calls. */
    const char *attrs[] = {"nounwind", "willreturn"};
    for (size_t i = 0; i < 2; i++) {
      unsigned kind = LLVMGetEnumAttributeKindForName(attrs[i], strlen(attrs[i]));
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                              LLVMCreateEnumAttribute(m->ctx, kind, 0));
    }
    unsigned mem = LLVMGetEnumAttributeKindForName("memory", 6);
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(m->ctx, mem, 0));
  }
  return f;
}

/* Every call is `nobuiltin`: LLVM then treats powf, expf, ... as opaque functions, so it
 * neither simplifies them (powf(x, 2) -> x*x, pow(x, 0.5) -> sqrt, pow(2^k, x) -> exp2)
 * nor folds them on constants in double precision, nor lowers them to instructions or
 * vector library calls. The kernel then calls the same libm (libdevice) function on the
 * same arguments as the reference interpreter does (docs/design.md, "Exactness"). */
LLVMValueRef cg_call_float(cg_module *m, const char *name, LLVMValueRef *args, unsigned n) {
  LLVMTypeRef fty;
  LLVMValueRef f = declare_fn(m, name, LLVMTypeOf(args[0]), n, &fty);
  LLVMValueRef call = LLVMBuildCall2(m->b, fty, f, args, n, "");
  unsigned kind = LLVMGetEnumAttributeKindForName("nobuiltin", 9);
  LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                           LLVMCreateEnumAttribute(m->ctx, kind, 0));
  return call;
}

/* Builds `internal iN @remat.ipow.iN(iN a, iN b)`: square-and-multiply for b >= 0
 * (wrapping); for b < 0 the integer part of a^b: 1 for a = 1, +-1 for a = -1, else 0. */
static LLVMValueRef ipow_helper(cg_module *m, LLVMTypeRef t) {
  char name[32];
  snprintf(name, sizeof name, "remat.ipow.i%u", LLVMGetIntTypeWidth(t));
  LLVMValueRef f = LLVMGetNamedFunction(m->mod, name);
  if (f)
    return f;
  LLVMTypeRef params[2] = {t, t};
  f = LLVMAddFunction(m->mod, name, LLVMFunctionType(t, params, 2, 0));
  LLVMSetLinkage(f, LLVMInternalLinkage);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(m->ctx);
  LLVMValueRef a = LLVMGetParam(f, 0), e = LLVMGetParam(f, 1);
  LLVMValueRef zero = LLVMConstInt(t, 0, 0), one = LLVMConstInt(t, 1, 0),
               minus1 = LLVMConstAllOnes(t);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(m->ctx, f, "entry"),
                    neg = LLVMAppendBasicBlockInContext(m->ctx, f, "negative"),
                    loop = LLVMAppendBasicBlockInContext(m->ctx, f, "loop"),
                    done = LLVMAppendBasicBlockInContext(m->ctx, f, "done");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, e, zero, ""), neg, loop);

  LLVMPositionBuilderAtEnd(b, neg);
  LLVMValueRef odd = LLVMBuildTrunc(b, e, LLVMInt1TypeInContext(m->ctx), "");
  LLVMValueRef r = LLVMBuildSelect(b, odd, minus1, one, "");
  r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, a, minus1, ""), r, zero, "");
  r = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, a, one, ""), one, r, "");
  LLVMBuildRet(b, r);

  /* loop: while (e != 0) { if (e & 1) acc *= base; base *= base; e >>= 1; } */
  LLVMPositionBuilderAtEnd(b, loop);
  LLVMValueRef acc = LLVMBuildPhi(b, t, "acc"), base = LLVMBuildPhi(b, t, "base"),
               rest = LLVMBuildPhi(b, t, "e");
  LLVMValueRef bit = LLVMBuildTrunc(b, rest, LLVMInt1TypeInContext(m->ctx), "");
  LLVMValueRef acc2 = LLVMBuildSelect(b, bit, LLVMBuildMul(b, acc, base, ""), acc, "");
  LLVMValueRef base2 = LLVMBuildMul(b, base, base, "");
  LLVMValueRef rest2 = LLVMBuildLShr(b, rest, one, "");
  LLVMValueRef in_acc[2] = {one, acc2}, in_base[2] = {a, base2}, in_rest[2] = {e, rest2};
  LLVMBasicBlockRef from[2] = {entry, loop};
  LLVMAddIncoming(acc, in_acc, from, 2);
  LLVMAddIncoming(base, in_base, from, 2);
  LLVMAddIncoming(rest, in_rest, from, 2);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, rest2, zero, ""), done, loop);

  LLVMPositionBuilderAtEnd(b, done);
  /* e == 0 on entry never enters the multiply: acc2 of the first trip is 1 then. */
  LLVMBuildRet(b, acc2);
  LLVMDisposeBuilder(b);
  return f;
}

LLVMValueRef cg_ipow(cg_module *m, LLVMValueRef a, LLVMValueRef b) {
  LLVMTypeRef t = LLVMTypeOf(a);
  LLVMValueRef f = ipow_helper(m, t);
  LLVMTypeRef params[2] = {t, t};
  LLVMValueRef args[2] = {a, b};
  return LLVMBuildCall2(m->b, LLVMFunctionType(t, params, 2, 0), f, args, 2, "");
}
