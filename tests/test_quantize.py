"""The int8 models: which nodes stay float, the manifest they write, the cards they read, one-sentence errors."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from conftest import MODELS

from cribcam.cli import main
from vision.crops import crop_boxes
from vision.detections import box_iou
from vision.detector import CardDetector
from vision.training.quantize import (
    CLASSIFIER_INT8_ONNX,
    INT8_ONNX,
    calibration_photos,
    float_copy,
    float_nodes,
    quantize_classifier,
    quantize_classifier_models,
    quantize_models,
)

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "tests" / "data" / "sample_hand.jpg"
onnx = pytest.importorskip("onnx")


def photo_folder(tmp_path: Path) -> Path:
    """The sample hand, turned four ways: a few photos to measure activation ranges on."""
    folder = tmp_path / "photos"
    folder.mkdir()
    image = cv2.imread(str(SAMPLE))
    for turn in range(4):
        cv2.imwrite(str(folder / f"{turn}.jpg"), image)
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
    return folder


def test_every_convolution_but_the_fixed_dfl_runs_in_int8():
    model = onnx.load(str(MODELS / "corner_detector.onnx"))
    names = float_nodes(model)
    producer = next(n.name for n in model.graph.node if model.graph.output[0].name in n.output)
    assert producer in names  # the decoding, which mixes pixels and scores in one tensor
    assert any(n.op_type == "Sigmoid" and "/cv2." in n.name and n.name in names for n in model.graph.node)
    convs = [n.name for n in model.graph.node if n.op_type == "Conv"]
    assert [c for c in convs if c in names] == [c for c in convs if "/dfl/" in c]


def test_the_int8_detector_finds_the_float_detectors_corners(tmp_path):
    folder = float_copy(MODELS, tmp_path / "models")  # the float export; quantized again below, in tmp_path
    manifest = json.loads((folder / "cribcam.json").read_text())
    record = quantize_models(folder, manifest, [photo_folder(tmp_path)], count=4)
    (folder / "cribcam.json").write_text(json.dumps(manifest))
    assert manifest["detector"]["onnx"] == INT8_ONNX
    assert record["float_onnx"] == "corner_detector.onnx" and record["calibration_photos"] == 4
    assert (folder / INT8_ONNX).stat().st_size < (folder / "corner_detector.onnx").stat().st_size / 2
    rgb = cv2.cvtColor(cv2.imread(str(SAMPLE)), cv2.COLOR_BGR2RGB)
    float_corners = CardDetector(float_copy(MODELS, tmp_path / "f")).find_corners(rgb)
    int8_corners = CardDetector(folder).find_corners(rgb)
    assert len(float_corners) >= 5
    matched = (box_iou(float_corners.xyxy, int8_corners.xyxy) >= 0.7).any(axis=1)
    assert matched.mean() >= 0.9
    assert abs(len(int8_corners) - len(float_corners)) <= max(1, len(float_corners) // 10)


def test_the_shipped_manifest_names_a_detector_that_is_there():
    manifest = json.loads((MODELS / "cribcam.json").read_text())
    assert (MODELS / manifest["detector"]["onnx"]).is_file()
    if "int8" in manifest["detector"]:
        assert (MODELS / manifest["detector"]["int8"]["float_onnx"]).is_file()


@pytest.mark.parametrize("name", ["corner_detector.onnx", INT8_ONNX])
def test_the_shipped_detector_reads_a_4_3_photo_at_640_by_480(name):
    ort = pytest.importorskip("onnxruntime")
    session = ort.InferenceSession(str(MODELS / name), providers=["CPUExecutionProvider"])
    for height, width in ((480, 640), (640, 640)):
        (output,) = session.run(None, {"images": np.zeros((1, 3, height, width), np.float32)})
        assert output.shape == (1, 5, sum((height // s) * (width // s) for s in (8, 16, 32)))


def test_calibration_photos_are_a_seeded_draw(tmp_path):
    folder = photo_folder(tmp_path)
    (folder / "notes.txt").write_text("not a photo")
    assert calibration_photos([folder], 2) == calibration_photos([folder], 2)
    assert len(calibration_photos([folder], 10)) == 4
    with pytest.raises(ValueError, match="No photos"):
        calibration_photos([tmp_path], 2)  # a folder of folders


@pytest.mark.parametrize(
    "args, says",
    [
        (["--models", "nowhere", "--photos", "."], "has no cribcam.json"),
        (["--models", str(MODELS), "--photos", "no-such-folder"], "Not a folder: no-such-folder."),
        (["--models", str(MODELS), "--photos", ".", "--count", "0"], "--count is a number of photos"),
        (["--models", str(MODELS)], "Give --photos"),
        (["--models", str(MODELS), "--classifier-data", "."], "is not a dataset from 'cribcam synth'"),
        (["--models", str(MODELS), "--classifier-data", ".", "--photos", "."], "give one or the other"),
        (["--models", str(MODELS), "--classifier-data", ".", "--count", "9"], "give one or the other"),
        (["--models", str(MODELS), "--float-copy", "x", "--photos", "."], "--float-copy quantizes nothing"),
    ],
)
def test_quantize_says_what_is_wrong_in_one_sentence(capsys, args, says):
    assert main(["quantize", *args]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1


def test_an_int8_file_is_never_quantized_again(tmp_path):
    manifest = {"detector": {"onnx": INT8_ONNX}}
    with pytest.raises(ValueError, match="not the float export"):
        quantize_models(tmp_path, manifest, [photo_folder(tmp_path)], count=1)


def test_the_float_copy_runs_the_float_export(tmp_path, capsys):
    assert main(["quantize", "--models", str(MODELS), "--float-copy", str(tmp_path / "float")]) == 0
    assert "runs the float detector" in capsys.readouterr().out
    manifest = json.loads((tmp_path / "float" / "cribcam.json").read_text())
    shipped = json.loads((MODELS / "cribcam.json").read_text())
    assert manifest["detector"]["onnx"] == shipped["detector"]["int8"]["float_onnx"]
    assert manifest["classifier"] == shipped["classifier"] and manifest["calibration"] == shipped["calibration"]
    assert not (tmp_path / "float" / INT8_ONNX).exists()
    assert len(CardDetector(tmp_path / "float").detect(SAMPLE).cards) >= 5
    with pytest.raises(ValueError, match="already runs in float"):
        float_copy(tmp_path / "float", tmp_path / "again")


def sample_hand_crops() -> np.ndarray:
    """The classifier's crops of the sample hand's corners, each moved a little four ways: what it reads."""
    rgb = cv2.cvtColor(cv2.imread(str(SAMPLE)), cv2.COLOR_BGR2RGB)
    boxes = CardDetector(MODELS).find_corners(rgb).xyxy
    size = boxes[:, 2:] - boxes[:, :2]
    moved = [boxes + np.concatenate([size, size], axis=1) * f for f in (0.0, 0.05, -0.05, 0.1, -0.1)]
    return crop_boxes(rgb, np.concatenate(moved))


def test_the_int8_classifier_reads_as_the_float_one(tmp_path):
    ort = pytest.importorskip("onnxruntime")
    crops = sample_hand_crops()
    float_onnx = MODELS / "corner_classifier.onnx"
    record = quantize_classifier(float_onnx, tmp_path / CLASSIFIER_INT8_ONNX, crops)
    assert record == {"float_onnx": "corner_classifier.onnx", "calibration_crops": len(crops), "float_nodes": 2}
    assert (tmp_path / CLASSIFIER_INT8_ONNX).stat().st_size < float_onnx.stat().st_size / 2
    blob = crops.transpose(0, 3, 1, 2).astype(np.float32) / 255.0
    reads = []
    for path in (float_onnx, tmp_path / CLASSIFIER_INT8_ONNX):
        session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
        reads.append(session.run(None, {session.get_inputs()[0].name: blob})[0])
    assert len(crops) >= 25
    assert (reads[0].argmax(axis=1) == reads[1].argmax(axis=1)).mean() >= 0.9
    np.testing.assert_allclose(reads[1].sum(axis=1), 1.0, atol=1e-5)  # probabilities, not rounded to 8 bits
    assert (reads[1] > 0).all()


def test_an_int8_classifier_file_is_never_quantized_again(tmp_path):
    manifest = {"classifier": {"onnx": CLASSIFIER_INT8_ONNX}}
    with pytest.raises(ValueError, match="not the float export"):
        quantize_classifier_models(tmp_path, manifest, tmp_path)


def test_the_shipped_manifest_names_a_classifier_that_is_there():
    classifier = json.loads((MODELS / "cribcam.json").read_text())["classifier"]
    assert (MODELS / classifier["onnx"]).is_file() and (MODELS / classifier["pt"]).is_file()
    if "int8" in classifier:
        assert (MODELS / classifier["int8"]["float_onnx"]).is_file()
