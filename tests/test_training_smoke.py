"""Training runs end to end on a handful of images: synth -> detector + classifier -> ONNX -> CardDetector."""

import json

import pytest

pytest.importorskip("ultralytics")

from cribcam.cli import main


def test_training_pipeline_runs_end_to_end(tmp_path, capsys, monkeypatch):
    data, models = tmp_path / "data", tmp_path / "models"
    synth = ["synth", "--out", str(data), "--n", "12", "--imgsz", "160", "--workers", "1", "--test-deck", "--json"]
    assert main(synth) == 0
    capsys.readouterr()
    common = ["--data", str(data), "--models", str(models), "--workers", "0", "--no-real"]
    first = ["train", *common, "--runs", str(tmp_path / "runs"), "--epochs", "1", "--imgsz", "128", "--batch", "4"]
    assert main([*first, "--classifier-seconds", "2", "--classifier-images", "6", "--classifier-anchor", "1"]) == 0
    out, err = capsys.readouterr()
    record = json.loads(out)
    assert "No classifier to continue, so --classifier-anchor is not applied." in err
    assert record["detector"]["continued_from_models"] is False
    assert record["classifier"]["samples"] > 0 and record["classifier"]["lr"] == 2e-3
    for name in ("corner_detector.pt", "corner_detector.onnx", "corner_classifier.pt", "corner_classifier.onnx"):
        assert (models / name).stat().st_size > 100_000, name
    manifest = json.loads((models / "cribcam.json").read_text())
    assert len(manifest["runs"]) == 1 and manifest["detector"]["onnx"] == "corner_detector.onnx"

    from vision.detector import CardDetector

    image = next((data / "images" / "val").glob("*.jpg"))
    found = CardDetector(models, backend="onnx").detect(image)  # untrained: may find nothing, but must run
    assert found.xyxy.shape[1] == 4

    assert main(["quantize", "--models", str(models), "--photos", str(data / "images" / "train"), "--count", "2"]) == 0
    capsys.readouterr()
    again = ["train", *common, "--runs", str(tmp_path / "runs2"), "--only", "classifier", "--classifier-seconds", "1"]
    anchored = ["--classifier-crop-scale", "2", "--classifier-anchor", "0.5", "--classifier-washout", "0.5"]
    anchored += ["--classifier-anchor-unwashed"]
    from vision.training import train_classifier as trainer

    asked, real_train = [], trainer.train_classifier

    def spy(*args, **kwargs):  # the flags must reach the training itself, not only the record
        asked.append(kwargs)
        return real_train(*args, **kwargs)

    monkeypatch.setattr(trainer, "train_classifier", spy)
    assert main([*again, "--classifier-images", "4", "--classifier-lr", "5e-4", *anchored]) == 0
    record = json.loads(capsys.readouterr().out)
    from vision.training.train_classifier import checkpoint_crop_scale

    assert record["classifier"]["crop_scale"] == 2.0 == checkpoint_crop_scale(models / "corner_classifier.pt")
    assert json.loads((models / "cribcam.json").read_text())["classifier"]["crop_scale"] == 2.0  # read as trained
    detector = json.loads((models / "cribcam.json").read_text())["detector"]
    assert detector["onnx"] == "corner_detector_int8.onnx" and detector["int8"]["calibration_photos"] == 2
    assert CardDetector(models).detect(image).xyxy.shape[1] == 4
    newest_export = (models / "corner_detector.onnx").stat().st_mtime_ns
    assert (models / "corner_detector_int8.onnx").stat().st_mtime_ns >= newest_export  # quantized again after it
    assert record["classifier"]["continued_from_models"] is True and record["classifier"]["lr"] == 5e-4
    assert record["classifier"]["anchor"] == 0.5  # a continued run is anchored as asked; a new one never is
    assert record["classifier"]["anchor_unwashed"] is True and record["classifier"]["washout"] == 0.5
    assert [(k["anchor"], k["anchor_unwashed"], k["washout"]) for k in asked] == [(0.5, True, 0.5)]
    assert json.loads((models / "cribcam.json").read_text())["runs"][0]["classifier"]["anchor_unwashed"] is False
    assert json.loads((models / "cribcam.json").read_text())["runs"][0]["classifier"]["anchor"] == 0.0
    history, kept = record["classifier"]["history"], record["classifier"]["kept"]
    assert kept in history  # every check of the run, and the one whose weights were kept
    assert len(json.loads((models / "cribcam.json").read_text())["runs"]) == 2

    from vision.training.run import export_models

    manifest = json.loads((models / "cribcam.json").read_text())
    export_models(models, manifest, photos=None)  # nothing to calibrate on: the float export, never a stale copy
    assert manifest["detector"]["onnx"] == "corner_detector.onnx" and "int8" not in manifest["detector"]

    crops = ["train", *common, "--runs", str(tmp_path / "runs3"), "--only", "detector", "--epochs", "1"]
    import torch

    frozen = [
        "--detector-lr",
        "1e-4",
        "--detector-freeze",
        "10",
        "--detector-keep-statistics",
        "--detector-degrees",
        "0",
    ]
    before = torch.load(models / "corner_detector.pt", map_location="cpu", weights_only=False)["model"].state_dict()
    assert main([*crops, "--imgsz", "160", "--crop", "96", "--batch", "4", "--no-export", *frozen]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["detector"]["continued_from_models"] is True and record["detector"]["imgsz"] == 96
    assert record["detector"]["lr0"] == 1e-4  # the continued run's starting rate, and ultralytics was given it
    assert record["detector"]["frozen_layers"] == 10 and record["detector"]["batch_norm_statistics_kept"] is True
    args = (tmp_path / "runs3" / "detector" / "args.yaml").read_text()
    assert "lr0: 0.0001" in args and "degrees: 0.0" in args and "mosaic: 1.0" in args
    assert record["detector"]["rotation_degrees"] == 0 and record["detector"]["fraction"] == 1
    after = torch.load(models / "corner_detector.pt", map_location="cpu", weights_only=False)["model"].state_dict()
    kept = ("model.0.conv.weight", "model.9.cv2.bn.running_mean", "model.13.cv1.bn.running_mean")
    for name in kept:  # the backbone, its statistics too, and the statistics of the layers trained
        assert torch.equal(before[name].float(), after[name].float()), name
    head = "model.23.cv2.0.0.conv.weight"
    assert not torch.equal(before[head].float(), after[head].float())
    assert any((tmp_path / "runs3" / "crops96" / "train" / "images").glob("*.jpg"))


def test_the_record_gives_the_kept_weights_figures_not_the_last_epochs(tmp_path):
    import torch

    from vision.training.run import kept_metrics

    weights = tmp_path / "best.pt"
    torch.save({"train_metrics": {"metrics/mAP50(B)": 0.87249, "metrics/mAP50-95(B)": 0.51219}}, weights)
    assert kept_metrics(weights) == {"metrics/mAP50(B)": 0.8725, "metrics/mAP50-95(B)": 0.5122}
    (tmp_path / "broken.pt").write_bytes(b"not a checkpoint")
    assert kept_metrics(tmp_path / "broken.pt") == {} and kept_metrics(tmp_path / "missing.pt") == {}


def test_a_classifier_run_records_every_check_and_the_one_it_kept(tmp_path):
    import numpy as np
    import torch

    from vision.training.classifier_data import PATCH
    from vision.training.train_classifier import train_classifier

    rng = np.random.default_rng(0)
    patches = rng.integers(0, 256, (64, PATCH, PATCH, 3), dtype=np.uint8)
    labels = rng.integers(0, 53, 64)
    val = {"synthetic_val": (patches[:16], labels[:16])}
    run = train_classifier(patches, labels, tmp_path / "c.pt", epochs=32, batch=32, val=val)
    assert [h["progress"] for h in run.history] == [0.25, 0.5, 0.75, 1]
    best = max(h["synthetic_val"] for h in run.history)
    assert run.kept in run.history and run.kept["synthetic_val"] == best
    assert torch.load(tmp_path / "c.pt", weights_only=False)["history"][-1] == run.kept


def test_a_widened_run_keeps_its_exact_start_beside_its_weights(tmp_path):
    import numpy as np
    import torch

    from vision.crops import CROP_SIZE
    from vision.training.classifier_data import PATCH
    from vision.training.train_classifier import (
        CornerClassifier,
        classifier_from_checkpoint,
        save_checkpoint,
        start_path,
        train_classifier,
    )

    torch.manual_seed(1)
    narrow = CornerClassifier(width=8).eval()
    save_checkpoint(narrow, tmp_path / "narrow.pt")
    rng = np.random.default_rng(0)
    patches = rng.integers(0, 256, (32, PATCH, PATCH, 3), dtype=np.uint8)
    out = tmp_path / "c.pt"
    train_classifier(patches, rng.integers(0, 53, 32), out, epochs=1, batch=16, start=tmp_path / "narrow.pt", width=12)
    saved = {p: classifier_from_checkpoint(torch.load(p, weights_only=False)).eval() for p in (start_path(out), out)}
    start = saved[start_path(out)]
    assert start.features[0][0].out_channels == 12 and start_path(out).name == "c_start.pt"
    x = torch.rand(4, 3, CROP_SIZE, CROP_SIZE)
    with torch.no_grad():  # the saved start is the narrow net widened, before any step changed it
        assert torch.allclose(start(x), narrow(x), atol=1e-5)
        assert not torch.allclose(saved[out](x), narrow(x), atol=1e-5)


def test_a_learning_rate_outside_0_to_1_is_refused_in_one_sentence(tmp_path, capsys):
    (tmp_path / "images" / "train").mkdir(parents=True)
    for flag in ("--detector-lr", "--classifier-lr"):
        assert main(["train", "--data", str(tmp_path), "--models", str(tmp_path / "m"), flag, "-1"]) == 2
        assert f"{flag} must lie between 0 and 1" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()  # refused before anything was written


def test_a_frozen_layer_count_outside_the_detector_is_refused_in_one_sentence(tmp_path, capsys):
    (tmp_path / "images" / "train").mkdir(parents=True)
    for count in ("-1", "24"):
        args = ["train", "--data", str(tmp_path), "--models", str(tmp_path / "m"), "--detector-freeze", count]
        assert main(args) == 2
        assert f"--detector-freeze is a count of layers from 0 to 23 (got {count})." in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_a_detector_augmentation_out_of_range_is_refused_in_one_sentence(tmp_path, capsys):
    (tmp_path / "images" / "train").mkdir(parents=True)
    refusals = {
        ("--detector-degrees", "90"): "--detector-degrees lies from 0 to 45 (got 90).",
        ("--detector-mosaic", "1.5"): "--detector-mosaic is a share from 0 to 1 (got 1.5).",
        ("--detector-fraction", "0"): "--detector-fraction is a share over 0, up to 1 (got 0).",
    }
    for (flag, value), sentence in refusals.items():
        assert main(["train", "--data", str(tmp_path), "--models", str(tmp_path / "m"), flag, value]) == 2
        assert sentence in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_a_lowres_or_washout_share_outside_0_to_1_is_refused_in_one_sentence(tmp_path, capsys):
    (tmp_path / "images" / "train").mkdir(parents=True)
    for flag in ("--classifier-lowres", "--classifier-washout"):
        assert main(["train", "--data", str(tmp_path), "--models", str(tmp_path / "m"), flag, "2"]) == 2
        assert f"{flag} is a share from 0 to 1 (got 2.0)." in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_a_crop_scale_outside_1_to_4_is_refused_in_one_sentence(tmp_path, capsys):
    (tmp_path / "images" / "train").mkdir(parents=True)
    models = str(tmp_path / "m")
    assert main(["train", "--data", str(tmp_path), "--models", models, "--classifier-crop-scale", "9"]) == 2
    assert "--classifier-crop-scale lies from 1 to 4" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_training_patches_are_cut_at_the_crop_scale_asked_for():
    import numpy as np

    from vision.training.classifier_data import PATCH, samples_from_image

    rgb = np.full((400, 400, 3), 255, np.uint8)
    rgb[180:220, 180:220] = (255, 0, 0)  # one 40 px corner box, red
    box, ids = np.array([[180, 180, 220, 220]], np.float32), np.array([3])
    red = {}
    for scale in (1.3, 2.0):  # the same seed jitters the box alike, so only the scale differs
        patches, labels = samples_from_image(rgb, box, ids, np.random.default_rng(0), negatives=0.0, crop_scale=scale)
        assert patches.shape[1:] == (PATCH, PATCH, 3) and labels[0] == 3
        red[scale] = (patches[0, :, :, 1] < 50).mean()
    assert 0.2 < red[2.0] < 0.8 * red[1.3]
    assert abs(red[1.3] / red[2.0] - (2.0 / 1.3) ** 2) < 0.15  # the box fills 1 / scale**2 as much


def test_the_cache_flag_reaches_the_detectors_training(tmp_path, monkeypatch, capsys):
    import vision.training.run as run

    seen = []
    monkeypatch.setattr(run, "run_training", lambda options: seen.append(options) or {})
    (tmp_path / "images" / "train").mkdir(parents=True)
    assert main(["train", "--data", str(tmp_path), "--models", str(tmp_path / "m"), "--cache", "ram"]) == 0
    assert main(["train", "--data", str(tmp_path), "--models", str(tmp_path / "m")]) == 0
    assert [o.cache for o in seen] == ["ram", False]
