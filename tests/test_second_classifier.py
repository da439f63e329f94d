"""``cribcam second``: a second classifier copied in, exported, named by the manifest, read, and removed again."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from conftest import MODELS

from cribcam.cli import main
from vision.detector import CardDetector
from vision.training.second_classifier import SECOND_ONNX, SECOND_PT

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "tests" / "data" / "sample_hand.jpg"
pytest.importorskip("torch")


def models_copy(tmp_path: Path) -> Path:
    """The shipped models folder's files the onnx backend reads, copied (no second classifier)."""
    folder = tmp_path / "models"
    folder.mkdir()
    manifest = json.loads((MODELS / "cribcam.json").read_text())
    manifest["classifier"].pop("second", None)
    (folder / "cribcam.json").write_text(json.dumps(manifest))
    for name in (manifest["detector"]["onnx"], manifest["classifier"]["onnx"], manifest["classifier"]["pt"]):
        shutil.copyfile(MODELS / name, folder / name)
    return folder


def test_a_second_classifier_is_added_read_and_removed(tmp_path, capsys):
    models = models_copy(tmp_path)
    weights = tmp_path / "run.pt"
    shutil.copyfile(MODELS / "corner_classifier.pt", weights)  # the first's own weights, in float: reads alike
    assert main(["second", "--models", str(models), "--weights", str(weights), "--reads", "zoomed"]) == 0
    assert "reads the grown and shrunk views" in capsys.readouterr().out
    entry = json.loads((models / "cribcam.json").read_text())["classifier"]["second"]
    assert entry == {"onnx": SECOND_ONNX, "pt": SECOND_PT, "reads": "zoomed", "crop_scale": 1.3, "from": str(weights)}
    detector = CardDetector(models)
    assert detector.manifest.second_reads == "zoomed" and detector.backend.second is not None
    crops = np.random.default_rng(0).integers(0, 256, (4, 40, 40, 3), dtype=np.uint8)
    np.testing.assert_allclose(detector.backend.second.classify(crops).sum(axis=1), 1.0, atol=1e-5)
    assert len(detector.detect(SAMPLE).cards) >= 5
    assert main(["second", "--models", str(models), "--remove"]) == 0
    assert SECOND_ONNX in capsys.readouterr().out
    assert "second" not in json.loads((models / "cribcam.json").read_text())["classifier"]
    assert not (models / SECOND_ONNX).exists() and not (models / SECOND_PT).exists()
    assert CardDetector(models).backend.second is None


@pytest.mark.parametrize(
    "args, says",
    [
        (["--models", "nowhere", "--weights", "x.pt"], "has no cribcam.json"),
        (["--models", str(MODELS)], "Give --weights PT"),
        (["--models", str(MODELS), "--weights", "no-such.pt"], "no-such.pt is not a file of classifier weights"),
        (["--models", str(MODELS), "--weights", "x.pt", "--classifier-data", "."], "is not a dataset"),
    ],
)
def test_second_says_what_is_wrong_in_one_sentence(capsys, args, says):
    assert main(["second", *args]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_the_shipped_manifest_names_a_second_classifier_that_is_there():
    second = json.loads((MODELS / "cribcam.json").read_text())["classifier"].get("second")
    if second is None:
        pytest.skip("the shipped models have no second classifier")
    assert (MODELS / second["onnx"]).is_file() and (MODELS / second["pt"]).is_file()
    if "int8" in second:
        assert (MODELS / second["int8"]["float_onnx"]).is_file()
