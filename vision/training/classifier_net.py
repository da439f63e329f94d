"""The corner-index classifier network (PyTorch; used for training, export and the parity backend).

It reads a square RGB crop (see ``vision.crops``) of one corner index at any rotation and
gives 53 logits: the 52 cards in ``scorer.CLASS_NAMES`` order, then ``NOT_A_CORNER``.
"""

from __future__ import annotations

import torch
from torch import nn

from scorer.cards import CLASS_NAMES

NOT_A_CORNER = len(CLASS_NAMES)
NUM_CLASSES = len(CLASS_NAMES) + 1


def _block(c_in: int, c_out: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(c_in, c_out, 3, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
        nn.Conv2d(c_out, c_out, 3, padding=1, bias=False),
        nn.BatchNorm2d(c_out),
        nn.ReLU(inplace=True),
    )


class CornerClassifier(nn.Module):
    """A small VGG-style CNN: three conv stages with pooling, global pooling, one linear layer."""

    def __init__(self, width: int = 16, num_classes: int = NUM_CLASSES) -> None:
        super().__init__()
        self.features = nn.Sequential(
            _block(3, width),
            nn.MaxPool2d(2),
            _block(width, width * 2),
            nn.MaxPool2d(2),
            _block(width * 2, width * 4),
            nn.MaxPool2d(2),
            nn.Conv2d(width * 4, width * 8, 3, padding=1, bias=False),
            nn.BatchNorm2d(width * 8),
            nn.ReLU(inplace=True),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
        )
        self.head = nn.Sequential(nn.Dropout(0.2), nn.Linear(width * 8, num_classes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


class ProbabilityHead(nn.Module):
    """Wraps a classifier so its output is softmax probabilities (what the ONNX export ships)."""

    def __init__(self, net: nn.Module) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(x), dim=1)
