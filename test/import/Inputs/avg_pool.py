"""2-d average pooling and its backward in a training step (test/import/avg-pool.test):
overlapping windows with padding counted and not counted, ceil_mode (windows past the
edge), a divisor_override, a 3-d input, and -0.0 in the input."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AvgPool(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(7, 7)

    def forward(self, x):                                   # x: 2 x 3 x 7 x 7
        h = self.fc(x)
        a = F.avg_pool2d(h, 3, stride=2, padding=1)
        b = F.avg_pool2d(h, 3, stride=2, padding=1, count_include_pad=False, ceil_mode=True)
        c = F.avg_pool2d(h[0], (2, 3), stride=(1, 2), padding=(1, 0), divisor_override=5)
        d = F.avg_pool2d(torch.where(h > 0.5, h * -0.0, h), 2)
        return a.sum() + (b * b).sum() + c.tanh().sum() + (d * 3).exp().sum()


class Values(nn.Module):
    """The pooled values alone, forward only, on wide values and -0.0."""

    def forward(self, x):                                   # x: 2 x 3 x 7 x 7
        x = torch.where(x > 0.5, x * -0.0, x * 1e30)
        a = F.avg_pool2d(x, 3, stride=2, padding=1)
        b = F.avg_pool2d(x, 3, stride=2, padding=1, count_include_pad=False, ceil_mode=True)
        c = F.avg_pool2d(x, 1)
        return torch.cat([a.flatten(), b.flatten(), c.flatten()])


class Adaptive(nn.Module):
    """Adaptive average pooling in a training step: windows of two sizes that overlap
    (9 -> 4 rows, 7 -> 3 columns), one per element (9 x 7), more outputs than rows
    (9 -> 5 columns of 7), and a 3-d input."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(7, 7)

    def forward(self, x):                                   # x: 2 x 3 x 9 x 7
        h = self.fc(x)
        a = F.adaptive_avg_pool2d(h, (4, 3))
        b = F.adaptive_avg_pool2d(h, (9, 7))
        c = F.adaptive_avg_pool2d(h[0], (5, 9))
        return (a * a).sum() + b.tanh().sum() + (c * 2).exp().sum()


class AdaptiveValues(nn.Module):
    """The adaptive pools' values alone, forward only, on wide values and -0.0 (not the
    1 x 1 output, which torch decomposes to a mean: rt.sum's order, not the kernel's)."""

    def forward(self, x):                                   # x: 2 x 3 x 9 x 7
        x = torch.where(x > 0.5, x * -0.0, x * 1e30)
        return torch.cat([F.adaptive_avg_pool2d(x, (4, 3)).flatten(),
                          F.adaptive_avg_pool2d(x, (9, 7)).flatten(),
                          F.adaptive_avg_pool2d(x, (5, 5)).flatten()])
