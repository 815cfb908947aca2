# A model written as a user writes theirs (not from the zoo), for test/torch/user_model.test:
# nn.Module, nn.Dropout, nn.LayerNorm, nn.Linear, F.gelu, a loss.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, d_in=12, d=24, classes=5, p=0.2):
        super().__init__()
        self.inp = nn.Linear(d_in, d)
        self.norm = nn.LayerNorm(d)
        self.hidden = nn.Linear(d, d)
        self.drop = nn.Dropout(p)
        self.out = nn.Linear(d, classes)

    def forward(self, x, target):
        h = self.norm(self.inp(x))
        h = h + self.drop(F.gelu(self.hidden(h)))
        logits = self.out(self.drop(h))
        return F.mse_loss(logits, target)
