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


STEP = 170
"""Each card of a row overlaps the last by about a third: its left edge is this far along."""
SHOW_WIDTH, SHOW_HEIGHT = 2400, 1800
SHOW_ROWS = ((150, 1300), (1050, 1300), (600, 150), (1500, 150))
"""Where each group of a show starts: nearest the photographer on the left and right, then across the table."""
SHOW_STARTER = (1080, 760)


def sample_photo(
    hand: Sequence[str] = SAMPLE_HAND, starter: str = SAMPLE_STARTER, seed: int = 0, quality: int = 90
) -> bytes:
    """A JPEG of ``hand`` in a row (each card overlapping the last by a third) and ``starter`` apart."""
    table = _table(WIDTH, HEIGHT, seed)
    spots = [(110 + STEP * i, 170 + 12 * i) for i in range(len(hand))] + [(1180, 720)]
    _lay(table, [*hand, starter], spots)
    return _jpeg(table, quality)


def show_photo(groups: Sequence[Sequence[str]], starter: str, seed: int = 0, quality: int = 90) -> bytes:
    """A JPEG of the show: up to four groups of cards in rows a few centimetres apart and the starter alone.

    The first two groups lie nearest the photographer (bottom left, bottom right), the others across the table.
    """
    if len(groups) > len(SHOW_ROWS):
        raise ValueError(f"A show photo holds at most {len(SHOW_ROWS)} groups, not {len(groups)}.")
    table = _table(SHOW_WIDTH, SHOW_HEIGHT, seed)
    names, spots = [starter], [SHOW_STARTER]
    for group, (x, y) in zip(groups, SHOW_ROWS, strict=False):
        names += list(group)
        spots += [(x + STEP * i, y + 10 * i) for i in range(len(group))]
    _lay(table, names, spots)
    return _jpeg(table, quality)


def _table(width: int, height: int, seed: int) -> np.ndarray:
    """Felt-green cloth with a little noise, as float32 RGB."""
    rng = np.random.default_rng(seed)
    table = np.empty((height, width, 3), np.float32)
    table[:] = (38, 108, 62)
    table += rng.normal(0, 6, (height, width, 1)).astype(np.float32)
    return table


def _lay(table: np.ndarray, names: Sequence[str], spots: Sequence[tuple[int, int]]) -> None:
    """Lay each card (with a soft shadow) with its top-left corner at its spot, later cards on top."""
    alpha = _card_mask()
    for name, (x, y) in zip(names, spots, strict=True):
        rgb = card_image(name)
        h, w = rgb.shape[:2]
        shadow = table[y + 8 : y + h + 8, x + 6 : x + w + 6]
        shadow *= 1 - 0.35 * alpha[: shadow.shape[0], : shadow.shape[1]]
        region = table[y : y + h, x : x + w]
        region[:] = rgb * alpha + region * (1 - alpha)


def _jpeg(table: np.ndarray, quality: int) -> bytes:
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
