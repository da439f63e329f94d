"""A sample photo for trying the Count page without cards to hand (and for the app's tests).

Four cards in an overlapping row with the starter set apart on a felt-green table, drawn from the sheet
``ui/assets/kennard_deck.jpg``: Adrian Kennard's deck (CC0, from the npm package
@heruka_urgyen/react-playing-cards; ``ui/assets/LICENCE.txt``), rendered once by
``scripts/make_sample_deck.py`` and shipped with the package, so a bare install draws the same photo.

>>> data = sample_photo(["5H", "5C", "5S", "JD"], "5D")
>>> data[:2] == b"\\xff\\xd8"
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

import cv2
import numpy as np

SHEET = Path(__file__).resolve().parent / "assets" / "kennard_deck.jpg"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
CARD_HEIGHT, CARD_WIDTH = 360, 258
CORNER_RADIUS = 14
SAMPLE_HAND = ("5H", "5C", "5S", "JD")
SAMPLE_STARTER = "5D"
WIDTH, HEIGHT = 1600, 1200


def sample_photo(
    hand: Sequence[str] = SAMPLE_HAND, starter: str = SAMPLE_STARTER, seed: int = 0, quality: int = 90
) -> bytes:
    """A JPEG of ``hand`` in a row (each card overlapping the last by a third) and ``starter`` apart."""
    rng = np.random.default_rng(seed)
    table = np.empty((HEIGHT, WIDTH, 3), np.float32)
    table[:] = (38, 108, 62)
    table += rng.normal(0, 6, (HEIGHT, WIDTH, 1)).astype(np.float32)
    spots = [(110 + 170 * i, 170 + 12 * i) for i in range(len(hand))] + [(1180, 720)]
    alpha = _card_mask()
    for name, (x, y) in zip([*hand, starter], spots, strict=True):
        rgb = card_image(name)
        h, w = rgb.shape[:2]
        shadow = table[y + 8 : y + h + 8, x + 6 : x + w + 6]
        shadow *= 1 - 0.35 * alpha
        region = table[y : y + h, x : x + w]
        region[:] = rgb * alpha + region * (1 - alpha)
    rgb = np.clip(table, 0, 255).astype(np.uint8)
    ok, buffer = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise OSError("The sample photo could not be encoded.")
    return buffer.tobytes()


def card_image(name: str) -> np.ndarray:
    """One card of the shipped sheet as RGB float32, ``CARD_HEIGHT`` x ``CARD_WIDTH``; ``KeyError`` if unknown."""
    rank, suit = name[:-1], name[-1]
    if rank not in RANKS or suit not in SUITS:
        raise KeyError(name)
    row, col = SUITS.index(suit), RANKS.index(rank)
    top, left = row * CARD_HEIGHT, col * CARD_WIDTH
    return _sheet()[top : top + CARD_HEIGHT, left : left + CARD_WIDTH].astype(np.float32)


@cache
def _sheet() -> np.ndarray:
    bgr = cv2.imread(str(SHEET), cv2.IMREAD_COLOR)
    if bgr is None:
        raise OSError(f"The sample deck {SHEET} is missing; reinstall cribcam.")
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)


@cache
def _card_mask() -> np.ndarray:
    """A card's outline with rounded corners, as an H x W x 1 alpha in [0, 1]."""
    mask = np.zeros((CARD_HEIGHT * 4, CARD_WIDTH * 4), np.uint8)
    r = CORNER_RADIUS * 4
    cv2.rectangle(mask, (r, 0), (mask.shape[1] - 1 - r, mask.shape[0] - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (mask.shape[1] - 1, mask.shape[0] - 1 - r), 255, -1)
    for cx in (r, mask.shape[1] - 1 - r):
        for cy in (r, mask.shape[0] - 1 - r):
            cv2.circle(mask, (cx, cy), r, 255, -1)
    small = cv2.resize(mask, (CARD_WIDTH, CARD_HEIGHT), interpolation=cv2.INTER_AREA)
    return (small.astype(np.float32) / 255)[:, :, None]


def blank_photo(seed: int = 0) -> bytes:
    """A photo of an empty table (no cards), for the "no cards found" path."""
    rng = np.random.default_rng(seed)
    rgb = np.clip(rng.normal(90, 20, (480, 640, 3)), 0, 255).astype(np.uint8)
    ok, buffer = cv2.imencode(".jpg", rgb)
    assert ok
    return buffer.tobytes()
