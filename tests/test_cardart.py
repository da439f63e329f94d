"""Card art: the deck checker, the corner-index finder, and the rendered cache's index."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorer.cards import CLASS_NAMES
from vision.training import cardart
from vision.training.cardart import DeckError, check_deck, locate_corners

needs_debian_decks = pytest.mark.skipif(
    not (cardart.GNOME_DIR / "simplistic.svgz").is_file() or shutil.which("rsvg-convert") is None,
    reason="Debian card decks or rsvg-convert missing; run scripts/install_card_art.sh",
)


def test_deck_checker_rejects_a_deck_missing_a_card():
    cards = [c for c in CLASS_NAMES if c != "7H"]
    with pytest.raises(DeckError, match=r"lacks 1 of 52 cards: 7H"):
        check_deck("gappy", cards)


def test_deck_checker_accepts_a_full_deck():
    check_deck("full", {c: None for c in CLASS_NAMES})


def test_deck_file_without_one_card_is_not_offered(tmp_path):
    ids = [cardart._gnome_id(c) for c in CLASS_NAMES if c != "QC"]
    svg = "<svg xmlns='http://www.w3.org/2000/svg'>" + "".join(f"<g id='{i}'/>" for i in ids) + "</svg>"
    path = tmp_path / "gappy.svg"
    path.write_text(svg)
    result = cardart._whole_deck_source("gappy", "test", "CC0", path, cardart._gnome_id)
    assert isinstance(result, DeckError)
    assert "QC" in str(result)


def _drawn_deck(w: int = 250, h: int = 360) -> tuple[dict[str, np.ndarray], tuple[int, int, int, int]]:
    """52 plain cards with a rank + pip index at a known place, turned 180° at the bottom-right.

    Every card gets the same index ink box (a bar for the rank, a disc for the pip) but a different
    middle (pips standing in for the suit and rank), so the finder has to pick the corner out.
    """
    images = {}
    for i, card in enumerate(CLASS_NAMES):
        im = np.zeros((h, w, 4), np.uint8)
        cv2.rectangle(im, (0, 0), (w - 1, h - 1), (255, 255, 255, 255), -1)
        cv2.rectangle(im, (2, 2), (w - 3, h - 3), (0, 0, 0, 255), 2)
        colour = (200, 0, 0, 255) if card[-1] in "HD" else (0, 0, 0, 255)
        cv2.rectangle(im, (12, 14), (29, 45), colour, -1)  # the rank: x 12..29, y 14..45
        cv2.circle(im, (20, 60), 8, colour, -1)  # the pip: x 12..28, y 52..68
        for k in range(i % 13 + 1):
            cv2.circle(im, (90 + 30 * (k % 3), 80 + 40 * (k // 3)), 10, colour, -1)
        im[h // 2 :] = im[: h - h // 2][::-1, ::-1]
        images[card] = im
    return images, (12, 14, 30, 69)


def test_corner_boxes_are_tight_around_rank_and_pip():
    images, (x1, y1, x2, y2) = _drawn_deck()
    corners = locate_corners(images)
    m = cardart.MARGIN
    for card in CLASS_NAMES:
        quads = corners[card]
        assert quads.shape == (2, 4, 2)
        tl, br = quads
        np.testing.assert_allclose(tl.min(axis=0), [x1 - m, y1 - m], atol=1)
        np.testing.assert_allclose(tl.max(axis=0), [x2 + m, y2 + m], atol=1)
        np.testing.assert_allclose(br.min(axis=0), [250 - x2 - m, 360 - y2 - m], atol=1)
        np.testing.assert_allclose(br.max(axis=0), [250 - x1 + m, 360 - y1 + m], atol=1)
        np.testing.assert_allclose(br[0], [250 - x1 + m, 360 - y1 + m], atol=1)  # starts at its own top-left


def test_deck_whose_corners_are_blank_on_one_card_is_rejected():
    images, _ = _drawn_deck()
    images["9C"] = images["9C"].copy()
    images["9C"][:80, :60, :3] = 255
    with pytest.raises(DeckError, match="9C"):
        locate_corners(images)


@pytest.fixture(scope="module")
def simplistic_cache(tmp_path_factory) -> Path:
    cache = tmp_path_factory.mktemp("cards")
    cardart.render_all(cache, only=["gnome-simplistic"])
    return cache


@needs_debian_decks
def test_rendered_deck_corners_lie_inside_the_card_near_its_corners(simplistic_cache):
    (deck,) = cardart.load_decks(simplistic_cache)
    w, h = deck.size
    assert h == cardart.CARD_HEIGHT
    for card, art in deck.cards.items():
        img = art.image()
        assert img.shape == (h, w, 4) and img.dtype == np.uint8
        assert img[0, 0, 3] < 128 and img[h // 2, w // 2, 3] == 255, card  # rounded corner, opaque middle
        tl, br = art.corners
        assert (tl >= 0).all() and (tl[:, 0] < 0.3 * w).all() and (tl[:, 1] < 0.35 * h).all(), card
        assert (br[:, 0] <= w).all() and (br[:, 1] <= h).all(), card
        assert (br[:, 0] > 0.7 * w).all() and (br[:, 1] > 0.65 * h).all(), card
        x1, y1 = tl.min(axis=0).astype(int)
        x2, y2 = tl.max(axis=0).astype(int)
        grey = cv2.cvtColor(img[..., :3], cv2.COLOR_RGB2GRAY)
        inside = grey[y1 + cardart.MARGIN + 1 : y2 - cardart.MARGIN - 1, x1:x2]
        assert inside.min() < 128, card  # ink in the box
        ring = np.concatenate([grey[y1, x1:x2], grey[y2 - 1, x1:x2], grey[y1:y2, x1], grey[y1:y2, x2 - 1]])
        assert ring.min() > 150, card  # and none on its edge: the box is not cutting the glyphs


@needs_debian_decks
def test_index_json_round_trip(simplistic_cache):
    index = json.loads((simplistic_cache / "index.json").read_text())
    (entry,) = index["decks"]
    assert entry["name"] == "gnome-simplistic" and entry["licence"] and entry["source"] == "gnome-cards-data"
    (deck,) = cardart.load_decks(simplistic_cache)
    assert sorted(deck.cards) == sorted(CLASS_NAMES)
    assert [deck.name, deck.source, deck.licence, deck.four_colour, deck.jumbo] == [
        entry[k] for k in ("name", "source", "licence", "four_colour", "jumbo")
    ]
    assert list(deck.size) == entry["size"]
    for card, art in deck.cards.items():
        assert art.path == simplistic_cache / entry["cards"][card]["file"]
        assert art.corners.dtype == np.float32 and art.corners.shape == (2, 4, 2)
        np.testing.assert_allclose(art.corners, entry["cards"][card]["corners"])
    assert deck.back is not None and cv2.imread(str(deck.back), cv2.IMREAD_UNCHANGED).shape[:2] == (
        entry["size"][1],
        entry["size"][0],
    )
