#!/usr/bin/python3
"""torch_run.py SCRIPT ARGS...: `python3 SCRIPT ARGS...` on the run's fork server
($REMAT_TORCH_SERVER, test/torch_server.py) when one answers, else by exec. lit's
%torch_python, for the tests' Python scripts that import torch (eager checks, the
PyTorch binding's tests): each then skips Python's import of torch."""
import sys

import torch_server

if len(sys.argv) < 2:
    sys.exit(__doc__.strip().splitlines()[0])
torch_server.run_or_exec(sys.argv[1:], [sys.executable] + sys.argv[1:])
