"""2-d max pooling with indices and its backward in a training step
(test/import/max-pool.test): resnet's 3x3, stride 2, padding 1 after a ReLU (ties among
its zeros: the first maximum takes the gradient), a 2x2 window with dilation 2 and
ceil_mode (windows past the edge), and a 3-d input; the input holds -inf and NaN."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MaxPool(nn.Module):
    def __init__(self, c=3):
        super().__init__()
        self.conv = nn.Linear(7, 7)

    def forward(self, x):                                   # x: 2 x 3 x 7 x 7
        h = self.conv(x)
        a = F.max_pool2d(F.relu(h), 3, stride=2, padding=1)                    # 2x3x4x4
        b = F.max_pool2d(h, 2, stride=2, dilation=2, ceil_mode=True)           # 2x3x3x3
        c = F.max_pool2d(h[0], (2, 3), stride=(1, 2), padding=(1, 1))          # 3x8x4
        d = F.max_pool2d(torch.where(h > 1.0, torch.full_like(h, float("-inf")), h), 2,
                         padding=1)
        return a.sum() + (b * b).sum() + c.tanh().sum() + d.clamp(min=-5).exp().sum()


class Indices(nn.Module):
    """The indices alone, forward only: windows that are all -inf (the first valid
    position's index), NaN (the last NaN's), ties and padding."""

    def forward(self, x):                                   # x: 2 x 3 x 7 x 7
        x = torch.where(x > 0.8, torch.full_like(x, float("-inf")), x)
        x = torch.where(x < -1.5, torch.full_like(x, float("nan")), x.clamp(max=0.3))
        x = torch.cat([torch.full_like(x[:, :, :3], float("-inf")), x[:, :, 3:]], 2)
        _, a = F.max_pool2d(x, 3, stride=2, padding=1, return_indices=True)
        _, b = F.max_pool2d(x, 2, stride=2, dilation=2, ceil_mode=True, return_indices=True)
        return torch.cat([a.flatten(), b.flatten()])
