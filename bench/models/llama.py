"""Llama-style block: RMSNorm, causal attention (bmm, masked_fill, softmax), SwiGLU
MLP (silu(x W1) * x W3) W2, no biases, no dropout. `layers` blocks in a row."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

DEFAULTS = dict(batch=2, seq=8, d=16, heads=2, hidden=32, eps=1e-5)


class RMSNorm(nn.Module):
    def __init__(self, d, eps):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class Attention(nn.Module):
    def __init__(self, d, heads, seq):
        super().__init__()
        self.heads = heads
        self.wq = nn.Linear(d, d, bias=False)
        self.wk = nn.Linear(d, d, bias=False)
        self.wv = nn.Linear(d, d, bias=False)
        self.wo = nn.Linear(d, d, bias=False)
        self.register_buffer("mask", torch.tril(torch.ones(seq, seq, dtype=torch.bool)))

    def forward(self, x):
        B, T, D = x.shape
        h, hd = self.heads, D // self.heads

        def heads(t):
            return t.view(B, T, h, hd).transpose(1, 2).reshape(B * h, T, hd)

        q, k, v = heads(self.wq(x)), heads(self.wk(x)), heads(self.wv(x))
        att = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(hd)
        att = att.view(B, h, T, T).masked_fill(~self.mask[:T, :T], float("-inf"))
        att = F.softmax(att, dim=-1).view(B * h, T, T)
        y = torch.bmm(att, v).view(B, h, T, hd).transpose(1, 2).reshape(B, T, D)
        return self.wo(y)


class Block(nn.Module):
    def __init__(self, d, heads, seq, hidden, eps):
        super().__init__()
        self.attn_norm = RMSNorm(d, eps)
        self.attn = Attention(d, heads, seq)
        self.ffn_norm = RMSNorm(d, eps)
        self.w1 = nn.Linear(d, hidden, bias=False)
        self.w2 = nn.Linear(hidden, d, bias=False)
        self.w3 = nn.Linear(d, hidden, bias=False)

    def forward(self, x):
        x = x + self.attn(self.attn_norm(x))
        h = self.ffn_norm(x)
        return x + self.w2(F.silu(self.w1(h)) * self.w3(h))


class Llama(nn.Module):
    def __init__(self, layers, d, heads, seq, hidden, eps):
        super().__init__()
        self.blocks = nn.ModuleList(Block(d, heads, seq, hidden, eps) for _ in range(layers))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def build(layers=1, batch=2, seq=8, d=16, heads=2, hidden=32, eps=1e-5):
    model = Llama(layers, d, heads, seq, hidden, eps).train()
    x = torch.randn(batch, seq, d, requires_grad=True)
    return model, [x]
