"""Rewrites of the joint graph that keep every value bit for bit and make the forward
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


def fuse_masks(graph, saved=()):
    """Rewrites each `lt(philox_uniform(state, size), keep)` whose draw nothing else
    reads into `philox_mask(state, size, keep)` (remat_torch.dropout), under the lt
    node's name: one pass that writes the bool mask, where the pair wrote a float tensor
    (4 bytes an element) and read it back. Run after the cut (the rt function has the
    pair), on the joint graph the two modules are extracted from; nodes in `saved` are
    left alone. Returns how many it rewrote."""
    from . import dropout
    saved = set(saved)
    count = 0
    for node in list(graph.nodes):
        if node.op != "call_function" or node.target is not dropout.philox_uniform_op or \
                node in saved or len(node.users) != 1:
            continue
        lt = next(iter(node.users))
        if lt.target is not torch.ops.aten.lt.Scalar or lt in saved or lt.args[0] is not node \
                or not isinstance(lt.args[1], (int, float)) or isinstance(lt.args[1], bool):
            continue
        with graph.inserting_before(lt):
            mask = graph.call_function(dropout.philox_mask_op,
                                       (*node.args, float(lt.args[1])))
        mask.meta = dict(lt.meta)
        lt.replace_all_uses_with(mask)
        graph.erase_node(lt)
        graph.erase_node(node)
        mask.name = lt.name
        count += 1
    return count


def fold_transposes(graph, saved=()):
    """Replaces `transpose(transpose(x, a, b), a, b)` (in either order of a and b) by x
    where x is saved and the outer node is not: the same view of the same storage, so
    the readers compute the same bits, and the backward, which gets x among the saved
    values (remat saves parameters, as they cost no memory), runs no pair of view ops
    per use (torch's min-cut saves the outer view instead). Run after the cut. Returns
    how many it replaced."""
    saved = set(saved)
    t = torch.ops.aten.transpose.int
    count = 0
    for node in list(graph.nodes):
        if node.op != "call_function" or node.target is not t or node in saved:
            continue
        inner = node.args[0]
        if not isinstance(inner, torch.fx.Node) or inner.target is not t or \
                inner.args[0] not in saved or not _same_swap(node, inner):
            continue
        node.replace_all_uses_with(inner.args[0])
        graph.erase_node(node)
        count += 1
    return count


def _same_swap(a, b):
    """Whether two transpose.int nodes swap the same pair of dimensions."""
    rank = len(a.meta["tensor_meta"].shape) if "tensor_meta" in a.meta else None
    if rank is None:
        return False
    pair = lambda n: sorted(d % rank for d in n.args[1:3])  # noqa: E731
    return pair(a) == pair(b)
