"""vision.training.epoch_models: a saved epoch of a detector run becomes a models folder that reads with its weights."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest
from conftest import MODELS

from vision.detector import CardDetector
from vision.training.epoch_models import main, models_from_epoch
from vision.training.quantize import INT8_ONNX

torch = pytest.importorskip("torch")
pytest.importorskip("ultralytics")
REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "tests" / "data" / "sample_hand.jpg"


def first_conv(checkpoint: dict) -> torch.Tensor:
    return next(checkpoint["model"].parameters())


def test_an_epoch_becomes_a_models_folder_with_its_own_weights(tmp_path):
    checkpoint = torch.load(MODELS / "corner_detector.pt", map_location="cpu", weights_only=False)
    with torch.no_grad():
        first_conv(checkpoint).view(-1)[0] += 0.001  # an epoch that is not quite the shipped detector
    epoch = tmp_path / "epoch3.pt"
    torch.save(checkpoint, epoch)
    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "hand.jpg"), cv2.imread(str(SAMPLE)))

    out = models_from_epoch(epoch, tmp_path / "e3", MODELS, photos)

    saved = torch.load(out / "corner_detector.pt", map_location="cpu", weights_only=False)
    assert torch.equal(first_conv(saved).float(), first_conv(checkpoint).float())
    assert (out / "corner_detector.onnx").read_bytes() != (MODELS / "corner_detector.onnx").read_bytes()
    manifest = json.loads((out / "cribcam.json").read_text())
    assert manifest["detector"]["onnx"] == INT8_ONNX
    assert manifest["detector"]["int8"]["calibrated_on"] == [str(photos)]
    assert manifest["calibration"] == json.loads((MODELS / "cribcam.json").read_text())["calibration"]
    rgb = cv2.cvtColor(cv2.imread(str(SAMPLE)), cv2.COLOR_BGR2RGB)
    assert len(CardDetector(out).find_corners(rgb)) >= 5


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["nowhere.pt", "{tmp}/new"], "is not a file of detector weights"),
        (["{pt}", "{tmp}"], "is already there"),
        (["{pt}", "{tmp}/new", "--photos", "{tmp}/none"], "is not a folder of training photos"),
    ],
)
def test_epoch_models_says_what_is_wrong_in_one_sentence(tmp_path, capsys, args, says):
    filled = [a.format(tmp=tmp_path, pt=MODELS / "corner_detector.pt") for a in args]
    assert main(filled) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1
    assert not (tmp_path / "new").exists()
