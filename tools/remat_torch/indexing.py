"""Decompositions of the training-step ops that index: embeddings and nll_loss, written
with torch.gather and torch.scatter_add, which the emitter maps one to one to rt.gather
and rt.scatter_add (docs/design.md, "Indexing ops"). torch 1.13's own decompositions of
these ops use index_select, index_put and scatter (an overwrite, whose order with
duplicate indices torch leaves open); these keep to the two ops whose semantics rt
states, so the graph remat imports and the graph torch runs in --check are the same."""
import torch
import torch.fx as fx

aten = torch.ops.aten

# torch.nn._reduction's codes
NONE, MEAN, SUM = 0, 1, 2


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    """weight[indices]: indices [*] -> [N, 1] broadcast to [N, H], gathered along dim 0
    from weight [V, H], reshaped to [*, H]. padding_idx only affects the backward."""
    h = weight.shape[1]
    idx = indices.reshape(-1, 1).expand(-1, h)
    return torch.gather(weight, 0, idx).reshape(*indices.shape, h)


def embedding_dense_backward(grad_output, indices, num_weights, padding_idx,
                             scale_grad_by_freq):
    """The weight's gradient: each row of grad_output added to the row its index names,
    in row-major order of the indices (rt.scatter_add's order); rows of padding_idx get
    nothing."""
    if scale_grad_by_freq:
        raise NotImplementedError("embedding with scale_grad_by_freq=True")
    h = grad_output.shape[-1]
    g = grad_output.reshape(-1, h)
    flat = indices.reshape(-1)
    if padding_idx >= 0:
        g = torch.where((flat != padding_idx).unsqueeze(1), g, 0.0)
    idx = flat.unsqueeze(1).expand(-1, h)
    base = torch.zeros(num_weights, h, dtype=grad_output.dtype)
    return torch.scatter_add(base, 0, idx, g)


def _batched(x, target):
    """nll_loss also takes one sample ([C] and a 0-d target): as a batch of one."""
    if x.dim() == 1:
        return x.unsqueeze(0), target.reshape(1), True
    if x.dim() != 2:
        raise NotImplementedError("nll_loss of a rank > 2 input (spatial dims)")
    return x, target, False


def nll_loss_forward(self, target, weight, reduction, ignore_index):
    """(loss, total_weight): loss_i = -self[i, target_i], 0 where target_i ==
    ignore_index; mean divides the sum by the number of counted targets (total_weight),
    sum does not, none returns the per-sample losses."""
    if weight is not None:
        raise NotImplementedError("nll_loss with class weights")
    x, t, single = _batched(self, target)
    valid = t != ignore_index
    safe = torch.where(valid, t, 0)
    picked = torch.gather(x, 1, safe.unsqueeze(1)).squeeze(1)
    loss = torch.where(valid, -picked, 0.0)
    total = valid.sum().to(x.dtype)
    if reduction == NONE:
        return (loss.squeeze(0) if single else loss), total
    out = loss.sum()
    if reduction == MEAN:
        out = out / total
    return out, total


def nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index,
                      total_weight):
    """d self[i, target_i] = -grad (/ total_weight for mean), 0 elsewhere and on ignored
    targets: one addition per row into zeros (rt.scatter_add; each target once)."""
    if weight is not None:
        raise NotImplementedError("nll_loss with class weights")
    x, t, single = _batched(self, target)
    valid = t != ignore_index
    safe = torch.where(valid, t, 0)
    g = -grad_output
    if reduction == MEAN:
        g = g / total_weight
    if reduction == NONE and single:
        g = g.reshape(1)
    g = torch.where(valid, g.expand(t.shape) if g.dim() == 0 else g, 0.0)
    base = torch.zeros_like(x)
    out = torch.scatter_add(base, 1, safe.unsqueeze(1), g.unsqueeze(1))
    return out.squeeze(0) if single else out


# ops through which an integer input reaches an index unchanged (views, copies, and
# where's first branch: nll_loss's `where(target != ignore_index, target, 0)`)
_PASS = {aten.view.default, aten._unsafe_view.default, aten.reshape.default,
         aten._reshape_alias.default, aten.expand.default, aten.unsqueeze.default, aten.squeeze.dim, aten.squeeze.default,
         aten.clone.default, aten.alias.default, aten._to_copy.default, aten.where.self}


def index_ranges(graph):
    """{placeholder: (0, n)} for each integer placeholder that reaches the index of a
    gather or scatter_add (dim d of a source with n rows there): class labels of
    nll_loss and ids of embeddings, as the decompositions above write them. Where one
    placeholder reaches several indices, the narrowest range."""
    out = {}
    for node in graph.nodes:
        if node.op != "call_function" or node.target not in (aten.gather.default,
                                                             aten.scatter_add.default):
            continue
        src, dim, idx = node.args[:3]
        meta = src.meta.get("tensor_meta") if hasattr(src, "meta") else None
        if meta is None:
            continue
        n = meta.shape[dim] if len(meta.shape) else 1  # a 0-d source: one element
        while isinstance(idx, fx.Node) and idx.op == "call_function" and \
                idx.target in _PASS:
            idx = idx.args[1] if idx.target == aten.where.self else idx.args[0]
        if isinstance(idx, fx.Node) and idx.op == "placeholder":
            out[idx] = (0, min(n, out[idx][1]) if idx in out else n)
    return out


def table():
    return {
        aten.embedding.default: embedding,
        aten.embedding_dense_backward.default: embedding_dense_backward,
        aten.nll_loss_forward.default: nll_loss_forward,
        aten.nll_loss_backward.default: nll_loss_backward,
    }
