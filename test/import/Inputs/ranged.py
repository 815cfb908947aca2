"""A language-model step with integer inputs (test/import/ranges.test): token ids into an
embedding of 50 rows, class labels of cross_entropy over 8 classes, and an integer count
that indexes nothing (added to the logits as a float)."""
import torch.nn as nn
import torch.nn.functional as F


class Ranged(nn.Module):
    def __init__(self, vocab=50, d=8, classes=8):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.head = nn.Linear(d, classes)

    def forward(self, ids, labels, count):
        h = self.head(self.emb(ids)).reshape(-1, 8) + count.float().reshape(-1, 1)
        return F.cross_entropy(h, labels.reshape(-1))
