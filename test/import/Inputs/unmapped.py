# A module with ops the importer does not map (atan, cumsum), for unmapped.test.
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(8, 8)

    def forward(self, x):
        h = torch.atan(self.fc(x))
        return torch.cumsum(h, dim=1)
