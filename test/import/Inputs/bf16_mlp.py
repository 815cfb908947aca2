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
