"""ViT-style encoder block (timm's Block): pre-LN, bidirectional multi-head attention
written with 4-D matmuls (q @ k^T on [B, heads, N, hd]), erf GELU MLP, dropout on
attention and projections. `layers` blocks in a row over `tokens` patch tokens."""
import torch
import torch.nn as nn
import torch.nn.functional as F

DEFAULTS = dict(batch=2, tokens=9, d=16, heads=2, mlp_ratio=4, p=0.1)


class Attention(nn.Module):
    def __init__(self, d, heads, p):
        super().__init__()
        self.heads = heads
        self.scale = (d // heads) ** -0.5
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.attn_drop = nn.Dropout(p)
        self.proj_drop = nn.Dropout(p)

    def forward(self, x):
        B, N, D = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = self.attn_drop(attn.softmax(dim=-1))
        x = (attn @ v).transpose(1, 2).reshape(B, N, D)
        return self.proj_drop(self.proj(x))


class Block(nn.Module):
    def __init__(self, d, heads, mlp_ratio, p):
        super().__init__()
        self.norm1 = nn.LayerNorm(d, eps=1e-6)
        self.attn = Attention(d, heads, p)
        self.norm2 = nn.LayerNorm(d, eps=1e-6)
        self.fc1 = nn.Linear(d, mlp_ratio * d)
        self.fc2 = nn.Linear(mlp_ratio * d, d)
        self.drop = nn.Dropout(p)

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.drop(self.fc2(self.drop(F.gelu(self.fc1(self.norm2(x))))))


class ViT(nn.Module):
    def __init__(self, layers, d, heads, mlp_ratio, p):
        super().__init__()
        self.blocks = nn.ModuleList(Block(d, heads, mlp_ratio, p) for _ in range(layers))

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def build(layers=1, batch=2, tokens=9, d=16, heads=2, mlp_ratio=4, p=0.1):
    model = ViT(layers, d, heads, mlp_ratio, p).train()
    x = torch.randn(batch, tokens, d, requires_grad=True)
    return model, [x]
