"""Card-level evaluation on photos labelled by whole card (shared/real_photos/edje)."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import MODELS

from scorer.cards import Card
from vision.detections import Detections
from vision.training.evaluate import score_card_photo
from vision.training.real_photos import find_edje, load_card_photos

TEN_D, FOUR_D, AS, KC = (Card.parse(c).index for c in ("10D", "4D", "AS", "KC"))
CARD_BOXES = np.array([[0, 0, 100, 140], [200, 0, 300, 140]], dtype=np.float32)  # 10D, AS
CARD_IDS = np.array([TEN_D, AS])
TOP_LEFT, BOTTOM_RIGHT, ACE = [5, 5, 15, 25], [85, 115, 95, 135], [205, 5, 215, 25]
EDJE = find_edje()
needs_edje = pytest.mark.skipif(EDJE is None, reason="shared/real_photos/edje is not here")


def test_card_seen_at_both_corners_is_one_right_card():
    read = Detections([TOP_LEFT, BOTTOM_RIGHT, ACE], [0.9, 0.8, 0.95], [TEN_D, TEN_D, AS])
    summary = score_card_photo(read, CARD_BOXES, CARD_IDS).summary()
    assert summary["card_precision"] == summary["card_recall"] == 1.0
    assert summary["false_cards"] == [] and summary["false_cards_per_photo"] == 0.0


def test_pip_block_read_as_a_card_not_in_the_photo_is_a_false_card_with_its_confidence():
    read = Detections([TOP_LEFT, [30, 50, 70, 90], ACE], [0.9, 0.32, 0.95], [TEN_D, FOUR_D, AS])
    tally = score_card_photo(read, CARD_BOXES, CARD_IDS)
    assert tally.summary()["card_precision"] == round(2 / 3, 4)
    assert [(f["card"], f["confidence"]) for f in tally.false_cards] == [("4D", 0.32)]


def test_right_name_in_the_wrong_place_is_false():
    read = Detections([TOP_LEFT, [500, 500, 510, 520]], [0.9, 0.9], [TEN_D, AS])  # no ace card there
    summary = score_card_photo(read, CARD_BOXES, CARD_IDS).summary()
    assert summary["card_precision"] == 0.5 and summary["card_recall"] == 0.5


def test_missed_card_lowers_recall_only():
    read = Detections([ACE], [0.9], [AS])
    summary = score_card_photo(read, CARD_BOXES, CARD_IDS).summary()
    assert summary["card_precision"] == 1.0 and summary["card_recall"] == 0.5


def test_card_curve_keeps_cards_above_each_threshold():
    read = Detections([TOP_LEFT, ACE, [30, 50, 70, 90]], [0.95, 0.55, 0.4], [TEN_D, AS, KC])
    curve = {c["threshold"]: c for c in score_card_photo(read, CARD_BOXES, CARD_IDS).card_curve()}
    assert (curve[0.3]["precision"], curve[0.3]["recall"]) == (round(2 / 3, 4), 1.0)
    assert (curve[0.5]["precision"], curve[0.5]["recall"]) == (1.0, 1.0)
    assert (curve[0.6]["precision"], curve[0.6]["recall"]) == (1.0, 0.5)


@needs_edje
def test_edje_splits_are_apart_and_labelled_by_card():
    test, train = load_card_photos(split="test"), load_card_photos(split="train")
    assert (len(test), len(train)) == (67, 80)
    assert all(p.kind == "card" and p.path.name.startswith("test_") for p in test)
    assert sum(len(p.class_ids) for p in test + train) == 352


@needs_edje
@pytest.mark.skipif(not (MODELS / "cribcam.json").is_file(), reason="no trained model in models/")
def test_centre_pips_of_a_ten_are_not_read_as_a_four():
    from vision.detector import CardDetector
    from vision.reading import read_photo

    photo = next(p for p in load_card_photos(split="test") if p.path.name == "test_IMG_2647.jpg")
    reading = read_photo(photo.path, CardDetector())
    assert sorted(str(c) for c in reading.card_list) == ["10D", "AS"]
