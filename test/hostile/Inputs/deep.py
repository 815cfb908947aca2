"""Writes deeply nested MLIR for deep-nesting.test: python3 deep.py KIND N."""
import sys

kind, n = sys.argv[1], int(sys.argv[2])
if kind == "module":  # n nested modules
    print("module {" * n + "}" * n)
elif kind == "array":  # n nested [ in an attribute
    print("func.func @f() attributes {a = " + "[" * n + "]" * n + "} {\n  return\n}")
elif kind == "plus":  # an affine expression of n + operators
    print("#m = affine_map<(d0) -> (" + " + ".join(["d0"] * (n + 1)) + ")>")
    print("func.func @f() attributes {a = #m} {\n  return\n}")
elif kind == "neg":  # n unary minus
    print("#m = affine_map<(d0) -> (" + "- " * n + "d0)>")
    print("func.func @f() attributes {a = #m} {\n  return\n}")
elif kind == "alias":  # a chain of n attribute aliases, one level each
    print("#a0 = [1]")
    for i in range(1, n):
        print(f"#a{i} = [#a{i - 1}]")
    print(f"func.func @f() attributes {{a = #a{n - 1}}} {{\n  return\n}}")
elif kind == "type-alias":  # a chain of n type aliases
    print("!t0 = tuple<f32>")
    for i in range(1, n):
        print(f"!t{i} = tuple<!t{i - 1}>")
    print(f"func.func @f(%x: !t{n - 1}) {{\n  return\n}}")
elif kind == "wide":  # many values at one level: not deep
    print("func.func @f() attributes {a = array<i64: " + ", ".join(["-1"] * n) + ">} {")
    for i in range(n):
        print(f"  %c{i} = arith.constant -1.0e-05 : f32")
    print("  return\n}")
else:
    sys.exit("unknown kind " + kind)
