// The semantic verifier on rt.extern (docs/design.md, "Ops remat does not model"): its
// name, recompute and flops attributes, its types (static ranked tensors or numbers of
// any integer or float element type remat can size), at least one result; and the
// signature of a joint function, whose values the passes weigh by their bytes. Each part
// between the separators is a module of its own.
// RUN: remat-opt --split-input-file --verify-diagnostics %s -o /dev/null

func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rt.extern' needs a non-empty string attribute 'name' (the operation's name, e.g. "aten.convolution.default")}}
  %0 = "rt.extern"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rt.extern' needs a non-empty string attribute 'name'}}
  %0 = "rt.extern"(%x) {name = ""} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rt.extern' needs a non-empty string attribute 'name'}}
  %0 = "rt.extern"(%x) {name = 3 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rt.extern' (aten.abs.default) recompute must be "once", "pure" or "forward"}}
  %0 = "rt.extern"(%x) {name = "aten.abs.default", recompute = "twice"} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rt.extern' (aten.abs.default) recompute must be "once", "pure" or "forward"}}
  %0 = "rt.extern"(%x) {name = "aten.abs.default", recompute = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rt.extern' (aten.abs.default) flops must be an integer >= 0}}
  %0 = "rt.extern"(%x) {name = "aten.abs.default", flops = -1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rt.extern' (aten.abs.default) flops must be an integer >= 0}}
  %0 = "rt.extern"(%x) {name = "aten.abs.default", flops = 2.5 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rt.extern' needs at least one result}}
  "rt.extern"(%x) {name = "aten._assert_async.default"} : (tensor<4xf32>) -> ()
  return
}

// -----

func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rt.extern' result #0 has a dynamic shape 'tensor<?xf32>': only static shapes are supported}}
  %0 = "rt.extern"(%x) {name = "aten.nonzero.default"} : (tensor<4xf32>) -> tensor<?xf32>
  return
}

// -----

func.func @f(%x: tensor<4xf32>) {
  // expected-error @+1 {{'rt.extern' result #1 is an unranked tensor 'tensor<*xf32>': only ranked tensors of a static shape are supported}}
  %0:2 = "rt.extern"(%x) {name = "aten.split.Tensor"} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<*xf32>)
  return
}

// -----

func.func @f(%x: tensor<4xcomplex<f32>>) {
  // expected-error @+1 {{'rt.extern' operand #0 has element type in 'tensor<4xcomplex<f32>>' that remat cannot size (expected an integer or float type)}}
  %0 = "rt.extern"(%x) {name = "aten.abs.default"} : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
  return
}

// -----

func.func @f(%x: tensor<4xf32>, %i: index) {
  // expected-error @+1 {{'rt.extern' operand #1 must be a tensor or a scalar, got 'index'}}
  %0 = "rt.extern"(%x, %i) {name = "aten.select.int"} : (tensor<4xf32>, index) -> tensor<4xf32>
  return
}

// -----

func.func @f(%x: tensor<4611686018427387904x8xui8>) {
  // expected-error @+1 {{'rt.extern' operand #0: size of 'tensor<4611686018427387904x8xui8>' overflows 64 bits}}
  %0 = "rt.extern"(%x) {name = "aten.abs.default"} : (tensor<4611686018427387904x8xui8>) -> tensor<4xf32>
  return
}

// -----

// Any integer or float element type, scalars too: no diagnostic.
func.func @f(%a: tensor<2xui8>, %b: tensor<2xi16>, %c: tensor<2xsi32>, %d: tensor<2xf8E4M3FN>, %e: bf16, %f: ui8, %g: tensor<2xi1>) -> (tensor<2xf64>, tensor<2xf8E5M2>, tensor<ui16>) {
  %0:3 = "rt.extern"(%a, %b, %c, %d, %e, %f, %g) {name = "aten.frob.default", recompute = "pure", flops = 0 : i64, args = "kept and ignored"} : (tensor<2xui8>, tensor<2xi16>, tensor<2xsi32>, tensor<2xf8E4M3FN>, bf16, ui8, tensor<2xi1>) -> (tensor<2xf64>, tensor<2xf8E5M2>, tensor<ui16>)
  %1 = "rt.extern"() {name = "aten.empty.memory_format", recompute = "forward"} : () -> tensor<2xf32>
  return %0#0, %0#1, %0#2 : tensor<2xf64>, tensor<2xf8E5M2>, tensor<ui16>
}

// -----

// A joint function's signature: the passes size every argument and result.
// expected-error @+1 {{function '@j' argument #1: the type of 'tensor<4xcomplex<f32>>' is not one remat can size (a tensor of integers or floats, or a number)}}
func.func @j(%x: tensor<4xf32>, %c: tensor<4xcomplex<f32>>, %g: tensor<4xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {rt.num_outputs = 1 : i64} {
  return %x, %g : tensor<4xf32>, tensor<4xf32>
}

// -----

// expected-error @+1 {{function '@j' argument #1: the type of 'index' is not one remat can size}}
func.func @j(%x: tensor<4xf32>, %i: index, %g: tensor<4xf32> {rt.tangent}) -> (tensor<4xf32>, index) attributes {rt.num_outputs = 1 : i64} {
  return %x, %i : tensor<4xf32>, index
}

// -----

// expected-error @+1 {{function '@j' argument #1: the size of 'tensor<4611686018427387904x8xi16>' overflows 64 bits}}
func.func @j(%x: tensor<4xf32>, %h: tensor<4611686018427387904x8xi16>, %g: tensor<4xf32> {rt.tangent}) -> (tensor<4xf32>, tensor<4xf32>) attributes {rt.num_outputs = 1 : i64} {
  return %x, %g : tensor<4xf32>, tensor<4xf32>
}
