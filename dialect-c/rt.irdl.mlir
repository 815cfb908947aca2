// The rt dialect, in IRDL. Loaded at run time by remat (embedded at build time) and by
// upstream tools: mlir-opt --irdl-file=rt.irdl.mlir.
//
// IRDL binds each constraint value once per op, so every operand and result gets its own
// constraint unless the types must be identical (unary ops, rt.wait). Shape rules, i1
// compare results and attribute ranges are checked by remat's semantic verifier
// (dialect-c/rt_verify.c), which IRDL cannot express.
irdl.dialect @rt {
  // elementwise binary: tensors of one shape and/or scalars; result has the tensor shape
  irdl.operation @add {
    %lhs_t = irdl.base "!builtin.tensor"
    %lhs_f32 = irdl.is f32
    %lhs_f64 = irdl.is f64
    %lhs_i64 = irdl.is i64
    %lhs_i32 = irdl.is i32
    %lhs_i1 = irdl.is i1
    %lhs = irdl.any_of(%lhs_t, %lhs_f32, %lhs_f64, %lhs_i64, %lhs_i32, %lhs_i1)
    %rhs_t = irdl.base "!builtin.tensor"
    %rhs_f32 = irdl.is f32
    %rhs_f64 = irdl.is f64
    %rhs_i64 = irdl.is i64
    %rhs_i32 = irdl.is i32
    %rhs_i1 = irdl.is i1
    %rhs = irdl.any_of(%rhs_t, %rhs_f32, %rhs_f64, %rhs_i64, %rhs_i32, %rhs_i1)
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }
  irdl.operation @sub {
    %lhs_t = irdl.base "!builtin.tensor"
    %lhs_f32 = irdl.is f32
    %lhs_f64 = irdl.is f64
    %lhs_i64 = irdl.is i64
    %lhs_i32 = irdl.is i32
    %lhs_i1 = irdl.is i1
    %lhs = irdl.any_of(%lhs_t, %lhs_f32, %lhs_f64, %lhs_i64, %lhs_i32, %lhs_i1)
    %rhs_t = irdl.base "!builtin.tensor"
    %rhs_f32 = irdl.is f32
    %rhs_f64 = irdl.is f64
    %rhs_i64 = irdl.is i64
    %rhs_i32 = irdl.is i32
    %rhs_i1 = irdl.is i1
    %rhs = irdl.any_of(%rhs_t, %rhs_f32, %rhs_f64, %rhs_i64, %rhs_i32, %rhs_i1)
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }
  irdl.operation @mul {
    %lhs_t = irdl.base "!builtin.tensor"
    %lhs_f32 = irdl.is f32
    %lhs_f64 = irdl.is f64
    %lhs_i64 = irdl.is i64
    %lhs_i32 = irdl.is i32
    %lhs_i1 = irdl.is i1
    %lhs = irdl.any_of(%lhs_t, %lhs_f32, %lhs_f64, %lhs_i64, %lhs_i32, %lhs_i1)
    %rhs_t = irdl.base "!builtin.tensor"
    %rhs_f32 = irdl.is f32
    %rhs_f64 = irdl.is f64
    %rhs_i64 = irdl.is i64
    %rhs_i32 = irdl.is i32
    %rhs_i1 = irdl.is i1
    %rhs = irdl.any_of(%rhs_t, %rhs_f32, %rhs_f64, %rhs_i64, %rhs_i32, %rhs_i1)
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }
  irdl.operation @div {
    %lhs_t = irdl.base "!builtin.tensor"
    %lhs_f32 = irdl.is f32
    %lhs_f64 = irdl.is f64
    %lhs_i64 = irdl.is i64
    %lhs_i32 = irdl.is i32
    %lhs_i1 = irdl.is i1
    %lhs = irdl.any_of(%lhs_t, %lhs_f32, %lhs_f64, %lhs_i64, %lhs_i32, %lhs_i1)
    %rhs_t = irdl.base "!builtin.tensor"
    %rhs_f32 = irdl.is f32
    %rhs_f64 = irdl.is f64
    %rhs_i64 = irdl.is i64
    %rhs_i32 = irdl.is i32
    %rhs_i1 = irdl.is i1
    %rhs = irdl.any_of(%rhs_t, %rhs_f32, %rhs_f64, %rhs_i64, %rhs_i32, %rhs_i1)
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }
  irdl.operation @max {
    %lhs_t = irdl.base "!builtin.tensor"
    %lhs_f32 = irdl.is f32
    %lhs_f64 = irdl.is f64
    %lhs_i64 = irdl.is i64
    %lhs_i32 = irdl.is i32
    %lhs_i1 = irdl.is i1
    %lhs = irdl.any_of(%lhs_t, %lhs_f32, %lhs_f64, %lhs_i64, %lhs_i32, %lhs_i1)
    %rhs_t = irdl.base "!builtin.tensor"
    %rhs_f32 = irdl.is f32
    %rhs_f64 = irdl.is f64
    %rhs_i64 = irdl.is i64
    %rhs_i32 = irdl.is i32
    %rhs_i1 = irdl.is i1
    %rhs = irdl.any_of(%rhs_t, %rhs_f32, %rhs_f64, %rhs_i64, %rhs_i32, %rhs_i1)
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }
  irdl.operation @min {
    %lhs_t = irdl.base "!builtin.tensor"
    %lhs_f32 = irdl.is f32
    %lhs_f64 = irdl.is f64
    %lhs_i64 = irdl.is i64
    %lhs_i32 = irdl.is i32
    %lhs_i1 = irdl.is i1
    %lhs = irdl.any_of(%lhs_t, %lhs_f32, %lhs_f64, %lhs_i64, %lhs_i32, %lhs_i1)
    %rhs_t = irdl.base "!builtin.tensor"
    %rhs_f32 = irdl.is f32
    %rhs_f64 = irdl.is f64
    %rhs_i64 = irdl.is i64
    %rhs_i32 = irdl.is i32
    %rhs_i1 = irdl.is i1
    %rhs = irdl.any_of(%rhs_t, %rhs_f32, %rhs_f64, %rhs_i64, %rhs_i32, %rhs_i1)
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }
  irdl.operation @pow {
    %lhs_t = irdl.base "!builtin.tensor"
    %lhs_f32 = irdl.is f32
    %lhs_f64 = irdl.is f64
    %lhs_i64 = irdl.is i64
    %lhs_i32 = irdl.is i32
    %lhs_i1 = irdl.is i1
    %lhs = irdl.any_of(%lhs_t, %lhs_f32, %lhs_f64, %lhs_i64, %lhs_i32, %lhs_i1)
    %rhs_t = irdl.base "!builtin.tensor"
    %rhs_f32 = irdl.is f32
    %rhs_f64 = irdl.is f64
    %rhs_i64 = irdl.is i64
    %rhs_i32 = irdl.is i32
    %rhs_i1 = irdl.is i1
    %rhs = irdl.any_of(%rhs_t, %rhs_f32, %rhs_f64, %rhs_i64, %rhs_i32, %rhs_i1)
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }
  // elementwise unary: operand and result have one type
  irdl.operation @neg {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(input: %t)
    irdl.results(result: %t)
  }
  irdl.operation @exp {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(input: %t)
    irdl.results(result: %t)
  }
  irdl.operation @log {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(input: %t)
    irdl.results(result: %t)
  }
  irdl.operation @tanh {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(input: %t)
    irdl.results(result: %t)
  }
  irdl.operation @erf {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(input: %t)
    irdl.results(result: %t)
  }
  irdl.operation @sqrt {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(input: %t)
    irdl.results(result: %t)
  }
  irdl.operation @rsqrt {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(input: %t)
    irdl.results(result: %t)
  }
  irdl.operation @abs {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(input: %t)
    irdl.results(result: %t)
  }
  irdl.operation @sin {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(input: %t)
    irdl.results(result: %t)
  }
  irdl.operation @cos {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(input: %t)
    irdl.results(result: %t)
  }
  irdl.operation @log1p {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(input: %t)
    irdl.results(result: %t)
  }
  irdl.operation @softplus {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(input: %t)
    irdl.results(result: %t)
  }
  irdl.operation @hardswish {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(input: %t)
    irdl.results(result: %t)
  }
  irdl.operation @hardsigmoid {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(input: %t)
    irdl.results(result: %t)
  }
  irdl.operation @relu6 {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(input: %t)
    irdl.results(result: %t)
  }
  irdl.operation @mish {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(input: %t)
    irdl.results(result: %t)
  }
  // compare: result element type i1 (checked by the semantic verifier)
  irdl.operation @lt {
    %lhs_t = irdl.base "!builtin.tensor"
    %lhs_f32 = irdl.is f32
    %lhs_f64 = irdl.is f64
    %lhs_i64 = irdl.is i64
    %lhs_i32 = irdl.is i32
    %lhs_i1 = irdl.is i1
    %lhs = irdl.any_of(%lhs_t, %lhs_f32, %lhs_f64, %lhs_i64, %lhs_i32, %lhs_i1)
    %rhs_t = irdl.base "!builtin.tensor"
    %rhs_f32 = irdl.is f32
    %rhs_f64 = irdl.is f64
    %rhs_i64 = irdl.is i64
    %rhs_i32 = irdl.is i32
    %rhs_i1 = irdl.is i1
    %rhs = irdl.any_of(%rhs_t, %rhs_f32, %rhs_f64, %rhs_i64, %rhs_i32, %rhs_i1)
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }
  irdl.operation @le {
    %lhs_t = irdl.base "!builtin.tensor"
    %lhs_f32 = irdl.is f32
    %lhs_f64 = irdl.is f64
    %lhs_i64 = irdl.is i64
    %lhs_i32 = irdl.is i32
    %lhs_i1 = irdl.is i1
    %lhs = irdl.any_of(%lhs_t, %lhs_f32, %lhs_f64, %lhs_i64, %lhs_i32, %lhs_i1)
    %rhs_t = irdl.base "!builtin.tensor"
    %rhs_f32 = irdl.is f32
    %rhs_f64 = irdl.is f64
    %rhs_i64 = irdl.is i64
    %rhs_i32 = irdl.is i32
    %rhs_i1 = irdl.is i1
    %rhs = irdl.any_of(%rhs_t, %rhs_f32, %rhs_f64, %rhs_i64, %rhs_i32, %rhs_i1)
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }
  irdl.operation @gt {
    %lhs_t = irdl.base "!builtin.tensor"
    %lhs_f32 = irdl.is f32
    %lhs_f64 = irdl.is f64
    %lhs_i64 = irdl.is i64
    %lhs_i32 = irdl.is i32
    %lhs_i1 = irdl.is i1
    %lhs = irdl.any_of(%lhs_t, %lhs_f32, %lhs_f64, %lhs_i64, %lhs_i32, %lhs_i1)
    %rhs_t = irdl.base "!builtin.tensor"
    %rhs_f32 = irdl.is f32
    %rhs_f64 = irdl.is f64
    %rhs_i64 = irdl.is i64
    %rhs_i32 = irdl.is i32
    %rhs_i1 = irdl.is i1
    %rhs = irdl.any_of(%rhs_t, %rhs_f32, %rhs_f64, %rhs_i64, %rhs_i32, %rhs_i1)
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }
  irdl.operation @ge {
    %lhs_t = irdl.base "!builtin.tensor"
    %lhs_f32 = irdl.is f32
    %lhs_f64 = irdl.is f64
    %lhs_i64 = irdl.is i64
    %lhs_i32 = irdl.is i32
    %lhs_i1 = irdl.is i1
    %lhs = irdl.any_of(%lhs_t, %lhs_f32, %lhs_f64, %lhs_i64, %lhs_i32, %lhs_i1)
    %rhs_t = irdl.base "!builtin.tensor"
    %rhs_f32 = irdl.is f32
    %rhs_f64 = irdl.is f64
    %rhs_i64 = irdl.is i64
    %rhs_i32 = irdl.is i32
    %rhs_i1 = irdl.is i1
    %rhs = irdl.any_of(%rhs_t, %rhs_f32, %rhs_f64, %rhs_i64, %rhs_i32, %rhs_i1)
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }
  irdl.operation @eq {
    %lhs_t = irdl.base "!builtin.tensor"
    %lhs_f32 = irdl.is f32
    %lhs_f64 = irdl.is f64
    %lhs_i64 = irdl.is i64
    %lhs_i32 = irdl.is i32
    %lhs_i1 = irdl.is i1
    %lhs = irdl.any_of(%lhs_t, %lhs_f32, %lhs_f64, %lhs_i64, %lhs_i32, %lhs_i1)
    %rhs_t = irdl.base "!builtin.tensor"
    %rhs_f32 = irdl.is f32
    %rhs_f64 = irdl.is f64
    %rhs_i64 = irdl.is i64
    %rhs_i32 = irdl.is i32
    %rhs_i1 = irdl.is i1
    %rhs = irdl.any_of(%rhs_t, %rhs_f32, %rhs_f64, %rhs_i64, %rhs_i32, %rhs_i1)
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }
  irdl.operation @ne {
    %lhs_t = irdl.base "!builtin.tensor"
    %lhs_f32 = irdl.is f32
    %lhs_f64 = irdl.is f64
    %lhs_i64 = irdl.is i64
    %lhs_i32 = irdl.is i32
    %lhs_i1 = irdl.is i1
    %lhs = irdl.any_of(%lhs_t, %lhs_f32, %lhs_f64, %lhs_i64, %lhs_i32, %lhs_i1)
    %rhs_t = irdl.base "!builtin.tensor"
    %rhs_f32 = irdl.is f32
    %rhs_f64 = irdl.is f64
    %rhs_i64 = irdl.is i64
    %rhs_i32 = irdl.is i32
    %rhs_i1 = irdl.is i1
    %rhs = irdl.any_of(%rhs_t, %rhs_f32, %rhs_f64, %rhs_i64, %rhs_i32, %rhs_i1)
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %lhs, rhs: %rhs)
    irdl.results(result: %res)
  }
  // select(cond, a, b)
  irdl.operation @select {
    %cond_t = irdl.base "!builtin.tensor"
    %cond_i1 = irdl.is i1
    %cond = irdl.any_of(%cond_t, %cond_i1)
    %a_t = irdl.base "!builtin.tensor"
    %a_f32 = irdl.is f32
    %a_f64 = irdl.is f64
    %a_i64 = irdl.is i64
    %a_i32 = irdl.is i32
    %a_i1 = irdl.is i1
    %a = irdl.any_of(%a_t, %a_f32, %a_f64, %a_i64, %a_i32, %a_i1)
    %b_t = irdl.base "!builtin.tensor"
    %b_f32 = irdl.is f32
    %b_f64 = irdl.is f64
    %b_i64 = irdl.is i64
    %b_i32 = irdl.is i32
    %b_i1 = irdl.is i1
    %b = irdl.any_of(%b_t, %b_f32, %b_f64, %b_i64, %b_i32, %b_i1)
    %res = irdl.base "!builtin.tensor"
    irdl.operands(cond: %cond, a: %a, b: %b)
    irdl.results(result: %res)
  }
  // element type change (convert_element_type)
  irdl.operation @convert {
    %in = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(input: %in)
    irdl.results(result: %res)
  }
  // a tensor filled with a scalar attribute
  irdl.operation @full {
    %vf = irdl.base "#builtin.float"
    %vi = irdl.base "#builtin.integer"
    %value = irdl.any_of(%vf, %vi)
    irdl.attributes { "value" = %value }
    %res = irdl.base "!builtin.tensor"
    irdl.operands()
    irdl.results(result: %res)
  }
  // broadcast_in_dim: dims[k] is the result dimension of operand dimension k
  irdl.operation @broadcast {
    %in = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %dims = irdl.base "#builtin.dense_array"
    irdl.attributes { "dims" = %dims }
    irdl.operands(input: %in)
    irdl.results(result: %res)
  }
  // same element count, row-major
  irdl.operation @reshape {
    %in = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(input: %in)
    irdl.results(result: %res)
  }
  // permutation of the dimensions
  irdl.operation @transpose {
    %in = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %perm = irdl.base "#builtin.dense_array"
    irdl.attributes { "perm" = %perm }
    irdl.operands(input: %in)
    irdl.results(result: %res)
  }
  // static strided slice (StableHLO slice)
  irdl.operation @slice {
    %in = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %start = irdl.base "#builtin.dense_array"
    %limit = irdl.base "#builtin.dense_array"
    %stride = irdl.base "#builtin.dense_array"
    irdl.attributes { "start" = %start, "limit" = %limit, "stride" = %stride }
    irdl.operands(input: %in)
    irdl.results(result: %res)
  }
  // concatenation along one dimension. IRDL binds a constraint to one type for all the
  // operands of a variadic group, so the operand list is "first, rest...": the first
  // operand may differ from the others (concat of two differently sized tensors), the
  // rest share one type. The semantic verifier checks the shapes.
  irdl.operation @concat {
    %first = irdl.base "!builtin.tensor"
    %rest = irdl.base "!builtin.tensor"
    %dim = irdl.base "#builtin.integer"
    irdl.attributes { "dim" = %dim }
    %res = irdl.base "!builtin.tensor"
    irdl.operands(first: %first, rest: variadic %rest)
    irdl.results(result: %res)
  }
  // each element is its index along dim
  irdl.operation @iota {
    %dim = irdl.base "#builtin.integer"
    irdl.attributes { "dim" = %dim }
    %res = irdl.base "!builtin.tensor"
    irdl.operands()
    irdl.results(result: %res)
  }
  // reductions: the reduced dims are dropped
  irdl.operation @sum {
    %in = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %dims = irdl.base "#builtin.dense_array"
    irdl.attributes { "dims" = %dims }
    irdl.operands(input: %in)
    irdl.results(result: %res)
  }
  irdl.operation @amax {
    %in = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %dims = irdl.base "#builtin.dense_array"
    irdl.attributes { "dims" = %dims }
    irdl.operands(input: %in)
    irdl.results(result: %res)
  }
  // [M,K]x[K,N] or batched [B,M,K]x[B,K,N]
  // [M,K]x[K,N] or [B,M,K]x[B,K,N]. Optional unit attributes transpose_a / transpose_b
  // (not declared here: IRDL has no optional attributes; rt_verify checks them): the
  // operand is read with its last two dims swapped, as cuBLAS transa/transb.
  irdl.operation @matmul {
    %a = irdl.base "!builtin.tensor"
    %b = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    irdl.operands(lhs: %a, rhs: %b)
    irdl.results(result: %res)
  }
  // Philox4x32-10 uniform in [lo, hi) from a seed and an offset (docs/design.md, Runtime: Philox)
  irdl.operation @uniform_philox {
    %seed = irdl.is i64
    %offset = irdl.is i64
    %lo = irdl.base "#builtin.float"
    %hi = irdl.base "#builtin.float"
    irdl.attributes { "lo" = %lo, "hi" = %hi }
    %res = irdl.base "!builtin.tensor"
    irdl.operands(seed: %seed, offset: %offset)
    irdl.results(result: %res)
  }
  // async collectives, completed by rt.wait
  irdl.operation @all_gather {
    %in = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %group = irdl.base "#builtin.string"
    %group_size = irdl.base "#builtin.integer"
    %dim = irdl.base "#builtin.integer"
    irdl.attributes { "group" = %group, "group_size" = %group_size, "dim" = %dim }
    irdl.operands(input: %in)
    irdl.results(result: %res)
  }
  irdl.operation @reduce_scatter {
    %in = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %group = irdl.base "#builtin.string"
    %group_size = irdl.base "#builtin.integer"
    %dim = irdl.base "#builtin.integer"
    %reduce = irdl.base "#builtin.string"
    irdl.attributes { "group" = %group, "group_size" = %group_size, "dim" = %dim, "reduce" = %reduce }
    irdl.operands(input: %in)
    irdl.results(result: %res)
  }
  irdl.operation @all_reduce {
    %in = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %group = irdl.base "#builtin.string"
    %group_size = irdl.base "#builtin.integer"
    %reduce = irdl.base "#builtin.string"
    irdl.attributes { "group" = %group, "group_size" = %group_size, "reduce" = %reduce }
    irdl.operands(input: %in)
    irdl.results(result: %res)
  }
  // completes a collective; same type
  irdl.operation @wait {
    %t = irdl.base "!builtin.tensor"
    irdl.operands(input: %t)
    irdl.results(result: %t)
  }
  // indexing (docs/design.md, "Indexing ops"): torch.gather, torch.scatter_add and
  // torch.argmax along the integer attribute dim; shapes, the integer index type and
  // the dim's range are checked by rt_verify
  irdl.operation @gather {
    %src = irdl.base "!builtin.tensor"
    %idx = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %dim = irdl.base "#builtin.integer"
    irdl.attributes { "dim" = %dim }
    irdl.operands(source: %src, indices: %idx)
    irdl.results(result: %res)
  }
  irdl.operation @scatter_add {
    %base = irdl.base "!builtin.tensor"
    %idx = irdl.base "!builtin.tensor"
    %upd = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %dim = irdl.base "#builtin.integer"
    irdl.attributes { "dim" = %dim }
    irdl.operands(base: %base, indices: %idx, updates: %upd)
    irdl.results(result: %res)
  }
  irdl.operation @argmax {
    %in = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %dim = irdl.base "#builtin.integer"
    irdl.attributes { "dim" = %dim }
    irdl.operands(input: %in)
    irdl.results(result: %res)
  }
  // Convolution and its two gradients (docs/design.md, "Convolution"): N = 1, 2, 3
  // spatial dims; stride, padding (both sides), dilation: N entries; groups >= 1.
  // conv (x, w) -> y; conv_grad_input (dy, w) -> dx; conv_grad_weight (x, dy) -> dw.
  irdl.operation @conv {
    %x = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %stride = irdl.base "#builtin.dense_array"
    %padding = irdl.base "#builtin.dense_array"
    %dilation = irdl.base "#builtin.dense_array"
    %groups = irdl.base "#builtin.integer"
    irdl.attributes { "stride" = %stride, "padding" = %padding, "dilation" = %dilation, "groups" = %groups }
    irdl.operands(input: %x, weight: %w)
    irdl.results(result: %res)
  }
  irdl.operation @conv_grad_input {
    %x = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %stride = irdl.base "#builtin.dense_array"
    %padding = irdl.base "#builtin.dense_array"
    %dilation = irdl.base "#builtin.dense_array"
    %groups = irdl.base "#builtin.integer"
    irdl.attributes { "stride" = %stride, "padding" = %padding, "dilation" = %dilation, "groups" = %groups }
    irdl.operands(output_grad: %x, weight: %w)
    irdl.results(result: %res)
  }
  irdl.operation @conv_grad_weight {
    %x = irdl.base "!builtin.tensor"
    %w = irdl.base "!builtin.tensor"
    %res = irdl.base "!builtin.tensor"
    %stride = irdl.base "#builtin.dense_array"
    %padding = irdl.base "#builtin.dense_array"
    %dilation = irdl.base "#builtin.dense_array"
    %groups = irdl.base "#builtin.integer"
    irdl.attributes { "stride" = %stride, "padding" = %padding, "dilation" = %dilation, "groups" = %groups }
    irdl.operands(input: %x, output_grad: %w)
    irdl.results(result: %res)
  }
  // Fused attention and its gradient (docs/design.md, "Attention"): scale (f64, required),
  // causal (integer), mask ("keep", "drop", "add": a mask operand follows) and keep (f64:
  // seed and offset follow) attributes. The optional operands are one variadic group,
  // which IRDL binds to one type, so these entries serve upstream tools for a mask-free,
  // dropout-free op only: remat's loader leaves them out and registers the ops itself
  // (rt_extern_op.cpp), and rt_verify checks them.
  irdl.operation @attention {
    %q = irdl.base "!builtin.tensor"
    %k = irdl.base "!builtin.tensor"
    %v = irdl.base "!builtin.tensor"
    %rest = irdl.any
    %o = irdl.base "!builtin.tensor"
    %lse = irdl.base "!builtin.tensor"
    %scale = irdl.base "#builtin.float"
    irdl.attributes { "scale" = %scale }
    irdl.operands(q: %q, k: %k, v: %v, rest: variadic %rest)
    irdl.results(output: %o, logsumexp: %lse)
  }
  irdl.operation @attention_grad {
    %q = irdl.base "!builtin.tensor"
    %k = irdl.base "!builtin.tensor"
    %v = irdl.base "!builtin.tensor"
    %o = irdl.base "!builtin.tensor"
    %lse = irdl.base "!builtin.tensor"
    %do = irdl.base "!builtin.tensor"
    %rest = irdl.any
    %dq = irdl.base "!builtin.tensor"
    %dk = irdl.base "!builtin.tensor"
    %dv = irdl.base "!builtin.tensor"
    %scale = irdl.base "#builtin.float"
    irdl.attributes { "scale" = %scale }
    irdl.operands(q: %q, k: %k, v: %v, output: %o, logsumexp: %lse, output_grad: %do, rest: variadic %rest)
    irdl.results(q_grad: %dq, k_grad: %dk, v_grad: %dv)
  }
  // An operation remat does not model (docs/design.md, "Ops remat does not model"): the
  // producer's name for it ("aten.convolution.default"), any operands, one or more
  // results, optional recompute = "once" | "pure" | "forward" and flops = N : i64. IRDL
  // binds a variadic group to one type, so this entry admits operands of one type and
  // results of one type: it serves upstream tools (mlir-opt --irdl-file). remat's loader
  // leaves it out and registers rt.extern itself for operands and results of any types
  // (rt_extern_op.cpp); rt_verify checks them.
  irdl.operation @extern {
    %args = irdl.any
    %res = irdl.any
    %name = irdl.base "#builtin.string"
    irdl.attributes { "name" = %name }
    irdl.operands(args: variadic %args)
    irdl.results(results: variadic %res)
  }
}
