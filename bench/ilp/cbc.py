"""CBC (Debian's coinor-cbc) on an LP file, for budget_ilp.py and checkmate/checkmate.py:
`cbc LP -sec T -ratio 0 -allow 0 -solve -solu SOL`, then the solution file read back."""
import os
import re
import subprocess
import time


class CbcError(Exception):
    pass


def solve(lp, sol, seconds):
    """(status, objective or None, {variable: value}, wall seconds); status "optimal" or
    CBC's first words ("stopped on time", "infeasible", ...). CbcError when CBC fails."""
    t0 = time.time()
    r = subprocess.run(["cbc", lp, "-sec", str(seconds), "-ratio", "0", "-allow", "0",
                        "-solve", "-solu", sol], capture_output=True, text=True)
    dt = time.time() - t0
    if r.returncode != 0 or not os.path.exists(sol):
        raise CbcError(f"cbc failed on {lp}:\n{r.stdout}\n{r.stderr}")
    with open(sol) as f:
        head = f.readline()
        values = {}
        for line in f:
            t = line.split()
            if t[:1] == ["**"]:      # CBC marks a value that breaks a row: the value stands
                t = t[1:]
            if len(t) >= 3:
                values[t[1]] = float(t[2])
    m = re.search(r"objective value\s+(-?[0-9.eE+]+)", head)
    status = "optimal" if head.startswith("Optimal") else head.split(" - ")[0].strip().lower()
    return status, float(m.group(1)) if m else None, values, dt
