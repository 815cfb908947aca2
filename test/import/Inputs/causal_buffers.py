"""Boolean buffers for --causal-buffers: two causal masks (tril, diagonals 0 and -1) the
importer computes in the graph, and an upper-triangular one it keeps as an argument."""
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer("causal", torch.tril(torch.ones(4, 4, dtype=torch.bool)))
        self.register_buffer("strict", torch.tril(torch.ones(4, 4, dtype=torch.bool), -1))
        self.register_buffer("upper", torch.triu(torch.ones(4, 4, dtype=torch.bool)))

    def forward(self, x):
        s = self.lin(x)
        a = s.masked_fill(~self.causal, 0.0) + s.masked_fill(~self.strict, 1.0)
        return a.masked_fill(~self.upper, 2.0)
