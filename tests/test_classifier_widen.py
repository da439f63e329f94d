"""Widening the corner classifier keeps what it has learnt and leaves the new channels free to learn."""

import torch

from vision.training.classifier_net import CornerClassifier
from vision.training.train_classifier import load_classifier, save_checkpoint, widen


def _trained_looking(width: int) -> CornerClassifier:
    torch.manual_seed(0)
    net = CornerClassifier(width)
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 2.0)
            m.weight.data.uniform_(0.5, 1.5)
    return net.eval()


def test_widened_net_gives_the_same_outputs():
    narrow = _trained_looking(8)
    wide = widen(narrow, 12).eval()
    x = torch.rand(3, 3, 40, 40)
    assert wide.features[0][0].out_channels == 12
    assert torch.allclose(narrow(x), wide(x), atol=1e-5)


def test_new_channels_get_gradients():
    wide = widen(_trained_looking(8), 12).train()
    loss = wide(torch.rand(4, 3, 40, 40)).logsumexp(1).mean()
    loss.backward()
    assert wide.head[1].weight.grad[:, 8 * 8 :].abs().sum() > 0  # the zero outgoing weights can move


def test_load_widens_a_narrow_checkpoint_but_never_narrows(tmp_path):
    path = tmp_path / "c.pt"
    save_checkpoint(_trained_looking(8), path)
    assert load_classifier(path, width=12).features[0][0].out_channels == 12
    assert load_classifier(path, width=4).features[0][0].out_channels == 8
