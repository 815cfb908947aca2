# A module with an op the importer does not map (cumsum), for unmapped.test.
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        h = torch.tanh(self.fc(x))
        return torch.cumsum(h, dim=1)
