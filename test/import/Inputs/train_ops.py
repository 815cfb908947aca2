"""Ops a training step uses outside the blocks (test/import/train-ops.test)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AbsBCE(nn.Module):
    """abs (its backward is sgn) and binary_cross_entropy_with_logits (clamp_min,
    log1p-free form), with dropout, against float targets that need no gradient."""

    def __init__(self, d=8, p=0.25):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.drop = nn.Dropout(p)

    def forward(self, x, target):
        h = self.drop(torch.abs(self.fc(x)))
        return F.binary_cross_entropy_with_logits(h - 1.0, target)


class Pointwise(nn.Module):
    """clamp / clamp_min / clamp_max, sign, softplus (beta, threshold), logsigmoid,
    log1p, erf GELU, log_softmax, arange, BatchNorm in training mode."""

    def __init__(self, d=8):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.bn = nn.BatchNorm1d(d)

    def forward(self, x):
        h = self.bn(self.fc(x))
        a = h.clamp(-0.5, 0.75) + h.clamp_min(0.1) * torch.sign(h) + h.clamp_max(0.2)
        b = F.softplus(h, beta=2.0, threshold=1.0) + F.logsigmoid(h)
        c = torch.log1p(torch.abs(h)) + F.gelu(h)
        pos = torch.arange(h.shape[1], dtype=torch.float32) * 0.5 + torch.arange(2, 2 + h.shape[1])
        return F.log_softmax(a * b + c + pos, dim=-1)


class MaxIndex(nn.Module):
    """max.dim (values and indices), the indices used to gather from another tensor
    (take_along_dim, as a user picks the argmax's entry), index_select of rows."""

    def __init__(self, d=8):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.register_buffer("rows", torch.tensor([3, 0, 3, 1]))

    def forward(self, x):
        h = self.fc(x)
        v, i = h.max(dim=1, keepdim=True)
        picked = torch.gather(torch.tanh(h), 1, i)
        return v * picked + torch.index_select(h, 0, self.rows).sum(0, keepdim=True)


class Lookup(nn.Module):
    """An embedding of 1003 rows looked up by ids, scaled by a mask that needs no gradient
    (test/import/inputs.test)."""

    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(1003, 4)

    def forward(self, ids, mask):
        return self.emb(ids) * mask
