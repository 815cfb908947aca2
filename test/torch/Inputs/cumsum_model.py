# A model with an op the emitter does not map (cumsum), for test/torch/unmapped.test.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 8)

    def forward(self, x):
        h = torch.tanh(self.fc(x))
        return torch.cumsum(h, dim=1)
