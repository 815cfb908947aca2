"""BERT-style post-LN encoder layer: self-attention with an additive attention mask
(0 for tokens, -10000 for padding, broadcast over heads and queries), erf GELU, dropout
on attention probabilities and on both residual branches, LayerNorm after each residual
add. `layers` layers in a row; the mask is an input without gradient."""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

DEFAULTS = dict(batch=2, seq=8, d=16, heads=2, hidden=64, p=0.1)


class Layer(nn.Module):
    def __init__(self, d, heads, hidden, p):
        super().__init__()
        self.heads = heads
        self.query = nn.Linear(d, d)
        self.key = nn.Linear(d, d)
        self.value = nn.Linear(d, d)
        self.out = nn.Linear(d, d)
        self.attn_norm = nn.LayerNorm(d, eps=1e-12)
        self.inter = nn.Linear(d, hidden)
        self.output = nn.Linear(hidden, d)
        self.out_norm = nn.LayerNorm(d, eps=1e-12)
        self.probs_drop = nn.Dropout(p)
        self.attn_drop = nn.Dropout(p)
        self.out_drop = nn.Dropout(p)

    def forward(self, x, mask):
        B, T, D = x.shape
        h, hd = self.heads, D // self.heads

        def heads(t):
            return t.view(B, T, h, hd).permute(0, 2, 1, 3).reshape(B * h, T, hd)

        q, k, v = heads(self.query(x)), heads(self.key(x)), heads(self.value(x))
        scores = torch.bmm(q, k.transpose(1, 2)).view(B, h, T, T) / math.sqrt(hd)
        probs = self.probs_drop(F.softmax(scores + mask, dim=-1)).view(B * h, T, T)
        ctx = torch.bmm(probs, v).view(B, h, T, hd).permute(0, 2, 1, 3).reshape(B, T, D)
        x = self.attn_norm(x + self.attn_drop(self.out(ctx)))
        y = self.output(F.gelu(self.inter(x)))
        return self.out_norm(x + self.out_drop(y))


class Bert(nn.Module):
    def __init__(self, layers, d, heads, hidden, p):
        super().__init__()
        self.layers = nn.ModuleList(Layer(d, heads, hidden, p) for _ in range(layers))

    def forward(self, x, mask):
        for layer in self.layers:
            x = layer(x, mask)
        return x


def build(layers=1, batch=2, seq=8, d=16, heads=2, hidden=64, p=0.1):
    model = Bert(layers, d, heads, hidden, p).train()
    x = torch.randn(batch, seq, d, requires_grad=True)
    # the last quarter of the second sequence is padding
    keep = torch.ones(batch, seq)
    keep[-1, seq - max(1, seq // 4):] = 0
    mask = ((1.0 - keep) * -10000.0).view(batch, 1, 1, seq)
    return model, [x, mask]
