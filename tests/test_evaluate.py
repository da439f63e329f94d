"""Evaluation arithmetic on handcrafted detections with known matches."""

import numpy as np
import pytest
from conftest import MODELS

from scorer import Card
from vision.detections import Detections
from vision.training.evaluate import score_photo

FIVE_H, SIX_H, KC = Card.parse("5H").index, Card.parse("6H").index, Card.parse("KC").index
TRUTH_BOXES = np.array([[0, 0, 10, 20], [100, 100, 110, 120], [200, 0, 210, 20]], dtype=np.float32)
TRUTH_IDS = np.array([FIVE_H, FIVE_H, SIX_H])  # 5H shows both corners, 6H one


def test_all_read_correctly():
    read = Detections(TRUTH_BOXES, np.ones(3), TRUTH_IDS)
    summary = score_photo(read, TRUTH_BOXES, TRUTH_IDS).summary()
    assert summary["corner_precision"] == summary["corner_recall"] == 1.0
    assert summary["card_precision"] == summary["card_recall"] == 1.0


def test_misread_corner_is_located_but_wrong():
    read = Detections(TRUTH_BOXES[[0, 2]], np.array([0.9, 0.8]), np.array([FIVE_H, KC]))
    tally = score_photo(read, TRUTH_BOXES, TRUTH_IDS)
    summary = tally.summary()
    assert summary["corner_recall"] == round(1 / 3, 4)
    assert summary["corner_located_recall"] == round(2 / 3, 4)
    assert summary["corner_precision"] == 0.5
    assert summary["card_recall"] == 0.5 and summary["card_precision"] == 0.5  # 5H found, KC is not there
    assert (SIX_H, KC) in tally.confusions


def test_a_card_counts_once_found_from_either_corner():
    read = Detections(TRUTH_BOXES[[1]], np.array([0.7]), np.array([FIVE_H]))
    summary = score_photo(read, TRUTH_BOXES, TRUTH_IDS).summary()
    assert summary["card_recall"] == 0.5 and summary["card_precision"] == 1.0


def test_box_off_target_does_not_match():
    shifted = TRUTH_BOXES[[0]] + np.array([8, 0, 8, 0], dtype=np.float32)  # IoU 2/18 with the truth
    read = Detections(shifted, np.array([0.9]), np.array([FIVE_H]))
    assert score_photo(read, TRUTH_BOXES, TRUTH_IDS).corners_correct == 0


def test_two_reads_of_one_corner_count_once():
    read = Detections(TRUTH_BOXES[[0, 0]], np.array([0.9, 0.8]), np.array([FIVE_H, FIVE_H]))
    tally = score_photo(read, TRUTH_BOXES, TRUTH_IDS)
    assert tally.corners_correct == 1 and tally.corners_read == 2


def test_misread_as_a_card_present_elsewhere_is_wrong_where_it_is_surest_and_left_out_where_not():
    misread = np.array([FIVE_H, FIVE_H, FIVE_H])  # 6H read as 5H, far from 5H's own corners
    surer = score_photo(Detections(TRUTH_BOXES, np.array([0.8, 0.8, 0.95]), misread), TRUTH_BOXES, TRUTH_IDS)
    assert surer.summary()["card_precision"] == 0.0, "the 5H kept on 6H's corner is wrong"
    less_sure = score_photo(Detections(TRUTH_BOXES, np.array([0.9, 0.9, 0.6]), misread), TRUTH_BOXES, TRUTH_IDS)
    assert less_sure.summary()["card_precision"] == 1.0 and less_sure.summary()["card_recall"] == 0.5


def test_the_right_card_on_its_own_covered_corner_counts_right_by_whole_card_only():
    covered = np.array([[300, 300, 310, 320]], dtype=np.float32)  # KC's index, too covered to be labelled
    quads = {FIVE_H: TRUTH_BOXES[:2], SIX_H: TRUTH_BOXES[[2]], KC: covered}
    read = Detections(np.vstack([TRUTH_BOXES[[2]], covered + 1]), np.array([0.9, 0.8]), np.array([SIX_H, KC]))
    tally = score_photo(read, TRUTH_BOXES, TRUTH_IDS, corner_quads=quads)
    summary = tally.summary()
    assert tally.cards_own_corner == 1
    assert summary["card_precision"] == 0.5, "by labelled corner, KC is false"
    assert summary["card_precision_whole_card"] == 1.0, "by whole card it is there, where it was read"
    elsewhere = Detections(np.vstack([TRUTH_BOXES[[2]], covered + 60]), np.array([0.9, 0.8]), np.array([SIX_H, KC]))
    assert score_photo(elsewhere, TRUTH_BOXES, TRUTH_IDS, corner_quads=quads).cards_own_corner == 0
    on_a_labelled_corner = Detections(TRUTH_BOXES[[2]], np.array([0.9]), np.array([KC]))  # 6H misread as KC
    misread = score_photo(on_a_labelled_corner, TRUTH_BOXES, TRUTH_IDS, corner_quads={KC: TRUTH_BOXES[[2]]})
    assert misread.cards_own_corner == 0, "a misread of a labelled corner stays false"
    assert score_photo(read, TRUTH_BOXES, TRUTH_IDS).cards_own_corner == 0, "no scene: nothing counted"


def test_tallies_add_up_over_photos():
    total = score_photo(Detections(TRUTH_BOXES, np.ones(3), TRUTH_IDS), TRUTH_BOXES, TRUTH_IDS)
    total.add(score_photo(Detections(TRUTH_BOXES[[1]], np.ones(1), TRUTH_IDS[[1]]), TRUTH_BOXES, TRUTH_IDS))
    summary = total.summary()
    assert summary["card_recall"] == 0.75 and summary["card_precision"] == 1.0


def test_recall_is_kept_by_corner_size():
    boxes = np.array([[0, 0, 10, 12], [50, 50, 60, 90], [100, 100, 120, 140]], dtype=np.float32)  # 12, 40, 40 px
    ids = np.array([FIVE_H, SIX_H, KC])
    read = Detections(boxes[[1]], np.ones(1), ids[[1]])
    by_px = score_photo(read, boxes, ids).summary()["corner_recall_by_px"]
    assert by_px == {"<14": {"corners": 1, "recall": 0.0}, "32-48": {"corners": 2, "recall": 0.5}}


def test_eval_cli_measures_each_synthetic_set_by_name(tmp_path, capsys):
    import json

    import pytest

    from cribcam.cli import main
    from vision.training.real_photos import find_root
    from vision.training.synth import generate
    from vision.training.synth.testdeck import make_test_deck

    if not (MODELS / "cribcam.json").is_file() or find_root() is None:
        pytest.skip("needs the shipped models and the real photos")
    decks = [make_test_deck("a"), make_test_deck("b")]
    for name, size in (("small", 320), ("big", 480)):
        generate(
            tmp_path / name, n=3, seed=1, imgsz=size, val_fraction=0.5, decks=decks, val_decks=["b"], progress=False
        )
    args = ["eval", "--models", str(MODELS), "--out", str(tmp_path / "out"), "--limit", "1", "--json"]
    assert main([*args, "--synthetic", str(tmp_path / "small"), str(tmp_path / "big")]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {"real_heldout", "synthetic_small", "synthetic_big"} <= set(report)
    assert report["synthetic_big"]["photos"] == 1
    assert main([*args, "--synthetic", str(tmp_path / "out")]) == 2
    assert "is not a 'cribcam synth' dataset" in capsys.readouterr().err


def test_eval_cli_counts_false_cards_in_pictures_without_cards(tmp_path, capsys):
    import cv2
    import numpy as np
    import pytest

    from cribcam.cli import main
    from vision.training.real_photos import find_root
    from vision.training.synth import render_scene
    from vision.training.synth.scene import DeckArt
    from vision.training.synth.testdeck import make_test_deck

    if not (MODELS / "cribcam.json").is_file() or find_root() is None:
        pytest.skip("needs the shipped models and the real photos")
    folder = tmp_path / "pictures"
    folder.mkdir()
    cv2.imwrite(str(folder / "wall.png"), np.full((480, 640, 3), 180, np.uint8))
    shot = render_scene(np.random.default_rng(2), DeckArt(make_test_deck()), 640, layout_name="show_row")
    cv2.imwrite(str(folder / "cards.jpg"), cv2.cvtColor(shot.image, cv2.COLOR_RGB2BGR))  # a card here is false
    args = ["eval", "--models", str(MODELS), "--out", str(tmp_path / "out"), "--negatives", str(folder)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "in 2 pictures with no cards" in out
    assert "false card" in out and "cards.jpg" in out and "wall.png" not in out
    (tmp_path / "none").mkdir()
    assert main([*args[:-1], str(tmp_path / "none")]) == 2
    assert "holds no JPEG, PNG or WebP pictures" in capsys.readouterr().err


def test_synthetic_photos_take_their_size_from_the_scene_and_decode_only_without_one(tmp_path, monkeypatch):
    import json

    import cv2

    from vision.training.evaluate import synthetic_photos
    from vision.training.synth import generate
    from vision.training.synth.testdeck import make_test_deck

    generate(tmp_path, n=3, seed=5, imgsz=320, val_fraction=1.0, decks=[make_test_deck("a")], progress=False)
    scenes = sorted((tmp_path / "cards" / "val").glob("*.json"))
    with monkeypatch.context() as patched:
        patched.setattr(cv2, "imread", lambda *_: pytest.fail("decoded a photo whose scene records its size"))
        first = synthetic_photos(tmp_path, "val")
        record = json.loads(scenes[0].read_text())
        scenes[0].write_text(json.dumps({**record, "size": [640, 160]}))  # width, then height
        wide = synthetic_photos(tmp_path, "val")[0]
    assert first and all(len(photo.corner_quads) for photo in first)
    np.testing.assert_allclose(wide.boxes, first[0].boxes * np.array([2, 0.5, 2, 0.5]), rtol=1e-5)
    for scene in scenes:
        scene.unlink()  # a set drawn before scenes were recorded: sizes from the pictures, no quads
    again = synthetic_photos(tmp_path, "val")
    for one, two in zip(first, again, strict=True):
        np.testing.assert_array_equal(one.boxes, two.boxes)
        np.testing.assert_array_equal(one.class_ids, two.class_ids)
        assert not two.corner_quads
