"""scripts/eval_closeups.py: a close-up counted by its corner reads, or by the cards the app reports."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest
from conftest import MODELS, load_script

from scorer.cards import Card
from vision.photo_io import load_photo


@pytest.mark.skipif(not (MODELS / "cribcam.json").is_file(), reason="no trained model in models/ yet")
@pytest.mark.parametrize("name", ["7D", "KS"])
def test_a_close_up_is_counted_both_ways_and_the_app_reports_no_more_than_its_corners(name):
    from ui.sample import card_image  # Adrian Kennard's deck: held out from training by design family
    from vision.detector import CardDetector

    card = card_image(name)
    top = card[: int(card.shape[0] * 0.7), : int(card.shape[1] * 0.93)]  # as eval_closeups crops at 70%
    scale = 4000 / max(top.shape[:2])
    photo = cv2.resize(top, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    items = [(Card.parse(name), load_photo(np.clip(photo, 0, 255).astype(np.uint8)))]
    script, detector = load_script("eval_closeups"), CardDetector(MODELS)
    corners, app = script.score(detector, items), script.score(detector, items, as_app=True)
    assert app[0] == corners[0] == 1 and app[1] <= corners[1]
    floor = dataclasses.replace(detector.manifest.calibration, drop_below=1.0)  # the app then drops every card
    detector.manifest = dataclasses.replace(detector.manifest, calibration=floor)
    assert script.score(detector, items) == corners and script.score(detector, items, as_app=True) == (0, 0)
