"""A module with a floating-point buffer (test/import/buffer.test)."""
import torch


class Net(torch.nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.fc = torch.nn.Linear(d, d)
        self.register_buffer("scale", torch.linspace(0.5, 1.5, d))

    def forward(self, x):
        return torch.tanh(self.fc(x) * self.scale)
