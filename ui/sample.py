"""A sample photo for trying the Count page without cards to hand (and for the app's tests).

Four cards in an overlapping row with the starter set apart, drawn with the procedural test deck
(``vision.synth.testdeck``) on a felt-green table.

>>> data = sample_photo(["5H", "5C", "5S", "JD"], "5D")
>>> data[:2] == b"\\xff\\xd8"
True
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

SAMPLE_HAND = ("5H", "5C", "5S", "JD")
SAMPLE_STARTER = "5D"
WIDTH, HEIGHT = 1600, 1200


def sample_photo(
    hand: Sequence[str] = SAMPLE_HAND, starter: str = SAMPLE_STARTER, seed: int = 0, quality: int = 90
) -> bytes:
    """A JPEG of ``hand`` in a row (each card overlapping the last by a third) and ``starter`` apart."""
    from vision.synth.testdeck import make_test_deck

    deck = make_test_deck()
    rng = np.random.default_rng(seed)
    table = np.empty((HEIGHT, WIDTH, 3), np.float32)
    table[:] = (38, 108, 62)
    table += rng.normal(0, 6, (HEIGHT, WIDTH, 1)).astype(np.float32)
    spots = [(110 + 170 * i, 170 + 12 * i) for i in range(len(hand))] + [(1180, 720)]
    for name, (x, y) in zip([*hand, starter], spots, strict=True):
        rgba = deck.cards[name].image()
        h, w = rgba.shape[:2]
        alpha = rgba[:, :, 3:4].astype(np.float32) / 255
        shadow = table[y + 8 : y + h + 8, x + 6 : x + w + 6]
        shadow *= 1 - 0.35 * alpha
        region = table[y : y + h, x : x + w]
        region[:] = rgba[:, :, :3] * alpha + region * (1 - alpha)
    rgb = np.clip(table, 0, 255).astype(np.uint8)
    ok, buffer = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise OSError("The sample photo could not be encoded.")
    return buffer.tobytes()


def blank_photo(seed: int = 0) -> bytes:
    """A photo of an empty table (no cards), for the "no cards found" path."""
    rng = np.random.default_rng(seed)
    rgb = np.clip(rng.normal(90, 20, (480, 640, 3)), 0, 255).astype(np.uint8)
    ok, buffer = cv2.imencode(".jpg", rgb)
    assert ok
    return buffer.tobytes()
