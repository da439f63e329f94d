"""A tiny procedural deck with the same shape as ``vision.training.cardart.Deck``, for tests and quick runs.

>>> deck = make_test_deck()
>>> deck.cards["10H"].image().shape, deck.cards["10H"].corners.shape
((360, 250, 4), (2, 4, 2))
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from scorer.cards import CLASS_NAMES

CARD_W, CARD_H = 250, 360
RADIUS = 18
INDEX_BOX = (10, 12, 58, 104)  # x1, y1, x2, y2 of the top-left index (rank + pip) in card pixels


def rounded_alpha(width: int, height: int, radius: int) -> np.ndarray:
    """An alpha mask (uint8) of a rounded rectangle filling ``width`` x ``height``."""
    alpha = np.zeros((height, width), np.uint8)
    cv2.rectangle(alpha, (radius, 0), (width - 1 - radius, height - 1), 255, -1)
    cv2.rectangle(alpha, (0, radius), (width - 1, height - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (width - 1 - radius, radius), (radius, height - 1 - radius)):
        cv2.circle(alpha, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    cv2.circle(alpha, (width - 1 - radius, height - 1 - radius), radius, 255, -1, cv2.LINE_AA)
    return alpha


def _pip(img: np.ndarray, suit: str, cx: int, cy: int, r: int, colour: tuple[int, ...]) -> None:
    if suit == "D":
        pts = np.array([[cx, cy - r], [cx + r * 0.7, cy], [cx, cy + r], [cx - r * 0.7, cy]], np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
    elif suit == "H":
        cv2.circle(img, (cx - r // 2, cy - r // 3), r // 2 + 1, colour, -1, cv2.LINE_AA)
        cv2.circle(img, (cx + r // 2, cy - r // 3), r // 2 + 1, colour, -1, cv2.LINE_AA)
        pts = np.array([[cx - r, cy - r // 4], [cx + r, cy - r // 4], [cx, cy + r]], np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
    elif suit == "S":
        pts = np.array([[cx, cy - r], [cx + r, cy + r // 3], [cx - r, cy + r // 3]], np.int32)
        cv2.fillPoly(img, [pts], colour, cv2.LINE_AA)
        cv2.rectangle(img, (cx - 2, cy), (cx + 2, cy + r), colour, -1)
    else:
        for dx, dy in ((0, -r // 2), (-r // 2, r // 6), (r // 2, r // 6)):
            cv2.circle(img, (cx + dx, cy + dy), r // 2, colour, -1, cv2.LINE_AA)
        cv2.rectangle(img, (cx - 2, cy), (cx + 2, cy + r), colour, -1)


@dataclass(frozen=True)
class TestCardArt:
    """One procedural card: ``image()`` is RGBA, ``corners`` the (2, 4, 2) index quads."""

    name: str
    hue: int = 0
    corners: np.ndarray = field(default_factory=lambda: _index_quads())

    def image(self) -> np.ndarray:
        rank, suit = self.name[:-1], self.name[-1]
        img = np.full((CARD_H, CARD_W, 3), (250, 248, 242), np.uint8)
        colour = (200, 20, 30) if suit in "HD" else (15, 15, 20)
        if self.hue:
            colour = (0, 110, 40) if suit == "C" else (20, 60, 190) if suit == "D" else colour
        x1, y1, x2, y2 = INDEX_BOX
        half = np.zeros((y2 - y1, x2 - x1, 3), np.uint8) + np.array((250, 248, 242), np.uint8)
        scale = 1.5 if len(rank) == 1 else 1.1
        cv2.putText(half, rank, (2, 44), cv2.FONT_HERSHEY_DUPLEX, scale, colour, 4, cv2.LINE_AA)
        _pip(half, suit, (x2 - x1) // 2, 72, 14, colour)
        img[y1:y2, x1:x2] = half
        img[CARD_H - y2 : CARD_H - y1, CARD_W - x2 : CARD_W - x1] = half[::-1, ::-1]
        _pip(img, suit, CARD_W // 2, CARD_H // 2, 40, colour)
        cv2.rectangle(img, (70, 60), (CARD_W - 70, CARD_H - 60), colour, 2)
        return np.dstack([img, rounded_alpha(CARD_W, CARD_H, RADIUS)])


def _index_quads() -> np.ndarray:
    x1, y1, x2, y2 = INDEX_BOX
    top_left = [[x1, y1], [x2, y1], [x2, y2], [x1, y2]]
    bottom_right = [[CARD_W - x, CARD_H - y] for x, y in top_left]
    return np.array([top_left, bottom_right], np.float32)


@dataclass(frozen=True)
class TestDeck:
    """Shaped like ``vision.training.cardart.Deck``: name, source, licence, four_colour, jumbo, back, cards, family."""

    name: str
    four_colour: bool = False
    source: str = "procedural"
    licence: str = "MIT"
    jumbo: bool = False
    back: str | None = None
    cards: dict[str, TestCardArt] = field(default_factory=dict)
    family: str = ""


def make_test_deck(name: str = "test", four_colour: bool = False, family: str = "") -> TestDeck:
    """A 52-card procedural deck (drawn with OpenCV text and simple pips)."""
    hue = 1 if four_colour else 0
    cards = {n: TestCardArt(n, hue) for n in CLASS_NAMES}
    return TestDeck(name, four_colour=four_colour, cards=cards, family=family or name)
