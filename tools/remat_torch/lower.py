"""Rewrites of the joint graph that keep every value bit for bit and make the forward and
backward that partition_fn returns cheaper to run (docs/importer.md, "partition_fn").

prims.convert_element_type, which torch's decompositions write for every dtype
conversion (layer norm writes three, to the dtype their inputs already have), is a
Python prim on the CPU: about 120 us a call where an ATen op takes 5 (bench/RESULTS.md,
"Inside PyTorch"), and a backward that recomputes values runs more of them. Here:
- a conversion to the dtype its input has is a copy: its users take the input itself
  (then torch's CSE can merge the ops that read either, e.g. layer norm's x - mean,
  which its backward computes again from the converted mean);
- any other conversion is aten._to_copy(x, dtype=...): the same empty_like + copy_
  (same strides, same values), in C++.
A conversion the graph returns stays a copy, as aten._to_copy: an output that is another
value itself (an input, another output) would alias it.
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
        tm = x.meta.get("tensor_meta") if isinstance(x, torch.fx.Node) else None
        returned = any(u.op == "output" for u in node.users)
        if tm is not None and tm.dtype == dtype and not returned:
            node.replace_all_uses_with(x)
        else:
            with graph.inserting_before(node):
                copy = graph.call_function(torch.ops.aten._to_copy.default, (x,),
                                           {"dtype": dtype})
            copy.meta = dict(node.meta)
            node.replace_all_uses_with(copy)
        graph.erase_node(node)
        count += 1
    return count
