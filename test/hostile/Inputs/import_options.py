"""import_options.py IMPORTER MODEL_DIR: every bad value of the importer's options (wrong
type, out of range, an option that does not apply) must end in one line
`remat-import-torch: error: ...` and exit status 1, never a traceback. Runs the importer's
main() in this process for each row of TABLE (torch is imported once); prints one line
per failed row and the totals."""
import contextlib
import importlib.machinery
import importlib.util
import io
import os
import sys

importer_path, inputs = sys.argv[1], sys.argv[2]
loader = importlib.machinery.SourceFileLoader("remat_import_torch", importer_path)
spec = importlib.util.spec_from_loader("remat_import_torch", loader)
importer = importlib.util.module_from_spec(spec)
loader.exec_module(importer)

M = os.path.join(inputs, "linear.py:Net")
ERR = "remat-import-torch: error: "
RANGE = "expected an integer from"
TABLE = [
    # types and ranges of the integer options
    (["gpt", "--layers", "x"], f"argument --layers: {RANGE} 1 to 1024, got 'x'"),
    (["gpt", "--layers", "0"], f"argument --layers: {RANGE} 1 to 1024, got '0'"),
    (["gpt", "--layers", "99999999999999999999"], f"argument --layers: {RANGE} 1 to 1024"),
    (["gpt", "--layers", "0x10"], f"argument --layers: {RANGE} 1 to 1024, got '0x10'"),
    (["gpt", "--layers"], "argument --layers: expected one argument"),
    (["gpt", "--seed", "-1"], f"argument --seed: {RANGE} 0 to 18446744073709551615, got '-1'"),
    (["gpt", "--seed", str(2**64)], f"argument --seed: {RANGE} 0 to 18446744073709551615"),
    (["gpt", "--seed", "1.5"], f"argument --seed: {RANGE} 0 to 18446744073709551615, got '1.5'"),
    (["gpt", "--partition", "p.json", "--partition-runs", "0"],
     f"argument --partition-runs: {RANGE} 1 to 1000, got '0'"),
    (["gpt", "--partition-compiler", "gcc"], "argument --partition-compiler: invalid choice: 'gcc'"),
    (["gpt", "--bogus"], "unrecognized arguments: --bogus"),
    # options that do not apply
    (["gpt", "--partition-runs", "2"], "--partition-runs does not apply without --partition"),
    (["gpt", "--partition-compiler", "inductor"], "--partition-compiler does not apply without --partition"),
    (["gpt", "--compiled"], "--compiled does not apply without --check"),
    (["gpt", "--remat-run", "remat-run"], "--remat-run does not apply without --check"),
    (["gpt", "--input", "4x8"], "--input does not apply to the zoo model gpt: it builds its inputs"),
    ([M, "--layers", "2", "--input", "4x8"], "--layers does not apply to " + M),
    (["gpt", "--expected", "d"], "--expected needs --forward-only"),
    # names
    (["gpt", "--fn", "a b"], "--fn 'a b' is not a function name"),
    (["gpt", "--fn", "9x"], "--fn '9x' is not a function name"),
    (["nosuch"], "unknown model 'nosuch'"),
    # zoo sizes: a key, its type, what the model refuses
    (["gpt", "--set", "d"], "--set expects KEY=VALUE, got 'd'"),
    (["gpt", "--set", "width=3"], "gpt has no size 'width'"),
    (["gpt", "--set", "d=abc"], "--set d=abc: gpt's 'd' is an integer (default 16)"),
    (["gpt", "--set", "d=1.5"], "--set d=1.5: gpt's 'd' is an integer (default 16)"),
    (["gpt", "--set", "p=high"], "--set p=high: gpt's 'p' is a number (default 0.1)"),
    (["classifier", "--set", "reduction=3"], "--set reduction=3: classifier's 'reduction' is a string"),
    (["gpt", "--set", "p=1.5"], "building gpt with p=1.5 failed: ValueError: dropout probability"),
    (["gpt", "--set", "d=7"], "tracing gpt failed: RuntimeError: "),
    (["gpt", "--set", "batch=-1"], "building gpt with batch=-1 failed: RuntimeError: "),
    # --input SHAPE[:DTYPE[:LO:HI]][:nograd]
    ([M, "--input", "4x8:"], "--input '4x8:': empty field"),
    ([M, "--input", ":"], "--input ':': empty field"),
    ([M, "--input", "4x8::"], "--input '4x8::': expected SHAPE[:DTYPE[:LO:HI]][:nograd]"),
    ([M, "--input", "4x8:f32:0:1:"], "--input '4x8:f32:0:1:': expected SHAPE"),
    ([M, "--input", "4xx8"], "--input '4xx8': shape must look like 4x16"),
    ([M, "--input=-1x8"], "--input '-1x8': shape must look like 4x16"),
    ([M, "--input", "4_0x8"], "--input '4_0x8': shape must look like 4x16"),
    ([M, "--input", " 4x8"], "--input ' 4x8': shape must look like 4x16"),
    ([M, "--input", "nograd"], "--input 'nograd': shape must look like 4x16"),
    ([M, "--input", "99999999999x99999999999"],
     "--input '99999999999x99999999999': 39999999999200000000004 bytes, more than the "
     "4294967296 bytes of remat-run's largest buffer"),
    ([M, "--input", "65536x16385"], "--input '65536x16385': 4295229440 bytes, more than"),
    ([M, "--input", "4x8:f8"], "--input '4x8:f8': element type must be one of"),
    ([M, "--input", "4x8:i64:0:99999999999999999999"],
     "--input '4x8:i64:0:99999999999999999999': the range LO:HI of i64 must lie in "
     "[-9223372036854775808, 9223372036854775807]"),
    ([M, "--input", "4x8:i32:0:2147483649"], "the range LO:HI of i32 must lie in [-2147483648, 2147483648]"),
    ([M, "--input", "4x8:f32:-1e308:1e308"], "the range LO:HI of f32 must lie in [-3.40282e+38, 3.40282e+38]"),
    ([M, "--input", "4x8:f16:0:1e5"], "the range LO:HI of f16 must lie in [-65504, 65504]"),
    ([M, "--input", "4x8:f32:-3e38:3e38"], "and be at most 3.40282e+38 wide"),
    ([M, "--input", "4x8:f32:0:inf"], "--input '4x8:f32:0:inf': the range LO:HI must be two numbers"),
    ([M, "--input", "4x8:f32:nan:1"], "the range LO:HI must be two numbers"),
    ([M, "--input", "4x8:i64:0x10:100"], "the range LO:HI must be two numbers"),
    ([M, "--input", "4x8:i64:1.5:100"], "the range LO:HI must be two numbers"),
    ([M, "--input", "4x8:i1:0:1"], "the range LO:HI needs LO < HI (and no i1)"),
    # the model file and what it raises, the outputs
    ([os.path.join(inputs, "nosuch.py:Net"), "--input", "4"], "no such file"),
    ([M, "--set", "depth=3", "--input", "4x8"], f"building {M} failed: TypeError: "),
    ([M, "--set", "width=-2", "--input", "4x8"], f"building {M} failed: RuntimeError: "),
    ([M, "--input", "4x8", "-o", "/nonexistent-dir/x.mlir"],
     "/nonexistent-dir/x.mlir: No such file or directory"),
]

failed = 0
for argv, want in TABLE:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            importer.main(argv)
            code = 0
        except SystemExit as e:
            code = e.code
        except BaseException as e:  # a traceback: the finding this test is for
            code = f"{type(e).__name__}: {e}"
    lines = err.getvalue().splitlines()
    if code != 1 or len(lines) != 1 or not lines[0].startswith(ERR) or want not in lines[0]:
        failed += 1
        print(f"FAILED {argv}: exit {code!r}, stderr {lines!r}, expected one line with {want!r}")
print(f"import-options: {len(TABLE)} cases, {failed} failed")
sys.exit(1 if failed else 0)
