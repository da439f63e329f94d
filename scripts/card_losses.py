"""Where the cards of a synthetic set are lost: the detector, the classifier, or a threshold.

Each labelled card of each photo falls in the first of these that holds, judged on its labelled corners
(IoU >= 0.5 with a corner box the detector found):
  no corner found, read right (the classifier's best class is the card, at ``min_prob`` or more), right
  under min_prob, read as "not a corner", misread (another card).
The count of cards the reader reports is lower still: face-pattern drops and the calibration's ``drop_below``
come after. Misreads are also counted by kind (a wrong rank, or a wrong suit alone).

    python scripts/card_losses.py data/heldout1280 data/unseen1280 [--models runs/X/models] [--limit 300]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scorer.cards import Card  # noqa: E402
from vision.detections import box_iou  # noqa: E402
from vision.detector import CardDetector  # noqa: E402
from vision.photo_io import load_photo  # noqa: E402
from vision.training.evaluate import synthetic_photos  # noqa: E402

OUTCOMES = ("read right", "right under min_prob", "not a corner", "misread", "no corner found")


def misread_kind(true: Card, read: Card) -> str:
    """'6>10' for a wrong rank, 'suit D>S' for a wrong suit alone."""
    if true.rank != read.rank:
        return f"{true.rank_name}>{read.rank_name}"
    return f"suit {true.suit}>{read.suit}"


def card_outcomes(detector: CardDetector, photo) -> tuple[Counter, Counter]:
    """Outcome of each labelled card of one photo, and its misreads by ``misread_kind``."""
    cards = sorted(set(photo.class_ids.tolist()))
    loaded = load_photo(photo.path)
    corners = detector.find_corners(loaded.rgb)
    if not len(corners):
        return Counter({"no corner found": len(cards)}), Counter()
    read, prob = detector.read_corners(loaded.rgb, corners)
    sx, sy = loaded.scale
    overlaps = box_iou(photo.boxes, corners.xyxy * np.array([sx, sy, sx, sy], np.float32))
    min_prob = detector.manifest.min_prob
    outcomes: Counter = Counter()
    misreads: Counter = Counter()
    for card in cards:
        found = np.flatnonzero((overlaps[photo.class_ids == card] >= 0.5).any(axis=0))
        if not len(found):
            outcomes["no corner found"] += 1
        elif any(read[i] == card and prob[i] >= min_prob for i in found):
            outcomes["read right"] += 1
        elif any(read[i] == card for i in found):
            outcomes["right under min_prob"] += 1
        elif all(read[i] < 0 for i in found):
            outcomes["not a corner"] += 1
        else:
            outcomes["misread"] += 1
            wrong = next(int(read[i]) for i in found if read[i] >= 0 and read[i] != card)
            misreads[misread_kind(Card.from_index(card), Card.from_index(wrong))] += 1
    return outcomes, misreads


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path, help="'cribcam synth' folders (their val split)")
    parser.add_argument("--models", help="models folder (default: the shipped models)")
    parser.add_argument("--limit", type=int, default=300, help="photos per set (default 300)")
    args = parser.parse_args()
    detector = CardDetector(args.models)
    for folder in args.sets:
        if not (folder / "images" / "val").is_dir():
            print(f"{folder} is not a 'cribcam synth' set with a val split.", file=sys.stderr)
            return 2
        outcomes: Counter = Counter()
        misreads: Counter = Counter()
        for photo in synthetic_photos(folder, "val", args.limit):
            more, wrong = card_outcomes(detector, photo)
            outcomes += more
            misreads += wrong
        total = sum(outcomes.values())
        shares = ", ".join(f"{name} {outcomes[name]} ({outcomes[name] / max(total, 1):.1%})" for name in OUTCOMES)
        pairs = ", ".join(f"{kind} {n}" for kind, n in misreads.most_common(8))
        print(f"{folder.name}: {total} cards: {shares}\n  most common misreads: {pairs}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
