"""option_nul.py FILE: a NUL inside pass options handed to the ctypes binding, on the
joint functions of FILE (option-nul.test)."""
import sys

from remat_torch import binding

TEXT = open(sys.argv[1]).read()
with binding.Context() as ctx:
    for what, options in [("dict", {"ban": "matmul\0elementwise"}),
                          ("text", "ban=matmul\0elementwise"),
                          ("report", {"report": "-\0x"})]:
        m = ctx.parse(TEXT)
        try:
            m.run([("remat-mincut", options)])
            print(what, "accepted")
        except binding.RematError as e:
            print(f"{what}: RematError: {e}")
