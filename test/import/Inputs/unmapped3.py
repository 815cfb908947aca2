import torch
import torch.nn as nn


class Net(nn.Module):
    """Three ops without an rt mapping, on three lines (test/import/unmapped.test)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        h = torch.cumsum(self.fc(x), dim=1)
        h = torch.atan(h)
        return torch.sort(h, dim=1).values
