"""Measuring the shipped models: real photos (the held-out split), synthetic held-out decks, speed.

Corner metrics match each read corner to a labelled corner of the same card at IoU >= 0.5
(greedy by confidence); "located" ignores the card. Cards are the rows ``cards_from_corners``
reports: a row is right when one of its corners lies on a labelled corner of that card, so a
misread is wrong even where the photo holds the card it was misread as (a full deck does). A
labelled card is found when a right row names it. Rows on corners nobody labelled count as wrong.
Corner recall is also kept by the labelled corner's size (its long side in photo pixels), which
says whether misses come from corners too small to read.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path

import numpy as np

from vision.cards_from_corners import cards_from_corners
from vision.detections import Detections, box_iou, long_sides

SIZE_EDGES = (14, 18, 24, 32, 48)  # corner long side, photo pixels: the bins of the by-size recall
SIZE_LABELS = (
    f"<{SIZE_EDGES[0]}",
    *(f"{a}-{b}" for a, b in pairwise(SIZE_EDGES)),
    f">={SIZE_EDGES[-1]}",
)


def size_bins(boxes: np.ndarray) -> np.ndarray:
    """The ``SIZE_LABELS`` bin of each box (xyxy) by its long side."""
    return np.digitize(long_sides(np.asarray(boxes, dtype=np.float32).reshape(-1, 4)), SIZE_EDGES)


@dataclass
class Tally:
    """Counts that add up over photos."""

    corners_true: int = 0
    corners_read: int = 0
    corners_correct: int = 0
    corners_located: int = 0
    cards_true: int = 0
    cards_read: int = 0
    cards_correct: int = 0  # card rows whose corners lie on a labelled corner of that card
    cards_found: int = 0  # labelled cards read correctly at one of their corners
    milliseconds: list[float] = field(default_factory=list)
    confusions: list[tuple[int, int]] = field(default_factory=list)  # (true card, read card) of located corners
    scored: list[tuple[float, bool]] = field(default_factory=list)  # (confidence, correct) of every read corner
    size_true: np.ndarray = field(default_factory=lambda: np.zeros(len(SIZE_LABELS), np.int64))
    size_correct: np.ndarray = field(default_factory=lambda: np.zeros(len(SIZE_LABELS), np.int64))

    def add(self, other: Tally) -> None:
        for name in (
            "corners_true",
            "corners_read",
            "corners_correct",
            "corners_located",
            "cards_true",
            "cards_read",
            "cards_correct",
            "cards_found",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.milliseconds += other.milliseconds
        self.confusions += other.confusions
        self.scored += other.scored
        self.size_true = self.size_true + other.size_true
        self.size_correct = self.size_correct + other.size_correct

    def summary(self) -> dict:
        def ratio(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        return {
            "corner_precision": ratio(self.corners_correct, self.corners_read),
            "corner_recall": ratio(self.corners_correct, self.corners_true),
            "corner_located_recall": ratio(self.corners_located, self.corners_true),
            "card_precision": ratio(self.cards_correct, self.cards_read),
            "card_recall": ratio(self.cards_found, self.cards_true),
            "corner_recall_by_px": {
                label: {"corners": int(n), "recall": ratio(int(k), int(n))}
                for label, n, k in zip(SIZE_LABELS, self.size_true, self.size_correct, strict=True)
                if n
            },
            "corners_true": self.corners_true,
            "cards_true": self.cards_true,
            "ms_per_photo_median": round(float(np.median(self.milliseconds)), 1) if self.milliseconds else None,
        }


def score_photo(read: Detections, boxes: np.ndarray, class_ids: np.ndarray, iou: float = 0.5) -> Tally:
    """Compare classified corners ``read`` with labelled corner ``boxes``/``class_ids`` of one photo."""
    tally = Tally(corners_true=len(boxes), corners_read=len(read))
    ious = box_iou(read.xyxy, boxes) if len(read) and len(boxes) else np.zeros((len(read), len(boxes)))
    order = np.argsort(-read.confidence)
    taken_exact: set[int] = set()
    taken_any: set[int] = set()
    for i in order:
        same = np.flatnonzero((class_ids == read.class_id[i]) & (ious[i] >= iou))
        free = [j for j in same[np.argsort(-ious[i, same])] if j not in taken_exact]
        correct = bool(free)
        if correct:
            taken_exact.add(free[0])
        tally.scored.append((float(read.confidence[i]), correct))
        near = [j for j in np.flatnonzero(ious[i] >= iou) if j not in taken_any]
        if near:
            j = max(near, key=lambda k: ious[i, k])
            taken_any.add(j)
            tally.confusions.append((int(class_ids[j]), int(read.class_id[i])))
    tally.corners_correct = len(taken_exact)
    bins = size_bins(boxes)
    tally.size_true = np.bincount(bins, minlength=len(SIZE_LABELS))
    tally.size_correct = np.bincount(bins[sorted(taken_exact)], minlength=len(SIZE_LABELS))
    tally.corners_located = len(taken_any)
    true_cards = set(class_ids.tolist())
    found = cards_from_corners(read) if len(read) else None
    right_rows: set[int] = set()
    found_cards: set[int] = set()
    for row, members in enumerate(found.members if found else []):
        card = int(found.cards.class_id[row])
        hits = ious[members][:, class_ids == card] >= iou if len(members) else np.zeros((0, 0), bool)
        if hits.any():
            right_rows.add(row)
            found_cards.add(card)
    tally.cards_true, tally.cards_read = len(true_cards), len(found.cards) if found else 0
    tally.cards_correct = len(right_rows)
    tally.cards_found = len(found_cards)
    return tally


def evaluate_photos(detector, photos: list, min_confidence: float = 0.0) -> tuple[Tally, list[dict]]:
    """Run ``detector`` (a ``CardDetector``) on labelled photos; totals and one row per photo."""
    from vision.photo_io import load_photo

    total, rows = Tally(), []
    for photo in photos:
        loaded = load_photo(photo.path)
        start = time.perf_counter()
        read = detector.detect(loaded)
        elapsed = (time.perf_counter() - start) * 1000
        read = read.filter(read.confidence >= min_confidence)
        tally = score_photo(read, photo.boxes, photo.class_ids)
        tally.milliseconds.append(elapsed)
        total.add(tally)
        rows.append({"photo": photo.path.name, **tally.summary()})
    return total, rows


def synthetic_photos(dataset: Path, split: str = "val", limit: int = 200) -> list:
    """Labelled photos from a ``cribcam synth`` dataset split, in the shape of ``real_photos.LabelledPhoto``."""
    import cv2

    from vision.training.classifier_data import read_yolo_labels
    from vision.training.real_photos import LabelledPhoto

    out = []
    for path in sorted((Path(dataset) / "images" / split).glob("*.jpg"))[:limit]:
        h, w = cv2.imread(str(path)).shape[:2]
        boxes, ids = read_yolo_labels(Path(dataset) / "labels" / split / f"{path.stem}.txt", w, h)
        out.append(LabelledPhoto(path, boxes, ids))
    return out


def plot_confusion(tally: Tally, out: Path, title: str) -> Path:
    """52 x 52 confusion matrix (true card vs read card) of located corners, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from scorer.cards import CLASS_NAMES

    matrix = np.zeros((52, 52), dtype=np.int64)
    for true, read in tally.confusions:
        matrix[true, read] += 1
    fig, ax = plt.subplots(figsize=(10, 10))
    ax.imshow(np.log1p(matrix), cmap="Blues")
    ax.set_xticks(range(52), CLASS_NAMES, rotation=90, fontsize=6)
    ax.set_yticks(range(52), CLASS_NAMES, fontsize=6)
    ax.set_xlabel("read as")
    ax.set_ylabel("true card")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(out, dpi=80)
    plt.close(fig)
    return out


def plot_precision_recall(tally: Tally, out: Path, title: str) -> Path:
    """Corner precision against recall as the confidence threshold falls, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    scored = sorted(tally.scored, key=lambda s: -s[0])
    hits = np.cumsum([c for _, c in scored]) if scored else np.zeros(0)
    precision = hits / np.arange(1, len(hits) + 1) if len(hits) else hits
    recall = hits / max(tally.corners_true, 1)
    fig, ax = plt.subplots(figsize=(5, 4))
    ax.plot(recall, precision)
    ax.set_xlabel("corner recall")
    ax.set_ylabel("corner precision")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=80)
    plt.close(fig)
    return out


def write_report(report: dict, out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "eval.json"
    path.write_text(json.dumps(report, indent=2) + "\n")
    return path
