"""A classifier's training step: an input projection, `layers` residual MLP blocks
(Linear, erf GELU, Dropout, Linear), a class projection, log_softmax and F.nll_loss
against integer labels. The last sample's label is `ignore_index` (a padded batch), so
the ignored-target path is exercised; `reduction` is 'mean' or 'sum'. The output is the
loss (a scalar)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

DEFAULTS = dict(batch=8, d=16, hidden=32, classes=10, p=0.1, ignore_index=-100,
                reduction="mean")


class Block(nn.Module):
    def __init__(self, d, hidden, p):
        super().__init__()
        self.fc1 = nn.Linear(d, hidden)
        self.fc2 = nn.Linear(hidden, d)
        self.drop = nn.Dropout(p)

    def forward(self, x):
        return x + self.fc2(self.drop(F.gelu(self.fc1(x))))


class Classifier(nn.Module):
    def __init__(self, layers, d, hidden, classes, p, ignore_index, reduction):
        super().__init__()
        self.blocks = nn.ModuleList(Block(d, hidden, p) for _ in range(layers))
        self.out = nn.Linear(d, classes)
        self.ignore_index, self.reduction = ignore_index, reduction

    def forward(self, x, labels):
        for block in self.blocks:
            x = block(x)
        logp = F.log_softmax(self.out(x), dim=-1)
        return F.nll_loss(logp, labels, ignore_index=self.ignore_index,
                          reduction=self.reduction)


def build(layers=1, batch=8, d=16, hidden=32, classes=10, p=0.1, ignore_index=-100,
          reduction="mean"):
    model = Classifier(layers, d, hidden, classes, p, ignore_index, reduction).train()
    x = torch.randn(batch, d, requires_grad=True)
    labels = torch.randint(0, classes, (batch,))
    labels[-1] = ignore_index
    return model, [x, labels]
