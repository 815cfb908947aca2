"""remat_torch.partition_fn's keywords, each wrong type and out-of-range value from a
table (test/hostile/partition-options.test): each is a TypeError or ValueError of one
line naming the option, raised before the graph is touched (the joint module given is
an object that fails on any use), never an AttributeError. One line per row:
    OPTIONS -> TypeError: message"""
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tools"))

import remat_torch  # noqa: E402

ROWS = [
    # unknown names
    ({"scalar_facto": 0.1}, TypeError),
    ({"checkpoint": {"frob": 1}}, TypeError),
    # --remat-mincut's options
    ({"scalar_factor": "0.1"}, TypeError),
    ({"scalar_factor": True}, TypeError),
    ({"scalar_factor": -1}, ValueError),
    ({"scalar_factor": math.nan}, ValueError),
    ({"scalar_factor": math.inf}, ValueError),
    ({"params_free": 1}, TypeError),
    ({"ban": 5}, TypeError),
    ({"ban": ["matmul", 3]}, TypeError),
    ({"ban": ""}, ValueError),
    ({"ban": "frob"}, ValueError),
    ({"ban_random": None}, TypeError),
    ({"reduction_ratio": 4.0}, TypeError),
    ({"reduction_ratio": -1}, ValueError),
    ({"objective": 1}, TypeError),
    ({"objective": "speed"}, ValueError),
    ({"peak_budget": 1.5}, TypeError),
    ({"peak_budget": -1, "objective": "peak"}, ValueError),
    ({"peak_budget": 2**63, "objective": "peak"}, ValueError),
    ({"peak_budget": 100}, ValueError),
    ({"peak_search": "fast", "objective": "peak"}, ValueError),
    ({"report": 5}, TypeError),
    ({"dot": ["a.dot"]}, TypeError),
    ({"timeline": 'a"b.svg'}, ValueError),
    ({"dump_network": None}, TypeError),
    # --remat-checkpoint's, as a dict or as text
    ({"checkpoint": 123}, TypeError),
    ({"checkpoint": {"ac": "sometimes"}}, ValueError),
    ({"checkpoint": {"ac": -2.0}}, ValueError),
    ({"checkpoint": {"fsdp": "maybe"}}, ValueError),
    ({"checkpoint": {"save_ops": 7}}, TypeError),
    ({"checkpoint": {"save_every": 0}}, ValueError),
    ({"checkpoint": {"memory_budget": -2}}, ValueError),
    ({"checkpoint": {"budget_greedy": "no"}}, TypeError),
    ({"checkpoint": "save-every=0"}, ValueError),
    ({"checkpoint": "frob=1"}, ValueError),
    # partition_fn's own
    ({"fallback": None}, TypeError),
    ({"fallback": "never"}, ValueError),
    ({"stats": 5}, TypeError),
    ({"stats": []}, TypeError),
    ({"sink": "no"}, TypeError),
    # valid options pass the checks and reach the graph (the Untouchable fails there,
    # and that error is remat's partitioning's, a RematPartitionError)
    ({"objective": "peak", "peak_budget": 10**6, "peak_search": "exact"}, "valid"),
    ({"checkpoint": {"ac": "auto", "save_ops": ["mm"], "save_every": 3}}, "valid"),
    ({"checkpoint": True, "ban": ["matmul", "rt.exp"], "scalar_factor": 0}, "valid"),
    ({"reduction_ratio": 0}, "valid"),
]


class Untouchable:
    """A joint module that fails on any use: the checks come before any work."""

    def __getattr__(self, name):
        raise AssertionError(f"partition_fn touched the graph ({name}) before its checks")


failed = 0
for options, want in ROWS:
    try:
        remat_torch.partition_fn(Untouchable(), None, **options)
        got, text = None, "no error"
    except Exception as e:  # noqa: BLE001
        got, text = type(e), str(e)
    if want == "valid":
        want = remat_torch.RematPartitionError
        ok = got is want and "touched the graph" in text
    else:
        ok = got is want and "\n" not in text
    failed += not ok
    print(f"{'' if ok else 'FAILED: '}{options} -> {got.__name__ if got else '-'}: {text}")
print(f"{len(ROWS)} rows, {failed} failed")
sys.exit(1 if failed else 0)
