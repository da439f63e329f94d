"""Measuring the shipped models: real photos (the held-out split), synthetic held-out decks, speed.

Corner metrics match each read corner to a labelled corner of the same card at IoU >= 0.5
(greedy by confidence); "located" ignores the card. Cards are the rows ``cards_from_corners``
reports: a row is right when one of its corners lies on a labelled corner of that card, so a
misread is wrong even where the photo holds the card it was misread as (a full deck does). A
labelled card is found when a right row names it. Rows on corners nobody labelled count as wrong.
Corner recall is also kept by the labelled corner's size (its long side in photo pixels), which
says whether misses come from corners too small to read.

A synthetic photo's scene records every corner, covered or not. A wrong row on its own card's corner (one of
its corners overlaps the bounds of that card's corner quad, IoU >= ``OWN_CORNER_IOU``, and lies on no labelled
corner) is the right card read where its index is too covered to be labelled: ``cards_own_corner`` counts
these, and the whole-card precision counts them right, as a photo labelled by whole card would.

Photos labelled with whole-card boxes (edje, ``score_card_photo``) are scored by card only: a card row
is right when the photo holds that card and one of the row's corners lies on the card's box. Every
wrong row is listed as a false card with its confidence, and card precision and recall are kept at
each confidence threshold (``card_curve``), which says where the app should ask "check this card".
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
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
CARD_BOX_GROW = 0.1
"""A corner lies on a labelled card when its centre is inside the card's box grown by this part of its size."""
OWN_CORNER_IOU = 0.3
"""A wrong row lies on its own card's covered corner when a corner overlaps that corner's quad bounds this much."""
CURVE_THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


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
    cards_own_corner: int = 0  # wrong rows that are the right card on its own covered corner (synthetic scenes)
    milliseconds: list[float] = field(default_factory=list)
    confusions: list[tuple[int, int]] = field(default_factory=list)  # (true card, read card) of located corners
    scored: list[tuple[float, bool]] = field(default_factory=list)  # (confidence, correct) of every read corner
    size_true: np.ndarray = field(default_factory=lambda: np.zeros(len(SIZE_LABELS), np.int64))
    size_correct: np.ndarray = field(default_factory=lambda: np.zeros(len(SIZE_LABELS), np.int64))
    photos: int = 0
    false_cards: list[dict] = field(default_factory=list)  # card, confidence, box (and photo) of each wrong row
    cards_scored: list[tuple[float, bool, bool]] = field(default_factory=list)  # (confidence, right, finds a card)
    card_features: list[np.ndarray] = field(default_factory=list)  # vision.confidence features, as cards_scored

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
            "cards_own_corner",
            "photos",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.milliseconds += other.milliseconds
        self.confusions += other.confusions
        self.scored += other.scored
        self.size_true = self.size_true + other.size_true
        self.size_correct = self.size_correct + other.size_correct
        self.false_cards += other.false_cards
        self.cards_scored += other.cards_scored
        self.card_features += other.card_features

    def card_curve(self, thresholds: tuple[float, ...] = CURVE_THRESHOLDS) -> list[dict]:
        """Card precision and recall keeping only cards read with at least each confidence threshold."""
        scored = np.array(self.cards_scored, dtype=np.float64).reshape(-1, 3)
        curve = []
        for t in thresholds:
            kept = scored[scored[:, 0] >= t]
            curve.append(
                {
                    "threshold": t,
                    "cards_read": len(kept),
                    "precision": round(float(kept[:, 1].mean()), 4) if len(kept) else None,
                    "recall": round(float(kept[:, 2].sum()) / self.cards_true, 4) if self.cards_true else None,
                }
            )
        return curve

    def summary(self) -> dict:
        def ratio(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        return {
            "corner_precision": ratio(self.corners_correct, self.corners_read),
            "corner_recall": ratio(self.corners_correct, self.corners_true),
            "corner_located_recall": ratio(self.corners_located, self.corners_true),
            "card_precision": ratio(self.cards_correct, self.cards_read),
            "card_recall": ratio(self.cards_found, self.cards_true),
            "card_precision_whole_card": ratio(self.cards_correct + self.cards_own_corner, self.cards_read),
            "corner_recall_by_px": {
                label: {"corners": int(n), "recall": ratio(int(k), int(n))}
                for label, n, k in zip(SIZE_LABELS, self.size_true, self.size_correct, strict=True)
                if n
            },
            "corners_true": self.corners_true,
            "cards_true": self.cards_true,
            "cards_read": self.cards_read,
            "cards_own_corner": self.cards_own_corner,
            "false_cards_per_photo": ratio(len(self.false_cards), self.photos),
            "false_cards": self.false_cards,
            "card_curve": self.card_curve(),
            "card_calibration_error": _ece(self.cards_scored),
            "ms_per_photo_median": round(float(np.median(self.milliseconds)), 1) if self.milliseconds else None,
        }


def _ece(cards_scored: list[tuple[float, bool, bool]]) -> float | None:
    from vision.confidence import expected_calibration_error

    scored = np.array(cards_scored, dtype=np.float64).reshape(-1, 3)
    error = expected_calibration_error(scored[:, 0], scored[:, 1])
    return None if error is None else round(error, 4)


def score_photo(
    read: Detections,
    boxes: np.ndarray,
    class_ids: np.ndarray,
    iou: float = 0.5,
    calibration=None,
    corner_quads: dict[int, np.ndarray] | None = None,
    pixel_scale: float = 1.0,
) -> Tally:
    """Compare classified corners ``read`` with labelled corner ``boxes``/``class_ids`` of one photo; with the
    scene's ``corner_quads`` (``LabelledPhoto.corner_quads``), also count the wrong rows on their own card's
    covered corner (``own_corner``). ``pixel_scale``: the photo's pixels per pixel the classifier read."""
    tally = Tally(corners_true=len(boxes), corners_read=len(read), photos=1)
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
    found = cards_from_corners(read, calibration=calibration, pixel_scale=pixel_scale) if len(read) else None
    right = np.zeros(len(found.cards) if found else 0, dtype=bool)
    for row, members in enumerate(found.members if found else []):
        card = int(found.cards.class_id[row])
        hits = ious[members][:, class_ids == card] >= iou if len(members) else np.zeros((0, 0), bool)
        right[row] = hits.any()
        if not right[row] and corner_quads is not None:
            tally.cards_own_corner += own_corner(read.xyxy[members], ious[members], corner_quads.get(card), iou)
    tally.cards_true = len(true_cards)
    if found is not None:
        tally_cards(tally, found.cards, right, found.features)
    return tally


def own_corner(corners: np.ndarray, label_ious: np.ndarray, quads: np.ndarray | None, iou: float = 0.5) -> bool:
    """Whether a wrong row's ``corners`` (xyxy) are its card's own covered corner: none lies on a labelled corner
    (``label_ious`` under ``iou``) and one overlaps the bounds of one of the card's corner ``quads``."""
    if quads is None or not len(quads) or not len(corners):
        return False
    if label_ious.size and float(label_ious.max()) >= iou:
        return False
    return bool(float(box_iou(corners, quads).max()) >= OWN_CORNER_IOU)


def tally_cards(tally: Tally, cards: Detections, right: np.ndarray, features: np.ndarray) -> None:
    """Count card rows (``right`` marks the right ones): found cards, false cards, (confidence, right) pairs,
    and each row's calibration ``features``."""
    tally.cards_read = len(cards)
    tally.cards_correct = int(right.sum())
    found: set[int] = set()
    for row in np.argsort(-cards.confidence, kind="stable"):
        card = int(cards.class_id[row])
        finds = bool(right[row]) and card not in found
        if finds:
            found.add(card)
        if not right[row]:
            tally.false_cards.append(cards[int(row)].to_list()[0])
        tally.cards_scored.append((float(cards.confidence[row]), bool(right[row]), finds))
        tally.card_features.append(features[row])
    tally.cards_found = len(found)


def score_card_photo(
    read: Detections, boxes: np.ndarray, class_ids: np.ndarray, calibration=None, pixel_scale: float = 1.0
) -> Tally:
    """Compare classified corners ``read`` with the whole-card ``boxes``/``class_ids`` of one photo.

    A card row (``cards_from_corners``) is right when one of its corners' centres lies in the box of a
    labelled card of that name, grown by ``CARD_BOX_GROW``; a labelled card is found by its first right row.
    """
    tally = Tally(photos=1, cards_true=len(set(class_ids.tolist())))
    if not len(read):
        return tally
    found = cards_from_corners(read, calibration=calibration, pixel_scale=pixel_scale)
    grow = (boxes[:, 2:] - boxes[:, :2]) * CARD_BOX_GROW
    low, high = boxes[:, :2] - grow, boxes[:, 2:] + grow
    centers = read.centers
    right = np.zeros(len(found.cards), dtype=bool)
    for row, members in enumerate(found.members):
        same = class_ids == found.cards.class_id[row]
        inside = (centers[members, None] >= low[None, same]) & (centers[members, None] <= high[None, same])
        right[row] = bool(inside.all(axis=2).any())
    tally_cards(tally, found.cards, right, found.features)
    return tally


def evaluate_photos(
    detector,
    photos: list,
    min_confidence: float = 0.0,
    corner_filter: Callable[[Detections], Detections] | None = None,
    calibrated: bool = True,
) -> tuple[Tally, list[dict]]:
    """Run ``detector`` (a ``CardDetector``) on labelled photos; totals and one row per photo.

    Photos labelled by whole card (``kind == "card"``) are scored by ``score_card_photo``, others by
    ``score_photo``. ``corner_filter`` (e.g. ``vision.card_faces.drop_face_patterns``) runs on the
    classified corners first, as ``read_photo`` runs it. Card confidences are calibrated as the
    detector's manifest says (``calibrated=False``: the raw ones).
    """
    from vision.photo_io import load_photo

    calibration = getattr(getattr(detector, "manifest", None), "calibration", None) if calibrated else None
    total, rows = Tally(), []
    for photo in photos:
        loaded = load_photo(photo.path)
        start = time.perf_counter()
        read = detector.detect(loaded)
        if corner_filter is not None:
            read = corner_filter(read)
        elapsed = (time.perf_counter() - start) * 1000
        read = read.filter(read.confidence >= min_confidence)
        scale = loaded.scale[0]
        if getattr(photo, "kind", "corner") == "card":
            tally = score_card_photo(read, photo.boxes, photo.class_ids, calibration=calibration, pixel_scale=scale)
        else:
            quads = getattr(photo, "corner_quads", None)
            tally = score_photo(
                read, photo.boxes, photo.class_ids, calibration=calibration, corner_quads=quads, pixel_scale=scale
            )
        tally.milliseconds.append(elapsed)
        for false_card in tally.false_cards:
            false_card["photo"] = photo.path.name
        total.add(tally)
        summary = tally.summary()
        del summary["card_curve"]
        rows.append({"photo": photo.path.name, **summary})
    return total, rows


def synthetic_photos(dataset: Path, split: str = "val", limit: int = 200) -> list:
    """Labelled photos from a ``cribcam synth`` dataset split, in the shape of ``real_photos.LabelledPhoto``, each
    with its scene's corner quads (empty where the scene's cards file is missing). The photo's size comes from its
    scene's record; only a photo without one is decoded for it."""
    import cv2

    from vision.training.classifier_data import corner_quads_of, read_scene, read_yolo_labels
    from vision.training.real_photos import LabelledPhoto

    out = []
    for path in sorted((Path(dataset) / "images" / split).glob("*.jpg"))[:limit]:
        scene = read_scene(Path(dataset) / "cards" / split / f"{path.stem}.json")
        w, h = scene["size"] if "size" in scene else cv2.imread(str(path)).shape[1::-1]
        boxes, ids = read_yolo_labels(Path(dataset) / "labels" / split / f"{path.stem}.txt", w, h)
        out.append(LabelledPhoto(path, boxes, ids, corner_quads=corner_quads_of(scene)))
    return out


PICTURE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp")


def photos_without_cards(folder: Path, limit: int | None = None) -> list:
    """Every picture in ``folder`` (and below), as a labelled photo with no cards: each card read is false."""
    from vision.training.real_photos import LabelledPhoto

    paths = sorted(p for p in Path(folder).rglob("*") if p.suffix.lower() in PICTURE_SUFFIXES)[:limit]
    return [LabelledPhoto(p, np.zeros((0, 4), np.float32), np.zeros(0, np.int64)) for p in paths]


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


def plot_precision_recall(tally: Tally, out: Path, title: str, cards: bool = False) -> Path:
    """Corner (or, with ``cards``, card) precision against recall as the confidence threshold falls, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if cards:
        scored = sorted(tally.cards_scored, key=lambda s: -s[0])
        right = np.array([r for _, r, _ in scored], dtype=np.float64)
        finds = np.array([f for _, _, f in scored], dtype=np.float64)
        total = tally.cards_true
    else:
        scored = sorted(tally.scored, key=lambda s: -s[0])
        right = finds = np.array([c for _, c in scored], dtype=np.float64)
        total = tally.corners_true
    precision = np.cumsum(right) / np.arange(1, len(right) + 1)
    recall = np.cumsum(finds) / max(total, 1)
    level = "card" if cards else "corner"
    fig, ax = plt.subplots(figsize=(5, 4))
    ax.plot(recall, precision)
    ax.set_xlabel(f"{level} recall")
    ax.set_ylabel(f"{level} precision")
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
