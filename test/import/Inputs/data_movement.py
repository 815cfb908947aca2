"""roll, flip, repeat, triu, tril, constant_pad_nd and baddbmm in a training step, each
written with rt's own ops (test/import/data-movement.test): shifts past the size and
negative, several dims, repeats that add dims, diagonals off the middle, padding that
slices (negative) and pads, baddbmm with a beta and an alpha and with beta 0."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DataMovement(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x):                                   # x: 4 x 8
        h = self.fc(x)
        a = torch.roll(h, shifts=(1, -11), dims=(0, 1)) + torch.roll(h, 5)
        b = torch.flip(h, dims=(0, 1)) * torch.flip(h, dims=[-1])
        c = h.repeat(2, 1, 3)                               # 2 x 4 x 24
        d = torch.triu(h, diagonal=1) - torch.tril(h, diagonal=-2) + torch.triu(h, 9)
        e = F.pad(h, (2, -3, -1, 1), value=0.5)             # 4 x 7
        q = h.reshape(2, 2, 8)
        f = torch.baddbmm(q[:, :, :2], q, q.transpose(1, 2), beta=0.5, alpha=2.0)
        g = torch.baddbmm(q[:, :, 2:4], q, q.transpose(1, 2), beta=0)
        return (a * b + d).sum() + c.tanh().sum() + e.exp().sum() + (f * g).sum()
