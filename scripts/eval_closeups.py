"""Close-ups: one corner of a card filling a 4000 px frame, read with and without the shrunk passes, and with a
first pass that reads no card shrunk too (the manifest's ``detector.unread_zoom_out``, stop 58).

For each deck (held-out designs by default) and card, the top of the card is cropped to 90, 70, 50, 40 and
30 % of its height (the index always inside) and scaled up to 4000 px; the detector's corner cards are
compared with the card shown. The last row counts the cards the app reports instead (``read_photo``: the face check,
the calibration's floor and corners joined into cards, with the shipped reading), which is what a user sees. Needs
the rendered card art (``cribcam cards``).

    python scripts/eval_closeups.py [--decks npm-kennard,gnome-paris,gnome-atlasnye,kde-gm-paris] [--models DIR]
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import vision.detector as detector_module  # noqa: E402
from scorer.cards import Card  # noqa: E402
from vision.detector import CardDetector  # noqa: E402
from vision.photo_io import Photo, load_photo  # noqa: E402
from vision.reading import read_photo  # noqa: E402
from vision.training.cardart import DEFAULT_CACHE, load_decks  # noqa: E402

CARDS = ("AS", "4H", "7D", "10C", "KS", "QH", "9D", "2C")
FRACTIONS = (0.9, 0.7, 0.5, 0.4, 0.3)
TABLE = np.array([40, 110, 60], np.float32)


def closeups(deck, names=CARDS) -> list[tuple[Card, Photo]]:
    """(card, photo) for each card and crop of one rendered deck."""
    out = []
    for name in names:
        rgba = deck.cards[name].image()
        height, width = rgba.shape[:2]
        alpha = rgba[:, :, 3:4].astype(np.float32) / 255
        rgb = rgba[:, :, :3] * alpha + TABLE * (1 - alpha)
        for fraction in FRACTIONS:
            crop = rgb[: int(height * fraction), : int(width * min(1.0, fraction * 1.33))]
            scale = 4000 / max(crop.shape[:2])
            big = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
            out.append((Card.parse(name), load_photo(np.clip(big, 0, 255).astype(np.uint8))))
    return out


def score(detector: CardDetector, items: list[tuple[Card, Photo]], as_app: bool = False) -> tuple[int, int]:
    """Photos whose card was read, and false cards read (other cards, each counted once a photo): the classified
    corners' cards, or with ``as_app`` the cards ``read_photo`` reports."""
    right = false = 0
    for card, photo in items:
        found = set(read_photo(photo, detector).card_list if as_app else detector.detect_photo(photo)[0].cards)
        right += card in found
        false += len(found - {card})
    return right, false


def print_row(label: str, detector: CardDetector, sets: dict[str, list], as_app: bool = False) -> None:
    """One line: each deck's close-ups ``score``d as ``detector`` reads them now."""
    cells = []
    for name, items in sets.items():
        right, false = score(detector, items, as_app)
        cells.append(f"{name} {right}/{len(items)} read, {false} false")
    print(f"{label:<25} " + " | ".join(cells), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", default="npm-kennard,gnome-paris,gnome-atlasnye,kde-gm-paris")
    parser.add_argument("--models", type=Path, default=None, help="a models folder (default: the app's)")
    args = parser.parse_args()
    if not (DEFAULT_CACHE / "index.json").is_file():
        print("The card art is not rendered: bash scripts/install_card_art.sh && cribcam cards", file=sys.stderr)
        return 2
    decks = {deck.name: deck for deck in load_decks(DEFAULT_CACHE)}
    sets = {name: closeups(decks[name]) for name in args.decks.split(",")}
    detector = CardDetector(args.models)
    shipped = (detector_module.ZOOM_OUT, detector_module.MAX_CORNER_PX)
    manifest = detector.manifest
    readings = (
        ("one pass and tiles only", ((), float("inf")), False),
        ("shrunk when none found", shipped, False),
        ("and when none read", shipped, True),
    )
    for label, (zoom, max_px), unread in readings:
        detector_module.ZOOM_OUT, detector_module.MAX_CORNER_PX = zoom, max_px
        detector.manifest = dataclasses.replace(manifest, unread_zoom_out=unread)
        print_row(label, detector, sets)
    detector_module.ZOOM_OUT, detector_module.MAX_CORNER_PX = shipped
    detector.manifest = manifest
    print_row("cards the app reports", detector, sets, as_app=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
