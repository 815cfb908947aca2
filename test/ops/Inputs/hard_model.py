"""The activations of mobile networks in a training step: hardswish, hardsigmoid, relu6
(hardtanh at 0 and 6) and mish, each an rt op (test/ops/hard-import.test), on values
that cross every kink (-3, 0, 3, 6)."""
import torch.nn as nn
import torch.nn.functional as F


class Hard(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        h = self.fc(x) * 8.0
        return F.hardswish(h) + F.hardsigmoid(h) * 3.0 + F.relu6(h) * 0.5 + F.mish(h) \
            + F.hardtanh(h, -2.0, 2.0)
