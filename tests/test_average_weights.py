"""Averaging two models weight by weight (vision.training.average_weights)."""

import copy

import pytest
from conftest import MODELS

torch = pytest.importorskip("torch")

from vision.training.average_weights import average_classifiers, average_detectors, main  # noqa: E402
from vision.training.classifier_net import CornerClassifier  # noqa: E402
from vision.training.train_classifier import save_checkpoint  # noqa: E402


def _saved(path, seed, width=16, crop_scale=1.3):
    torch.manual_seed(seed)
    save_checkpoint(CornerClassifier(width=width), path, crop_scale=crop_scale)
    return path


def test_an_average_keeps_its_classifiers_crop_scale_and_refuses_two_scales(tmp_path, capsys):
    first, second = _saved(tmp_path / "a.pt", 1, crop_scale=1.15), _saved(tmp_path / "b.pt", 2, crop_scale=1.15)
    assert main([str(first), str(second), "0.5", str(tmp_path / "c.pt")]) == 0
    assert torch.load(tmp_path / "c.pt", weights_only=False)["crop_scale"] == 1.15
    other = _saved(tmp_path / "d.pt", 3)
    assert main([str(first), str(other), "0.5", str(tmp_path / "e.pt")]) == 2
    err = capsys.readouterr().err
    assert "trained on crops at other scales (1.15 and 1.3)" in err and err.count("\n") == 1
    assert not (tmp_path / "e.pt").exists()


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
    with pytest.raises(ValueError, match="same shape of model"):
        average_classifiers(first, wide, 0.5)
    with pytest.raises(ValueError, match="between 0 and 1"):
        average_classifiers(first, first, 1.5)


def test_two_detector_checkpoints_are_averaged_into_one_the_reader_can_load(tmp_path):
    ckpt = torch.load(MODELS / "corner_detector.pt", map_location="cpu", weights_only=False)
    before = {k: v.float().clone() for k, v in ckpt["model"].state_dict().items()}
    shifted = copy.deepcopy(ckpt["model"]).float()
    with torch.no_grad():
        for p in shifted.parameters():
            p.add_(1.0)
    torch.save({**ckpt, "model": shifted.half()}, tmp_path / "shifted.pt")
    mixed = average_detectors(MODELS / "corner_detector.pt", tmp_path / "shifted.pt", 0.25)
    name = next(k for k, v in before.items() if v.is_floating_point())
    assert torch.allclose(mixed["model"].float().state_dict()[name], before[name] + 0.25, atol=2e-2)
    assert main([str(MODELS / "corner_detector.pt"), str(tmp_path / "shifted.pt"), "0.5", str(tmp_path / "d.pt")]) == 0
    from ultralytics import YOLO

    assert len(YOLO(str(tmp_path / "d.pt")).model.names) == 1


def test_bad_arguments_get_one_sentence_and_no_traceback(tmp_path, capsys):
    first = _saved(tmp_path / "a.pt", 1)
    assert main([str(first), str(tmp_path / "missing.pt"), "0.5", str(tmp_path / "c.pt")]) == 2
    assert "no model file" in capsys.readouterr().err
    assert main([str(first), str(first), "half", str(tmp_path / "c.pt")]) == 2
    assert capsys.readouterr().err.startswith("usage:")
    assert main([str(first)]) == 2
    assert main([str(first), str(first), "2", str(tmp_path / "c.pt")]) == 2
    assert "between 0 and 1" in capsys.readouterr().err
    assert not (tmp_path / "c.pt").exists()


def test_a_damaged_file_is_named_in_one_sentence(tmp_path, capsys):
    first = _saved(tmp_path / "a.pt", 1)
    damaged = tmp_path / "damaged.pt"
    damaged.write_bytes(first.read_bytes()[:5000])
    assert main([str(first), str(damaged), "0.5", str(tmp_path / "c.pt")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"{damaged} is not a model file that torch can read") and "\n" not in err
    assert main([str(damaged), str(first), "0.5", str(tmp_path / "c.pt")]) == 2
    assert str(damaged) in capsys.readouterr().err
    assert not (tmp_path / "c.pt").exists()


def test_a_classifier_and_a_detector_are_not_averaged(tmp_path, capsys):
    detector = MODELS / "corner_detector.pt"
    first = _saved(tmp_path / "a.pt", 1)
    assert main([str(first), str(detector), "0.5", str(tmp_path / "c.pt")]) == 2
    assert "not a corner classifier checkpoint" in capsys.readouterr().err
    assert main([str(detector), str(first), "0.5", str(tmp_path / "c.pt")]) == 2
    assert "not an ultralytics detector checkpoint" in capsys.readouterr().err
