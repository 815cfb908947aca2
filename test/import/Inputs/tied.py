"""A module with a tied weight (test/import/tied.test): `out.weight` is `emb.weight`.

Run as a script, `tied.py CHECKDIR` checks remat's gradient of the tied weight (the
rt.txt of `remat-import-torch --check CHECKDIR`) against eager torch's own backward on
the same inputs and tangent: the sum of both uses, as torch accumulates it."""
import os
import sys

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, d=6):
        super().__init__()
        self.emb = nn.Linear(d, d, bias=False)
        self.mid = nn.Linear(d, d)
        self.out = nn.Linear(d, d, bias=False)
        self.out.weight = self.emb.weight

    def forward(self, x):
        return self.out(torch.tanh(self.mid(self.emb(x))))


def main(checkdir):
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "tools"))
    from remat_torch import textio
    vals = textio.read(os.path.join(checkdir, "inputs.txt"))  # emb.weight, mid.*, x0, tangent
    got = textio.read(os.path.join(checkdir, "rt.txt"))        # output, grads
    net = Net()
    with torch.no_grad():
        net.emb.weight.copy_(torch.tensor(vals[0][2]))
        net.mid.weight.copy_(torch.tensor(vals[1][2]))
        net.mid.bias.copy_(torch.tensor(vals[2][2]))
    x = torch.tensor(vals[3][2], dtype=torch.float32)
    net(x).backward(torch.tensor(vals[4][2], dtype=torch.float32))
    want = net.emb.weight.grad.double()
    err = (torch.tensor(got[1][2]) - want).abs().max().item()
    # the eager sum of the two uses' gradients, against rt's (f32 rounding apart)
    ok = err <= 1e-5 + 1e-4 * want.abs().max().item()
    print(f"tied: emb.weight grad vs eager torch: max abs err {err:.3g}: {'ok' if ok else 'MISMATCH'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
