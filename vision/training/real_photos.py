"""The real labelled photos in ``shared/real_photos`` and the splits we keep.

``bidly``: 7 phone photos of four fanned 13-card hands, 377 corner-index boxes. Deals 1-3
may be used for fine-tuning; deals 4-7 are held out and never trained on.
``edje``: 147 phone and webcam photos of a Bicycle deck (9 to A), 352 whole-card boxes (``kind: "card"``),
split by file name: ``train_*`` may be used to choose settings, ``test_*`` only to report.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scorer.cards import Card

REAL_PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "real_photos"
DEFAULT_ROOT = REAL_PHOTOS / "bidly"
TRAIN_PHOTOS = ("deal1.jpg", "deal2.jpg", "deal3.jpg")
HELDOUT_PHOTOS = ("deal4.jpg", "deal5.jpg", "deal6.jpg", "deal7.jpg")


@dataclass(frozen=True)
class LabelledPhoto:
    """One real photo with its hand-checked boxes (xyxy pixels) and their card indices.

    ``kind`` says what the boxes hold: ``"corner"`` (corner indices) or ``"card"`` (whole cards).
    """

    path: Path
    boxes: np.ndarray  # (N, 4) float32
    class_ids: np.ndarray  # (N,) int64
    kind: str = "corner"
    corner_quads: dict[int, np.ndarray] | None = None
    """A synthetic scene's every corner index, covered or not: card index -> bounds of its corner quads (xyxy)."""

    @property
    def cards(self) -> set[Card]:
        return {Card.from_index(int(i)) for i in self.class_ids}


def find_root(root: str | Path | None = None) -> Path | None:
    """The bidly folder: ``root``, ``$CRIBCAM_REAL_PHOTOS``, or ``../shared`` beside the repo."""
    import os

    candidates = [
        root,
        os.environ.get("CRIBCAM_REAL_PHOTOS"),
        DEFAULT_ROOT,
        Path.cwd().parent / "shared/real_photos/bidly",
    ]
    for candidate in candidates:
        if candidate and (Path(candidate) / "labels.json").is_file():
            return Path(candidate)
    return None


def load_photos(root: str | Path | None = None, names: tuple[str, ...] | None = None) -> list[LabelledPhoto]:
    """The labelled photos (all, or those in ``names``); ``ValueError`` if the folder is missing."""
    folder = find_root(root)
    if folder is None:
        raise ValueError("The real photos (shared/real_photos/bidly) were not found; set CRIBCAM_REAL_PHOTOS.")
    labels = json.loads((folder / "labels.json").read_text())
    photos = []
    for name in sorted(labels):
        if names is not None and name not in names:
            continue
        entries = [e for e in labels[name] if e.get("kind", "corner") == "corner"]
        boxes = np.array([e["box"] for e in entries], dtype=np.float32).reshape(-1, 4)
        ids = np.array([Card.parse(e["card"]).index for e in entries], dtype=np.int64)
        photos.append(LabelledPhoto(folder / "images" / name, boxes, ids))
    return photos


EDJE_SPLITS = ("test", "train", "all")


def find_edje(root: str | Path | None = None) -> Path | None:
    """The edje folder: ``root``, ``$CRIBCAM_EDJE_PHOTOS``, or ``../shared/real_photos/edje`` beside the repo."""
    import os

    candidates = [
        root,
        os.environ.get("CRIBCAM_EDJE_PHOTOS"),
        REAL_PHOTOS / "edje",
        Path.cwd().parent / "shared/real_photos/edje",
    ]
    for candidate in candidates:
        if candidate and (Path(candidate) / "labels.json").is_file():
            return Path(candidate)
    return None


def load_card_photos(root: str | Path | None = None, split: str = "test") -> list[LabelledPhoto]:
    """The edje photos of one split (``test``, ``train`` or ``all``), with whole-card boxes (``kind="card"``)."""
    if split not in EDJE_SPLITS:
        raise ValueError(f"split must be one of {', '.join(EDJE_SPLITS)}, not {split!r}.")
    folder = find_edje(root)
    if folder is None:
        raise ValueError("The edje photos (shared/real_photos/edje) were not found; set CRIBCAM_EDJE_PHOTOS.")
    labels = json.loads((folder / "labels.json").read_text())
    photos = []
    for name in sorted(labels):
        if split != "all" and not name.startswith(f"{split}_"):
            continue
        entries = [e for e in labels[name] if e.get("kind") == "card"]
        boxes = np.array([e["box"] for e in entries], dtype=np.float32).reshape(-1, 4)
        ids = np.array([Card.parse(e["card"]).index for e in entries], dtype=np.int64)
        photos.append(LabelledPhoto(folder / "images" / name, boxes, ids, kind="card"))
    return photos
