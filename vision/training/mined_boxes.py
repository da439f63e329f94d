"""The boxes a shipped detector finds in training scenes, kept for the classifier to learn from.

Random boxes and decoys teach the classifier what a corner is not, but the false cards in use come from the boxes a
real detector proposes: the pip block of a ten, a word of print, half a court card. ``mine`` runs a models folder's
detector over a ``cribcam synth`` split as the app runs it (tiles, closer look, its threshold) and writes each
image's boxes to ``<dataset>/mined/<split>/<stem>.json``. ``classifier_data`` then cuts, beside the usual samples,
"not a corner" patches at the mined boxes that overlap no labelled corner, and patches at the mined boxes that sit
on a labelled corner (the detector's own placing of the box), labelled as that corner.

    cribcam mine --data data/synth6263 --models models --workers 2
"""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

MINED = "mined"
"""A dataset's folder of mined boxes, beside images/ and labels/."""
MINED_BY = "detector.txt"
"""In a mined split's folder: the digest of the detector (weights and settings) that found its boxes."""


def mined_path(label_path: Path) -> Path:
    """Where the boxes mined from the image of ``labels/<split>/<stem>.txt`` are kept."""
    return label_path.parent.parent.parent / MINED / label_path.parent.name / f"{label_path.stem}.json"


def read_mined(path: Path) -> np.ndarray:
    """The mined boxes (N, 4) xyxy in image pixels; none when the image was not mined."""
    if not path.is_file():
        return np.zeros((0, 4), np.float32)
    return np.asarray(json.loads(path.read_text())["boxes"], np.float32).reshape(-1, 4)


_DETECTOR = None


def _init(models: str) -> None:
    global _DETECTOR
    from vision.detector import CardDetector

    _DETECTOR = CardDetector(models)


def _mine_one(job: tuple[str, str]) -> int:
    """The boxes found in one image, written to its record; -1 (and no record) for an unreadable image."""
    from vision.photo_io import PhotoError, load_photo

    image, out = job
    try:
        photo = load_photo(image)
    except PhotoError:
        return -1
    corners = _DETECTOR.find_corners(photo.rgb).scaled(*photo.scale)
    record = {
        "boxes": np.round(corners.xyxy, 1).tolist(),
        "confidence": np.round(corners.confidence, 3).tolist(),
    }
    part = Path(f"{out}.part")  # written whole, then renamed: a run stopped midway leaves no half record
    part.write_text(json.dumps(record))
    part.replace(out)
    return len(corners)


def mine(dataset: Path, models: Path, split: str = "train", workers: int = 2, limit: int | None = None) -> dict:
    """Mine every image of ``dataset/images/<split>`` not mined yet (a stopped run resumes); counts of the work.
    An unreadable image is counted and left without a record, as training leaves it out. A split mined by another
    detector (weights or settings, ``MINED_BY``) is refused rather than mixed."""
    from vision.training.judge import boxes_key

    images = sorted((dataset / "images" / split).glob("*.jpg"))[:limit]
    out_dir = dataset / MINED / split
    out_dir.mkdir(parents=True, exist_ok=True)
    key, mined_by = boxes_key(models), out_dir / MINED_BY
    if mined_by.is_file() and mined_by.read_text().strip() != key:
        raise ValueError(f"{out_dir} was mined by another detector; remove that folder to mine it with {models}.")
    mined_by.write_text(key)
    jobs = [(str(p), str(out_dir / f"{p.stem}.json")) for p in images if not (out_dir / f"{p.stem}.json").is_file()]
    found: list[int] = []
    if jobs:
        with ProcessPoolExecutor(max(1, workers), initializer=_init, initargs=(str(models),)) as pool:
            found = list(pool.map(_mine_one, jobs, chunksize=8))
    unreadable = sum(n < 0 for n in found)
    return {
        "images": len(images),
        "mined_now": len(jobs) - unreadable,
        "boxes_now": sum(n for n in found if n > 0),
        "unreadable": unreadable,
    }
