"""A bf16 MLP (test/import/bf16.test): parameters and input in bf16."""
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, d=16, hidden=32):
        super().__init__()
        self.l1 = nn.Linear(d, hidden).to(torch.bfloat16)
        self.l2 = nn.Linear(hidden, d).to(torch.bfloat16)

    def forward(self, x):
        return self.l2(torch.tanh(self.l1(x))) + x


class Pointwise16(nn.Module):
    """An f16 model of the few ops torch 1.13 has f16 CPU kernels for (no matmul, tanh
    or exp): a scale, a product, a sum."""

    def __init__(self, d=16):
        super().__init__()
        self.w = nn.Parameter(torch.randn(d).to(torch.float16))

    def forward(self, x):
        h = x * self.w + x
        return (h * h).sum(0)
