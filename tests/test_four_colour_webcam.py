"""Four-colour twins of the package decks (blue diamonds, green clubs) and backlit webcam frames: the
synthetic stand-ins for the four-colour deck on a webcam whose diamonds were read as spades."""

from __future__ import annotations

import argparse

import cv2
import numpy as np
import pytest

from scorer.cards import CLASS_NAMES
from vision.training.cardart import CardArt, Deck
from vision.training.synth import generate
from vision.training.synth.four_colour import CLUB_GREEN, DIAMOND_BLUE, four_colour_twin, with_twins
from vision.training.synth.testdeck import make_test_deck
from vision.training.synth.webcam import backlit_webcam


@pytest.fixture(scope="module")
def package_deck(tmp_path_factory) -> Deck:
    """The procedural test deck written out as a package deck is: one RGBA PNG per card."""
    folder = tmp_path_factory.mktemp("deck")
    source = make_test_deck()
    cards = {}
    for name in CLASS_NAMES:
        art = source.cards[name]
        path = folder / f"{name}.png"
        cv2.imwrite(str(path), cv2.cvtColor(art.image(), cv2.COLOR_RGBA2BGRA))
        cards[name] = CardArt(path, np.asarray(art.corners))
    return Deck("plain", "test", "test", four_colour=False, jumbo=False, back=None, cards=cards, family="plain")


def _ink(rgba: np.ndarray) -> np.ndarray:
    """The mean colour of a card's ink (pixels well away from the white paper)."""
    rgb = rgba[..., :3].astype(int)
    ink = (rgba[..., 3] > 200) & (rgb.min(axis=2) < 150)
    return rgb[ink].mean(axis=0)


def test_a_twin_paints_diamonds_blue_and_clubs_green_and_keeps_the_rest(package_deck):
    twin = four_colour_twin(package_deck)
    assert twin.name == "plain-4c" and twin.four_colour
    for card in ("4D", "4C", "4S", "4H"):
        before, after = package_deck.cards[card].image(), twin.cards[card].image()
        assert after.shape == before.shape
        np.testing.assert_array_equal(after[..., 3], before[..., 3])
        np.testing.assert_array_equal(
            np.asarray(twin.cards[card].corners), np.asarray(package_deck.cards[card].corners)
        )
    blue, green = _ink(twin.cards["4D"].image()), _ink(twin.cards["4C"].image())
    assert blue[2] > blue[0] + 60 and np.argmax(DIAMOND_BLUE) == 2
    assert green[1] > green[0] + 30 and green[1] > green[2] and np.argmax(CLUB_GREEN) == 1
    for same in ("4S", "4H"):
        np.testing.assert_array_equal(twin.cards[same].image(), package_deck.cards[same].image())


def test_a_val_decks_twin_stays_in_val(package_deck):
    four = four_colour_twin(_renamed(package_deck, "four"))  # already four-colour: gets no twin of its own
    decks, val = with_twins([package_deck, four], ["plain"])
    assert [d.name for d in decks] == ["plain", "four-4c", "plain-4c"]
    assert val == ["plain", "plain-4c"]


def test_a_webcam_frame_is_darker_and_greyer_but_the_same_size():
    rng = np.random.default_rng(4)
    img = np.full((120, 160, 3), 230, np.uint8)
    img[40:80, 60:100] = (30, 90, 200)  # a blue diamond's ink
    out = backlit_webcam(rng, img)
    assert out.shape == img.shape and out.dtype == np.uint8
    assert out[5:30, 5:50].mean() < 230  # exposed for the window
    patch = out[50:70, 70:90].astype(int).mean(axis=(0, 1))
    assert patch[2] - patch[0] < 200 - 30  # the blue is washed out


def test_webcam_frames_keep_the_scene_and_its_labels(tmp_path):
    deck = make_test_deck("a")
    plain = generate(tmp_path / "p", n=6, seed=3, imgsz=256, workers=1, decks=[deck], progress=False)
    webcam = generate(tmp_path / "w", n=6, seed=3, imgsz=256, workers=1, decks=[deck], webcam=1.0, progress=False)
    assert "webcam" not in plain and webcam["webcam"] == 1.0
    for split in ("train", "val"):
        for label in (tmp_path / "p" / "labels" / split).glob("*.txt"):
            assert (tmp_path / "w" / "labels" / split / label.name).read_text() == label.read_text()
            a = cv2.imread(str(tmp_path / "p" / "images" / split / f"{label.stem}.jpg"))
            b = cv2.imread(str(tmp_path / "w" / "images" / split / f"{label.stem}.jpg"))
            assert a.shape == b.shape and not np.array_equal(a, b)
    with pytest.raises(ValueError, match="between 0 and 1"):
        generate(tmp_path / "e", n=2, decks=[deck], webcam=1.5, progress=False)


def test_synth_command_adds_twins_and_keeps_val_twins_out_of_train(package_deck, monkeypatch):
    from cribcam.commands import synth

    monkeypatch.setattr("vision.training.cardart.load_decks", lambda: [package_deck, _renamed(package_deck, "b")])
    args = argparse.Namespace(
        test_deck=False, decks=None, skip_decks=[], styled=0, styled_only=False, four_colour_twins=True, val_decks=["b"]
    )
    decks, val = synth._decks(args)
    assert sorted(d.name for d in decks) == ["b", "b-4c", "plain", "plain-4c"]
    assert val == ["b", "b-4c"]


def _renamed(deck: Deck, name: str) -> Deck:
    from dataclasses import replace

    return replace(deck, name=name, family=name)
