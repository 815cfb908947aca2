"""MLP with dropout: `layers` x (Linear d->hidden, ReLU, Dropout, Linear hidden->d)
with a residual add, so depth keeps the width."""
import torch
import torch.nn as nn

DEFAULTS = dict(batch=4, d=16, hidden=32, p=0.1)


class Layer(nn.Module):
    def __init__(self, d, hidden, p):
        super().__init__()
        self.fc1 = nn.Linear(d, hidden)
        self.fc2 = nn.Linear(hidden, d)
        self.drop = nn.Dropout(p)

    def forward(self, x):
        return x + self.fc2(self.drop(torch.relu(self.fc1(x))))


class MLP(nn.Module):
    def __init__(self, layers, d, hidden, p):
        super().__init__()
        self.layers = nn.ModuleList(Layer(d, hidden, p) for _ in range(layers))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def build(layers=1, batch=4, d=16, hidden=32, p=0.1):
    model = MLP(layers, d, hidden, p).train()
    x = torch.randn(batch, d, requires_grad=True)
    return model, [x]
