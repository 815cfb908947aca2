"""A rewrite of the joint graph that keeps every value bit for bit and makes the forward
and backward that partition_fn returns cheaper to run (docs/importer.md, "partition_fn").

prims.convert_element_type, which torch's decompositions write for every dtype
conversion (layer norm writes three per call, to the dtype their inputs already have),
is a Python prim on the CPU: about 120 us a call where an ATen op takes 5
(bench/RESULTS.md, issue 43), and a backward that recomputes values runs more of them.
Each becomes aten._to_copy(x, dtype=...): the same empty_like + copy_ (same strides, same
values), in C++, under the same node name. A conversion to the input's own dtype stays a copy: dropping it would
let torch's CSE merge ops that read either value, which changes the rt graph and so
remat's cut (the emitter writes both ops as the same rt.convert, or as nothing).
"""
import torch

_CONVERT = torch.ops.prims.convert_element_type.default


def cheap_converts(graph):
    """Rewrites graph's prims.convert_element_type nodes in place (see above); returns
    how many it rewrote."""
    count = 0
    for node in list(graph.nodes):
        if node.op != "call_function" or node.target is not _CONVERT:
            continue
        x, dtype = node.args
        with graph.inserting_before(node):
            copy = graph.call_function(torch.ops.aten._to_copy.default, (x,), {"dtype": dtype})
        copy.meta = dict(node.meta)
        node.replace_all_uses_with(copy)
        graph.erase_node(node)
        copy.name = node.name     # the node's name stays (saved sets, rt locations name it)
        count += 1
    return count
