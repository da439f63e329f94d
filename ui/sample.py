"""A sample photo for trying the Count page without cards to hand (and for the app's tests).

Four cards in an overlapping row with the starter set apart on a felt-green table, drawn with a real
deck's art when it has been rendered (``scripts/install_card_art.sh``, ``vision.cardart``), else with the
procedural test deck (``vision.synth.testdeck``).

>>> data = sample_photo(["5H", "5C", "5S", "JD"], "5D")
>>> data[:2] == b"\\xff\\xd8"
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

PREFERRED_DECK = "gnome-anglo-modern"
CARD_HEIGHT = 360
SAMPLE_HAND = ("5H", "5C", "5S", "JD")
SAMPLE_STARTER = "5D"
WIDTH, HEIGHT = 1600, 1200


def sample_photo(
    hand: Sequence[str] = SAMPLE_HAND, starter: str = SAMPLE_STARTER, seed: int = 0, quality: int = 90
) -> bytes:
    """A JPEG of ``hand`` in a row (each card overlapping the last by a third) and ``starter`` apart."""
    card_image = _deck()
    rng = np.random.default_rng(seed)
    table = np.empty((HEIGHT, WIDTH, 3), np.float32)
    table[:] = (38, 108, 62)
    table += rng.normal(0, 6, (HEIGHT, WIDTH, 1)).astype(np.float32)
    spots = [(110 + 170 * i, 170 + 12 * i) for i in range(len(hand))] + [(1180, 720)]
    for name, (x, y) in zip([*hand, starter], spots, strict=True):
        rgba = card_image(name)
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


def _deck() -> Callable[[str], np.ndarray]:
    """Card name -> RGBA image ``CARD_HEIGHT`` px tall, from rendered real art if there is any."""
    from vision.cardart import DEFAULT_CACHE, load_decks

    if (DEFAULT_CACHE / "index.json").is_file():
        decks = {deck.name: deck for deck in load_decks(DEFAULT_CACHE)}
        deck = decks.get(PREFERRED_DECK) or next(iter(decks.values()), None)
        if deck is not None:

            def real(name: str) -> np.ndarray:
                rgba = deck.cards[name].image()
                width = round(rgba.shape[1] * CARD_HEIGHT / rgba.shape[0])
                return cv2.resize(rgba, (width, CARD_HEIGHT), interpolation=cv2.INTER_AREA)

            return real
    from vision.synth.testdeck import make_test_deck

    test_deck = make_test_deck()
    return lambda name: test_deck.cards[name].image()


def blank_photo(seed: int = 0) -> bytes:
    """A photo of an empty table (no cards), for the "no cards found" path."""
    rng = np.random.default_rng(seed)
    rgb = np.clip(rng.normal(90, 20, (480, 640, 3)), 0, 255).astype(np.uint8)
    ok, buffer = cv2.imencode(".jpg", rgb)
    assert ok
    return buffer.tobytes()
