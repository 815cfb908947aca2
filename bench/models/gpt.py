"""GPT-style pre-LN transformer block (nanoGPT's shape): causal self-attention through
bmm, a causal mask buffer applied with masked_fill, softmax, attention and residual
dropout, and an MLP with tanh-approximated GELU. `layers` blocks in a row."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

DEFAULTS = dict(batch=2, seq=8, d=16, heads=2, p=0.1)


class CausalSelfAttention(nn.Module):
    def __init__(self, d, heads, seq, p):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.attn_drop = nn.Dropout(p)
        self.resid_drop = nn.Dropout(p)
        self.register_buffer("mask", torch.tril(torch.ones(seq, seq, dtype=torch.bool)))

    def forward(self, x):
        B, T, D = x.shape
        h, hd = self.heads, D // self.heads
        q, k, v = self.qkv(x).split(D, dim=2)
        q = q.view(B, T, h, hd).transpose(1, 2).reshape(B * h, T, hd)
        k = k.view(B, T, h, hd).transpose(1, 2).reshape(B * h, T, hd)
        v = v.view(B, T, h, hd).transpose(1, 2).reshape(B * h, T, hd)
        att = torch.bmm(q, k.transpose(1, 2)) * (1.0 / math.sqrt(hd))
        att = att.view(B, h, T, T).masked_fill(~self.mask[:T, :T], float("-inf"))
        att = self.attn_drop(F.softmax(att, dim=-1)).view(B * h, T, T)
        y = torch.bmm(att, v).view(B, h, T, hd).transpose(1, 2).reshape(B, T, D)
        return self.resid_drop(self.proj(y))


class Block(nn.Module):
    def __init__(self, d, heads, seq, p):
        super().__init__()
        self.ln1 = nn.LayerNorm(d)
        self.attn = CausalSelfAttention(d, heads, seq, p)
        self.ln2 = nn.LayerNorm(d)
        self.fc = nn.Linear(d, 4 * d)
        self.fc_proj = nn.Linear(4 * d, d)
        self.mlp_drop = nn.Dropout(p)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        h = F.gelu(self.fc(self.ln2(x)), approximate="tanh")
        return x + self.mlp_drop(self.fc_proj(h))


class GPT(nn.Module):
    def __init__(self, layers, d, heads, seq, p):
        super().__init__()
        self.blocks = nn.ModuleList(Block(d, heads, seq, p) for _ in range(layers))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def build(layers=1, batch=2, seq=8, d=16, heads=2, p=0.1):
    model = GPT(layers, d, heads, seq, p).train()
    x = torch.randn(batch, seq, d, requires_grad=True)
    return model, [x]
