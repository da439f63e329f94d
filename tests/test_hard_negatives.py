"""Hard negatives for both models: print that is not a card, card faces away from the corners, photos
with no cards, and the colour swaps that teach suits by shape."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from vision.detections import box_iou
from vision.training.classifier_data import read_decoys, samples_from_image
from vision.training.classifier_net import NOT_A_CORNER
from vision.training.detector_crops import crop_windows
from vision.training.synth import DeckArt, generate, render_scene
from vision.training.synth.printed import burn_timestamp, draw_printed
from vision.training.synth.scene import render_empty
from vision.training.synth.testdeck import make_test_deck
from vision.training.train_classifier import recolour


@pytest.fixture(scope="module")
def art():
    return DeckArt(make_test_deck())


def test_print_is_drawn_and_its_decoys_lie_on_it():
    img = np.full((400, 400, 3), 128, np.float32)
    quads = draw_printed(np.random.default_rng(3), img, 120.0, centre=(200.0, 200.0))
    assert len(quads) > 0
    changed = np.abs(img - 128).max(axis=2) > 0
    for quad in quads:
        cx, cy = quad.mean(axis=0).round().astype(int)
        if 0 <= cx < 400 and 0 <= cy < 400:
            assert changed[cy, cx]


def test_timestamp_is_burnt_in_along_an_edge():
    img = np.zeros((480, 640, 3), np.uint8)
    boxes = burn_timestamp(np.random.default_rng(1), img)
    assert len(boxes) >= 4 and img.max() > 200
    rows = np.nonzero(img.max(axis=(1, 2)))[0]
    assert rows.min() > 480 * 0.6 or rows.max() < 480 * 0.4


def test_hard_negatives_keep_the_scene_and_its_labels(art):
    for seed in range(6):
        plain = render_scene(np.random.default_rng(seed), art, 320)
        hard = render_scene(np.random.default_rng(seed), art, 320, hard=np.random.default_rng([seed, 9]))
        assert plain.record["layout"] == hard.record["layout"]
        assert set(hard.labels) <= set(plain.labels)  # a timestamp may hide a corner, nothing adds one
        assert "decoys" not in plain.record and len(hard.record["decoys"]) > 0
        assert not np.array_equal(plain.image, hard.image)
        decoys = np.asarray(hard.record["decoys"]).reshape(-1, 4)
        assert (decoys[:, :2] >= 0).all() and (decoys[:, 2:] <= 320).all()


def test_a_photo_without_cards_has_no_labels_but_decoys():
    shot = render_empty(np.random.default_rng(5), 320)
    assert shot.labels == [] and shot.record["layout"] == "empty" and shot.record["cards"] == []
    assert shot.image.shape == (320, 320, 3)


def test_dataset_with_hard_negatives_and_empty_photos(tmp_path):
    deck = make_test_deck("a")
    stats = generate(
        tmp_path / "d", n=12, seed=2, imgsz=256, workers=1, decks=[deck], hard=1.0, empty=0.3, progress=False
    )
    assert stats["hard"] == 1.0 and stats["layouts"].get("empty", 0) >= 1
    records = [json.loads(p.read_text()) for p in sorted((tmp_path / "d" / "cards").rglob("*.json"))]
    assert all("decoys" in r for r in records)
    for path in (tmp_path / "d" / "cards").rglob("*.json"):
        if json.loads(path.read_text())["layout"] == "empty":
            label = tmp_path / "d" / "labels" / path.parent.name / f"{path.stem}.txt"
            assert label.read_text() == ""
            assert len(read_decoys(path)) == len(json.loads(path.read_text())["decoys"])
    with pytest.raises(ValueError, match="between 0 and 1"):
        generate(tmp_path / "e", n=2, decks=[deck], hard=2.0, progress=False)


def test_decoys_become_not_a_corner_patches_unless_they_cover_a_corner():
    rgb = np.full((300, 300, 3), 200, np.uint8)
    corners = np.float32([[10, 10, 30, 50]])
    decoys = np.float32([[100, 100, 120, 140], [200, 200, 220, 240], [12, 12, 30, 50]])
    patches, labels = samples_from_image(
        rgb, corners, np.array([5]), np.random.default_rng(0), negatives=0.0, decoys=decoys
    )
    assert labels.tolist().count(5) == 1
    assert labels.tolist().count(NOT_A_CORNER) == 1 + 2  # one random negative and the two clear decoys
    assert len(patches) == len(labels)


def test_crops_centre_on_decoys_as_well_as_corners():
    corners = np.float32([[20, 20, 40, 60]])
    decoys = np.float32([[560, 560, 590, 600]])
    rng = np.random.default_rng(0)
    windows = crop_windows(640, 640, corners, 160, 200, rng, decoys)
    on_decoy = sum(
        1 for left, top in windows if box_iou(np.float32([[left, top, left + 160, top + 160]]), decoys).max() > 0
    )
    assert 60 < on_decoy < 140
    assert all(
        box_iou(np.float32([[x, y, x + 160, y + 160]]), decoys).max() > 0
        for x, y in crop_windows(640, 640, corners[:0], 160, 20, rng, decoys)
    )


def test_recolour_swaps_channels_and_tints_black_ink_but_keeps_white():
    x = torch.zeros(400, 3, 8, 8)
    x[:, 0] = 1.0  # red ink ...
    x[:, :, :4] = 1.0  # ... under a white band
    x[:, :, 6:] = 0.0  # and a black one
    gen = torch.Generator().manual_seed(0)
    y = recolour(x, lambda *shape: torch.rand(*shape, generator=gen))
    assert torch.equal(y[:, :, :4], x[:, :, :4])  # white stays white
    red_now = y[:, :, 4:6].mean(dim=(2, 3))
    assert (red_now[:, 0] < 0.5).sum() > 10  # some red pips turned another colour
    black = y[:, :, 6:].amax(dim=(1, 2, 3))
    assert (black > 0.05).sum() > 10 and (black == 0).sum() > 300  # some black ink tinted, most not
