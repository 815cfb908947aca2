"""F.softplus in a training step: at PyTorch's defaults (beta 1, threshold 20: one
rt.softplus) and with a beta and a threshold (torch's decomposition), on values that
cross both thresholds (test/ops/softplus-import.test)."""
import torch.nn as nn
import torch.nn.functional as F


class Softplus(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x):
        h = self.fc(x) * 40.0
        return F.softplus(h) * 0.5 + F.softplus(h, beta=2.0, threshold=3.0)
