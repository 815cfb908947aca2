#!/usr/bin/python3
"""torch_run.py SCRIPT ARGS...: `python3 SCRIPT ARGS...` on the run's fork server
($REMAT_TORCH_SERVER, test/torch_server.py) when one answers, else by exec. lit's
%torch_python, for the tests' Python scripts that import torch (eager checks, the
PyTorch binding's tests): each then skips Python's import of torch."""
import os
import sys

import torch_server

if len(sys.argv) < 2:
    sys.exit(__doc__.strip().splitlines()[0])
code = torch_server.request(os.environ.get("REMAT_TORCH_SERVER"), sys.argv[1:], [0, 1, 2])
if code is not None:
    sys.exit(code)
os.execv(sys.executable, [sys.executable] + sys.argv[1:])
