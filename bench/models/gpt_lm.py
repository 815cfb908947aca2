"""A GPT language model, a whole training step as a user writes it (nanoGPT's shape):
token and position nn.Embedding (positions from torch.arange), `layers` of the zoo's GPT
blocks (bench/models/gpt.py), a final LayerNorm, the output projection tied to the token
embedding (`head.weight = tok.weight`) and F.cross_entropy over the vocabulary against
integer targets. The output is the loss (a scalar)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from .gpt import Block

DEFAULTS = dict(batch=2, seq=8, d=16, heads=2, vocab=32, p=0.1)


class GPTLM(nn.Module):
    def __init__(self, layers, d, heads, seq, vocab, p):
        super().__init__()
        self.tok = nn.Embedding(vocab, d)
        self.pos = nn.Embedding(seq, d)
        self.drop = nn.Dropout(p)
        self.blocks = nn.ModuleList(Block(d, heads, seq, p) for _ in range(layers))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.head.weight = self.tok.weight

    def forward(self, idx, targets):
        B, T = idx.shape
        pos = torch.arange(0, T, dtype=torch.long)
        x = self.drop(self.tok(idx) + self.pos(pos))
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.ln_f(x))
        return F.cross_entropy(logits.view(B * T, -1), targets.view(B * T))


def build(layers=1, batch=2, seq=8, d=16, heads=2, vocab=32, p=0.1):
    model = GPTLM(layers, d, heads, seq, vocab, p).train()
    # ids over the whole vocabulary, so every embedding row and class can be hit
    idx = torch.randint(0, vocab, (batch, seq))
    targets = torch.randint(0, vocab, (batch, seq))
    return model, [idx, targets]
