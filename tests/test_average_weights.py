"""Averaging two classifiers weight by weight (vision.training.average_weights)."""

import pytest

torch = pytest.importorskip("torch")

from vision.training.average_weights import average_classifiers, main  # noqa: E402
from vision.training.classifier_net import CornerClassifier  # noqa: E402
from vision.training.train_classifier import ClassifierRun, save_checkpoint  # noqa: E402


def _saved(path, seed, width=16):
    torch.manual_seed(seed)
    save_checkpoint(CornerClassifier(width=width), path, ClassifierRun(0, 0.0, 0.0, "cpu"))
    return path


def test_the_average_lies_between_its_two_classifiers(tmp_path):
    first, second = _saved(tmp_path / "a.pt", 1), _saved(tmp_path / "b.pt", 2)
    a = torch.load(first, weights_only=False)["state_dict"]
    b = torch.load(second, weights_only=False)["state_dict"]
    for share in (0.0, 1.0):
        same = average_classifiers(first, second, share).state_dict()
        assert all(torch.equal(same[k], (b if share else a)[k]) for k in a if a[k].is_floating_point())
    half = average_classifiers(first, second, 0.5).state_dict()
    name = next(k for k in a if a[k].is_floating_point() and not torch.equal(a[k], b[k]))
    assert torch.allclose(half[name], (a[name] + b[name]) / 2)
    assert main([str(first), str(second), "0.25", str(tmp_path / "c.pt")]) == 0
    assert (tmp_path / "c.pt").stat().st_size > 100_000


def test_classifiers_of_other_shapes_or_shares_out_of_range_are_refused(tmp_path):
    first, wide = _saved(tmp_path / "a.pt", 1), _saved(tmp_path / "w.pt", 2, width=24)
    with pytest.raises(ValueError, match="same shape"):
        average_classifiers(first, wide, 0.5)
    with pytest.raises(ValueError, match="between 0 and 1"):
        average_classifiers(first, first, 1.5)
