#!/usr/bin/env python3
"""attention_pair.py [--forward] [NAME...]: pairs of functions with the same arguments (q, k, v [, mask]
[, seed, offset], do) and results (o, dq, dk, dv): @NAME_unfused, attention decomposed as
the PyTorch importer writes it (bmm of q and k^T, a scale, a mask as a select of -inf or
an add, softmax as amax/sub/exp/sum/div, Philox dropout as rt.uniform_philox, rt.lt,
rt.convert, mul and div by keep, bmm with v) with the backward its joint graph holds for
that pattern, and @NAME_fused, rt.attention and rt.attention_grad. test/ops/attention.test
runs both on the same inputs and compares them (docs/design.md, "Attention"). Prints the
variants named (default: all); --list prints the names. --forward: the forward alone (o),
each function marked rt.autodiff = {wrt = [0, 1, 2]} for --remat-autodiff (q, k, v)."""
import struct
import sys


def f32(x):
    return struct.unpack('f', struct.pack('f', x))[0]


def gen(name, N, Sq, Sk, D, Dv, T='f32', scale=None, mask=None, causal=None, keep=None,
        batched_mask=False, grad=True):
    rnd = f32 if T == 'f32' else float
    def tt(*dims, t=T):
        return 'tensor<' + 'x'.join(str(d) for d in dims) + 'x' + t + '>'
    Q, K, V, O = tt(N, Sq, D), tt(N, Sk, D), tt(N, Sk, Dv), tt(N, Sq, Dv)
    S, S2 = tt(N, Sq, Sk), tt(Sq, Sk)
    mty = None
    if mask:
        mdims = (N, Sq, Sk) if batched_mask else (Sq, Sk)
        mty = tt(*mdims, t='i1' if mask in ('keep', 'drop') else T)
    args = [f'%q: {Q}', f'%k: {K}', f'%v: {V}']
    if mask:
        args.append(f'%mask: {mty}')
    if keep is not None:
        args += ['%seed: i64', '%offset: i64']
    if grad:
        args.append(f'%do: {O}')
    rets = [O] + ([Q, K, V] if grad else [])
    sig = ', '.join(args)
    rsig = ', '.join(rets)
    def cst(v):
        if T == 'f32':
            return f'arith.constant {repr(rnd(v))} : f32'
        return f'arith.constant {repr(float(v))} : f64'
    out = []
    w = out.append
    # the unfused graph
    tag = '' if grad else ' attributes {rt.autodiff = {wrt = [0, 1, 2]}}'
    w(f'func.func @{name}_unfused({sig}) -> ({rsig}){tag} {{')
    w(f'  %kt = "rt.transpose"(%k) {{perm = array<i64: 0, 2, 1>}} : ({K}) -> {tt(N, D, Sk)}')
    w(f'  %bmm = "rt.matmul"(%q, %kt) : ({Q}, {tt(N, D, Sk)}) -> {S}')
    cur = '%bmm'
    if scale is not None:
        w(f'  %scale = {cst(scale)}')
        w(f'  %scaled = "rt.mul"(%bmm, %scale) : ({S}, {T}) -> {S}')
        cur = '%scaled'
    drop = None  # an i1 [N,Sq,Sk] value: true where masked
    if causal is not None:
        w(f'  %ii = "rt.iota"() {{dim = 0 : i64}} : () -> {tt(Sq, Sk, t="i64")}')
        w(f'  %jj = "rt.iota"() {{dim = 1 : i64}} : () -> {tt(Sq, Sk, t="i64")}')
        w(f'  %diag = arith.constant {causal} : i64')
        w(f'  %lim = "rt.add"(%ii, %diag) : ({tt(Sq, Sk, t="i64")}, i64) -> {tt(Sq, Sk, t="i64")}')
        w(f'  %above = "rt.gt"(%jj, %lim) : ({tt(Sq, Sk, t="i64")}, {tt(Sq, Sk, t="i64")}) -> {tt(Sq, Sk, t="i1")}')
        drop = '%above'
    if mask in ('keep', 'drop'):
        if mask == 'keep':
            w(f'  %false = arith.constant false')
            w(f'  %mdrop = "rt.eq"(%mask, %false) : ({mty}, i1) -> {mty}')
        else:
            pass
        md = '%mdrop' if mask == 'keep' else '%mask'
        if not batched_mask:
            w(f'  %mdrop.bc = "rt.broadcast"({md}) {{dims = array<i64: 1, 2>}} : ({mty}) -> {tt(N, Sq, Sk, t="i1")}')
            md = '%mdrop.bc'
        if drop:
            w(f'  %above.bc = "rt.broadcast"(%above) {{dims = array<i64: 1, 2>}} : ({tt(Sq, Sk, t="i1")}) -> {tt(N, Sq, Sk, t="i1")}')
            w(f'  %both = "rt.select"(%above.bc, %above.bc, {md}) : ({tt(N, Sq, Sk, t="i1")}, {tt(N, Sq, Sk, t="i1")}, {tt(N, Sq, Sk, t="i1")}) -> {tt(N, Sq, Sk, t="i1")}')
            drop = '%both'
        else:
            drop = md
    elif drop:
        w(f'  %above.bc = "rt.broadcast"(%above) {{dims = array<i64: 1, 2>}} : ({tt(Sq, Sk, t="i1")}) -> {tt(N, Sq, Sk, t="i1")}')
        drop = '%above.bc'
    if mask == 'add':
        ma = '%mask'
        if not batched_mask:
            w(f'  %mask.bc = "rt.broadcast"(%mask) {{dims = array<i64: 1, 2>}} : ({mty}) -> {S}')
            ma = '%mask.bc'
        w(f'  %added = "rt.add"({cur}, {ma}) : ({S}, {S}) -> {S}')
        cur = '%added'
    if drop:
        ninf = '0xFF800000 : f32' if T == 'f32' else '0xFFF0000000000000 : f64'
        w(f'  %ninf = arith.constant {ninf}')
        w(f'  %where = "rt.select"({drop}, %ninf, {cur}) : ({tt(N, Sq, Sk, t="i1")}, {T}, {S}) -> {S}')
        cur = '%where'
    R = tt(N, Sq, 1)
    w(f'  %amax = "rt.amax"({cur}) {{dims = array<i64: 2>}} : ({S}) -> {tt(N, Sq)}')
    w(f'  %amax.1 = "rt.reshape"(%amax) : ({tt(N, Sq)}) -> {R}')
    w(f'  %amax.bc = "rt.broadcast"(%amax.1) {{dims = array<i64: 0, 1, 2>}} : ({R}) -> {S}')
    w(f'  %sub = "rt.sub"({cur}, %amax.bc) : ({S}, {S}) -> {S}')
    w(f'  %exp = "rt.exp"(%sub) : ({S}) -> {S}')
    w(f'  %sum = "rt.sum"(%exp) {{dims = array<i64: 2>}} : ({S}) -> {tt(N, Sq)}')
    w(f'  %sum.1 = "rt.reshape"(%sum) : ({tt(N, Sq)}) -> {R}')
    w(f'  %sum.bc = "rt.broadcast"(%sum.1) {{dims = array<i64: 0, 1, 2>}} : ({R}) -> {S}')
    w(f'  %p = "rt.div"(%exp, %sum.bc) : ({S}, {S}) -> {S}')
    pd = '%p'
    if keep is not None:
        SF = tt(N, Sq, Sk, t='f32')
        w(f'  %u = "rt.uniform_philox"(%seed, %offset) {{lo = 0.0 : f64, hi = 1.0 : f64}} : (i64, i64) -> {SF}')
        u = '%u'
        if T != 'f32':
            w(f'  %u.t = "rt.convert"(%u) : ({SF}) -> {S}')
            u = '%u.t'
        w(f'  %keep = {cst(keep)}')
        w(f'  %lt = "rt.lt"({u}, %keep) : ({S}, {T}) -> {tt(N, Sq, Sk, t="i1")}')
        w(f'  %z = "rt.convert"(%lt) : ({tt(N, Sq, Sk, t="i1")}) -> {S}')
        w(f'  %pz = "rt.mul"(%p, %z) : ({S}, {S}) -> {S}')
        w(f'  %pd = "rt.div"(%pz, %keep) : ({S}, {T}) -> {S}')
        pd = '%pd'
    w(f'  %o = "rt.matmul"({pd}, %v) : ({S}, {V}) -> {O}')
    if grad:
        w(f'  %vt = "rt.transpose"(%v) {{perm = array<i64: 0, 2, 1>}} : ({V}) -> {tt(N, Dv, Sk)}')
        w(f'  %dpd = "rt.matmul"(%do, %vt) : ({O}, {tt(N, Dv, Sk)}) -> {S}')
        dp = '%dpd'
        if keep is not None:
            w(f'  %dpk = "rt.div"(%dpd, %keep) : ({S}, {T}) -> {S}')
            w(f'  %dp = "rt.mul"(%dpk, %z) : ({S}, {S}) -> {S}')
            dp = '%dp'
        w(f'  %t1 = "rt.mul"({dp}, %p) : ({S}, {S}) -> {S}')
        w(f'  %rs = "rt.sum"(%t1) {{dims = array<i64: 2>}} : ({S}) -> {tt(N, Sq)}')
        w(f'  %rs.1 = "rt.reshape"(%rs) : ({tt(N, Sq)}) -> {R}')
        w(f'  %rs.bc = "rt.broadcast"(%rs.1) {{dims = array<i64: 0, 1, 2>}} : ({R}) -> {S}')
        w(f'  %t2 = "rt.mul"(%p, %rs.bc) : ({S}, {S}) -> {S}')
        w(f'  %ds = "rt.sub"(%t1, %t2) : ({S}, {S}) -> {S}')
        ds = '%ds'
        if drop:
            w(f'  %zero = {cst(0.0)}')
            w(f'  %ds.m = "rt.select"({drop}, %zero, %ds) : ({tt(N, Sq, Sk, t="i1")}, {T}, {S}) -> {S}')
            ds = '%ds.m'
        if scale is not None:
            w(f'  %dss = "rt.mul"({ds}, %scale) : ({S}, {T}) -> {S}')
            ds = '%dss'
        w(f'  %dq = "rt.matmul"({ds}, %k) : ({S}, {K}) -> {Q}')
        w(f'  %qt = "rt.transpose"(%q) {{perm = array<i64: 0, 2, 1>}} : ({Q}) -> {tt(N, D, Sq)}')
        w(f'  %dkt = "rt.matmul"(%qt, {ds}) : ({tt(N, D, Sq)}, {S}) -> {tt(N, D, Sk)}')
        w(f'  %dk = "rt.transpose"(%dkt) {{perm = array<i64: 0, 2, 1>}} : ({tt(N, D, Sk)}) -> {K}')
        w(f'  %pdt = "rt.transpose"({pd}) {{perm = array<i64: 0, 2, 1>}} : ({S}) -> {S if Sq == Sk else tt(N, Sk, Sq)}')
        w(f'  %dv = "rt.matmul"(%pdt, %do) : ({tt(N, Sk, Sq)}, {O}) -> {V}')
        w(f'  return %o, %dq, %dk, %dv : {rsig}')
    else:
        w(f'  return %o : {rsig}')
    w('}')
    w('')
    # the fused ops
    attrs = [f'scale = {repr(float(rnd(scale if scale is not None else 1.0)))} : f64']
    if causal is not None:
        attrs.append(f'causal = {causal} : i64')
    if mask:
        attrs.append(f'mask = "{mask}"')
    if keep is not None:
        attrs.append(f'keep = {repr(float(rnd(keep)))} : f64')
    at = '{' + ', '.join(attrs) + '}'
    extra = (['%mask'] if mask else []) + (['%seed', '%offset'] if keep is not None else [])
    extra_t = ([mty] if mask else []) + (['i64', 'i64'] if keep is not None else [])
    ops = ', '.join(['%q', '%k', '%v'] + extra)
    ots = ', '.join([Q, K, V] + extra_t)
    w(f'func.func @{name}_fused({sig}) -> ({rsig}){tag} {{')
    w(f'  %a:2 = "rt.attention"({ops}) {at} : ({ots}) -> ({O}, {tt(N, Sq)})')
    if grad:
        gops = ', '.join(['%q', '%k', '%v', '%a#0', '%a#1', '%do'] + extra)
        gts = ', '.join([Q, K, V, O, tt(N, Sq), O] + extra_t)
        w(f'  %g:3 = "rt.attention_grad"({gops}) {at} : ({gts}) -> ({Q}, {K}, {V})')
        w(f'  return %a#0, %g#0, %g#1, %g#2 : {rsig}')
    else:
        w(f'  return %a#0 : {rsig}')
    w('}')
    w('')
    return '\n'.join(out)


# name: (N, Sq, Sk, D, Dv, options). Sk = 80 crosses the key tile (64) so that the
# online softmax rescales; masks read from random i1 inputs have 80 keys per row (a row
# masked whole has probability 2^-80).
VARIANTS = {
    'plain': (2, 8, 80, 8, 8, dict(scale=0.35355339059327373)),
    'noscale': (2, 8, 80, 8, 4, dict()),
    'causal': (2, 70, 70, 8, 8, dict(scale=0.35355339059327373, causal=0)),
    'causal_shift': (1, 6, 80, 4, 4, dict(scale=0.5, causal=74)),
    'keep_dropout': (2, 8, 80, 8, 8, dict(scale=0.35355339059327373, mask='keep', keep=0.9)),
    'drop_batched': (2, 8, 80, 4, 4, dict(scale=0.5, mask='drop', batched_mask=True)),
    'add': (2, 8, 80, 4, 6, dict(scale=0.5, mask='add')),
    'causal_keep': (2, 70, 70, 4, 4, dict(scale=0.5, causal=40, mask='keep', keep=0.5)),
    'dropout_f64': (2, 8, 80, 8, 8, dict(T='f64', scale=0.35355339059327373, keep=0.8)),
    'causal_f64': (1, 70, 70, 4, 4, dict(T='f64', causal=0, mask='add', batched_mask=True)),
    # causal = -1: row 0 keeps no key (its output is NaN, as softmax's; docs/design.md)
    'empty_row': (1, 4, 4, 2, 2, dict(scale=0.5, causal=-1)),
}

if __name__ == '__main__':
    args = sys.argv[1:]
    if args == ['--list']:
        print(' '.join(VARIANTS))
        sys.exit(0)
    forward = '--forward' in args
    for n in [a for a in args if a != '--forward'] or list(VARIANTS):
        N, Sq, Sk, D, Dv, opts = VARIANTS[n]
        print(gen(n, N, Sq, Sk, D, Dv, grad=not forward, **opts))
