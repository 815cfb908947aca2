"""The torch scripts' checks (torch_tests.py, any_model.py, fx_passes_test.py,
lower_test.py): expect() prints "ok: WHAT" or "FAILED: WHAT", the lines FileCheck reads,
and keeps the failures in `failed` for the script's exit status."""
failed = []


def expect(cond, what):
    print(("ok: " if cond else "FAILED: ") + what)
    if not cond:
        failed.append(what)
