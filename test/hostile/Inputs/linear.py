# A one-layer model for import-options.test.
import torch


class Net(torch.nn.Module):
    def __init__(self, width=8):
        super().__init__()
        self.fc = torch.nn.Linear(width, width)

    def forward(self, x):
        return torch.tanh(self.fc(x))
