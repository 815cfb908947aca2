"""torchvision models as a user trains them: random init, 10 classes, 32x32 images, the
cross-entropy of the logits as the output (test/torch/vision.test trains them through
remat_torch.partition_fn; test/import/vision.test imports them: FILE.py:CLASS with
--input 2x3x32x32:f32:nograd --input 2:i64:0:10)."""
import torch
import torch.nn.functional as F
import torchvision
from torchvision.models.vision_transformer import VisionTransformer


class Classifier(torch.nn.Module):
    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, images, labels):
        return F.cross_entropy(self.net(images), labels)


class Resnet18(Classifier):
    def __init__(self):
        super().__init__(torchvision.models.resnet18(num_classes=10))


class MobilenetV3Small(Classifier):
    def __init__(self):
        super().__init__(torchvision.models.mobilenet_v3_small(num_classes=10))


class Vit(Classifier):
    """A small VisionTransformer: 8x8 patches of a 32x32 image (its patch embedding is a
    convolution), 2 layers of width 32."""

    def __init__(self):
        super().__init__(VisionTransformer(image_size=32, patch_size=8, num_layers=2,
                                           num_heads=2, hidden_dim=32, mlp_dim=64,
                                           num_classes=10))


MODELS = {"resnet18": Resnet18, "mobilenet_v3_small": MobilenetV3Small, "vit": Vit}


def batch(n=2, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, 3, 32, 32, generator=g), torch.randint(0, 10, (n,), generator=g)
