"""``cribcam photo``: cards and the count from a photo; bad input gives one line and exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import MODELS
from PIL import Image

from cribcam.cli import main
from cribcam.commands import photo as photo_command
from scorer import score_hand
from scorer.cards import Card
from vision.detections import Detections
from vision.detector import DetectionRun


class FakeDetector:
    """Returns the same classified corners (working-image pixels) for any photo."""

    def __init__(self, boxes: list[list[float]], names: list[str], confidence: float = 0.97, runner_up=None):
        ids = [Card.parse(n).index for n in names]
        self.corners = Detections(boxes, [confidence] * len(boxes), ids, None, runner_up)

    def detect_photo(self, photo):
        return self.corners, DetectionRun({"detect": 1.0, "classify": 1.0})


def row(count: int, x0: float = 50, step: float = 100) -> list[list[float]]:
    return [[x0 + step * i, 50, x0 + step * i + 20, 90] for i in range(count)]


HAND_BOXES = [*row(4), [650, 400, 670, 440]]  # four in a row, the starter set apart
HAND = ["5H", "5C", "5S", "JD", "5D"]


@pytest.fixture
def photo_file(tmp_path) -> Path:
    path = tmp_path / "hand.png"
    Image.new("RGB", (800, 600), (30, 110, 60)).save(path)
    return path


@pytest.fixture
def use_detector(monkeypatch):
    def install(boxes, names, confidence=0.97, runner_up=None):
        fake = FakeDetector(boxes, names, confidence, runner_up)
        monkeypatch.setattr(photo_command, "make_detector", lambda models, backend: fake)

    return install


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["photo", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, err: str, words: str) -> None:
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("cribcam photo: ") and "Traceback" not in err
    assert words in err


def test_a_hand_and_starter_are_counted_with_the_spoken_count(capsys, photo_file, use_detector):
    use_detector(HAND_BOXES, HAND)
    code, out, err = run_cli(capsys, photo_file)
    assert code == 0, err
    assert "starter guess: 5D (set apart from the others" in out
    assert "hand: 5H 5C 5S JD  starter: 5D" in out
    assert "29" in out and "is twenty-nine." in out


def test_json_gives_cards_boxes_groups_starter_and_score(capsys, photo_file, use_detector):
    use_detector(HAND_BOXES, HAND)
    code, out, _ = run_cli(capsys, photo_file, "--json")
    data = json.loads(out)
    assert code == 0
    assert [c["card"] for c in data["cards"]] == HAND
    assert data["cards"][0]["confidence"] == pytest.approx(0.97) and len(data["cards"][0]["box"]) == 4
    assert data["groups"] == [HAND[:4], ["5D"]]
    assert data["starter"] == "5D" and data["score"]["total"] == 29 and data["warnings"] == []


def test_named_starter_and_crib_change_the_count(capsys, photo_file, use_detector):
    use_detector(row(5), ["2H", "3H", "4H", "6H", "KS"])  # five alike in a row: no starter guess
    code, out, _ = run_cli(capsys, photo_file, "--starter", "KS", "--json")
    hand = score_hand(["2H", "3H", "4H", "6H"], "KS")
    assert code == 0 and json.loads(out)["score"]["total"] == hand.total
    code, out, _ = run_cli(capsys, photo_file, "--starter", "KS", "--crib", "--json")
    assert code == 0 and json.loads(out)["score"]["total"] == hand.total - 4  # no 4-card flush in the crib


def test_annotate_writes_the_photo_with_boxes(capsys, photo_file, use_detector, tmp_path):
    use_detector(HAND_BOXES, HAND)
    out_path = tmp_path / "annotated.jpg"
    code, _, _ = run_cli(capsys, photo_file, "--annotate", out_path)
    assert code == 0
    drawn = np.asarray(Image.open(out_path))
    assert drawn.shape == (600, 800, 3)
    assert np.abs(drawn.astype(int) - np.array([30, 110, 60])).sum(axis=2).max() > 100


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "empty"),
        (b"just some text", "not a JPEG, PNG, WebP or HEIC image"),
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not a readable PNG image"),
        (b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nshowpage\n", "photo.jpg is not a JPEG, PNG, WebP"),
    ],
    ids=["empty", "text", "broken-png", "postscript"],
)
def test_files_that_are_not_photos_exit_2_with_one_line(capsys, tmp_path, use_detector, content, words):
    use_detector(HAND_BOXES, HAND)
    path = tmp_path / "photo.jpg"
    path.write_bytes(content)
    code, out, err = run_cli(capsys, path)
    assert_one_line_error(code, err, words)
    assert out == ""


def test_truncated_photo_exits_2(capsys, tmp_path, use_detector):
    use_detector(HAND_BOXES, HAND)
    noise = np.random.default_rng(1).integers(0, 255, (300, 300, 3), np.uint8)
    path = tmp_path / "cut.jpg"
    Image.fromarray(noise).save(path, quality=95)
    path.write_bytes(path.read_bytes()[:3000])
    code, _, err = run_cli(capsys, path)
    assert_one_line_error(code, err, "truncated")


@pytest.mark.parametrize("size", [(1280, 1), (8000, 5)])
def test_an_image_too_thin_for_a_card_exits_2(capsys, tmp_path, use_detector, size):
    use_detector(HAND_BOXES, HAND)
    path = tmp_path / "thin.png"
    Image.new("RGB", size, (30, 110, 60)).save(path)
    code, _, err = run_cli(capsys, path)
    assert_one_line_error(code, err, "too small to show a card")


def test_damaged_exif_in_a_png_is_ignored(capsys, tmp_path, use_detector):
    use_detector(HAND_BOXES, HAND)
    path = tmp_path / "exif.png"
    Image.new("RGB", (800, 600), (30, 110, 60)).save(path, exif=b"Exif\x00\x00not a TIFF header")
    code, out, _ = run_cli(capsys, path)
    assert code == 0 and "29" in out


@pytest.mark.parametrize(
    ("name", "words"),
    [("out.txt", "written as .jpg, .png or .webp"), ("missing/out.jpg", "does not exist"), (".", "is a folder")],
)
def test_an_unwritable_annotate_path_exits_2_before_reading(capsys, photo_file, use_detector, tmp_path, name, words):
    use_detector(HAND_BOXES, HAND)
    target = tmp_path / name if name != "." else tmp_path
    if name == ".":
        target = tmp_path / "folder.jpg"
        target.mkdir()
    code, out, err = run_cli(capsys, photo_file, "--annotate", target)
    assert_one_line_error(code, err, words)
    assert out == ""


def test_the_ultralytics_backend_unpickles_only_trusted_models(capsys, photo_file, tmp_path):
    code, _, err = run_cli(capsys, photo_file, "--backend", "ultralytics", "--models", tmp_path)
    assert_one_line_error(code, err, "--trust-models")


def test_an_unexpected_failure_is_one_line_not_a_traceback(capsys, photo_file, monkeypatch):
    def broken(models, backend):
        raise RuntimeError("onnxruntime session failed\nwith a second line")

    monkeypatch.delenv("CRIBCAM_DEBUG", raising=False)
    monkeypatch.setattr(photo_command, "make_detector", broken)
    code, _, err = run_cli(capsys, photo_file)
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert "unexpected RuntimeError (onnxruntime session failed with a second line)" in err


def test_missing_photo_exits_2(capsys, tmp_path):
    code, _, err = run_cli(capsys, tmp_path / "nowhere.jpg")
    assert_one_line_error(code, err, "does not exist")


def test_a_photo_with_no_cards_exits_2(capsys, photo_file, use_detector):
    use_detector([], [])
    code, out, err = run_cli(capsys, photo_file)
    assert_one_line_error(code, err, "No cards found in hand.png")
    assert out == ""


def test_a_card_seen_twice_far_apart_exits_2_after_listing_the_cards(capsys, photo_file, use_detector):
    use_detector([*row(4), [700, 500, 720, 540]], ["5H", "5C", "5S", "JD", "5H"])
    code, out, err = run_cli(capsys, photo_file)
    assert_one_line_error(code, err, "5H is seen 2 times far apart")
    assert "5C" in out


def test_too_many_cards_for_a_hand_exits_2(capsys, photo_file, use_detector):
    names = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S"]
    use_detector(row(8, step=90), names)
    code, out, err = run_cli(capsys, photo_file, "--json")
    assert_one_line_error(code, err, "Found 8 cards")
    assert len(json.loads(out)["cards"]) == 8 and json.loads(out)["score"] is None


def test_a_bad_starter_exits_2(capsys, photo_file, use_detector):
    use_detector(HAND_BOXES, HAND)
    code, _, err = run_cli(capsys, photo_file, "--starter", "ZZ")
    assert_one_line_error(code, err, "'ZZ' is not a card")


def test_missing_models_exit_2_with_what_to_do(capsys, photo_file, tmp_path):
    code, _, err = run_cli(capsys, photo_file, "--models", tmp_path)
    assert_one_line_error(code, err, "No trained model")


def test_low_confidence_cards_are_flagged(capsys, photo_file, use_detector):
    use_detector(HAND_BOXES, HAND, confidence=0.4)
    code, out, _ = run_cli(capsys, photo_file)
    assert code == 0 and out.count("check") >= 5 and "warning: Check 5H" in out


def test_a_card_to_check_names_the_likeliest_other_card(capsys, photo_file, use_detector):
    use_detector(
        HAND_BOXES, HAND, confidence=0.4, runner_up=[Card.parse("6H").index, Card.parse("5D").index, -1, -1, -1]
    )
    code, out, _ = run_cli(capsys, photo_file)
    assert code == 0 and "5H   0.40  group 1  check (or 6H?)" in out and "it is most likely 6H." in out
    assert "Check 5C: only about 40% likely read right; if not, it may be a second corner of the 5D also" in out
    assert "5C   0.40  group 1  check (a second 5D?)" in out  # 5D is in the photo too
    code, out, _ = run_cli(capsys, photo_file, "--json")
    assert [c.get("or") for c in json.loads(out)["cards"]] == ["6H", "5D", None, None, None]


# --- with the trained model ---------------------------------------------------------------------------------


@pytest.mark.skipif(not (MODELS / "cribcam.json").is_file(), reason="no trained model in models/ yet")
def test_trained_model_reads_a_rendered_hand(capsys, tmp_path, monkeypatch):
    from ui.sample import sample_photo  # four cards in a row and the starter apart, in the shipped CC0 deck

    monkeypatch.chdir(tmp_path)
    path = tmp_path / "hand.jpg"
    path.write_bytes(sample_photo(["5H", "5C", "5S", "JD"], "5D"))
    code, out, err = run_cli(capsys, path, "--json")
    data = json.loads(out)
    assert sorted(c["card"] for c in data["cards"]) == sorted(HAND), err
    assert data["starter"] == "5D" and data["score"]["total"] == 29 and code == 0
