"""The boxes a shipped detector finds in training scenes, kept for the classifier to learn from.

Random boxes and decoys teach the classifier what a corner is not, but the false cards in use come from the boxes a
real detector proposes: the pip block of a ten, a word of print, half a court card. ``mine`` runs a models folder's
detector over a ``cribcam synth`` split as the app runs it (tiles, closer look, its threshold) and writes each
image's boxes to ``<dataset>/mined/<split>/<detector digest>/<stem>.json``. ``classifier_data`` then cuts, beside
the usual samples, "not a corner" patches at the mined boxes that overlap no labelled corner, and patches at the
mined boxes that sit on a labelled corner (the detector's own placing of the box), labelled as that corner.

Several detectors may mine one split, each into a folder of its own (``mined/<split>/<detector digest>/``); training
reads the union of their boxes per image, so a classifier learns the false finds of every detector it may sit behind.

    cribcam mine --data data/synth6263 --models models --workers 2
    cribcam mine --data data/synth6263 --models runs/other/models --workers 2   # its boxes added beside
"""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

MINED = "mined"
"""A dataset's folder of mined boxes, beside images/ and labels/."""
MINED_BY = "detector.txt"
"""In each detector's folder (at the split, for one mined before detectors had folders): the detector's digest."""


def mined_split(label_path: Path) -> Path:
    """The mined folder of the split that holds ``labels/<split>/<stem>.txt``."""
    return label_path.parent.parent.parent / MINED / label_path.parent.name


def mined_folders(split_dir: Path) -> list[Path]:
    """The folders of a mined split that hold records: each detector's, and the split itself when it was mined
    before detectors had folders of their own. Listed once per split, not once per image."""
    if not split_dir.is_dir():
        return []
    own = sorted(signed.parent for signed in split_dir.glob(f"*/{MINED_BY}"))
    return [split_dir, *own] if (split_dir / MINED_BY).is_file() else own


def mined_paths(label_path: Path, folders: list[Path] | None = None) -> list[Path]:
    """Each detector's record of the boxes mined from the image of ``labels/<split>/<stem>.txt`` (those that exist),
    in ``folders`` (default: ``mined_folders`` of its split)."""
    name = f"{label_path.stem}.json"
    folders = mined_folders(mined_split(label_path)) if folders is None else folders
    return [p for p in (folder / name for folder in folders) if p.is_file()]


def read_mined(label_path: Path, folders: list[Path] | None = None) -> np.ndarray:
    """The union of every detector's mined boxes (N, 4) xyxy in image pixels; none when the image was not mined."""
    paths = mined_paths(label_path, folders)
    boxes = [np.asarray(json.loads(p.read_text())["boxes"], np.float32).reshape(-1, 4) for p in paths]
    return np.concatenate(boxes) if boxes else np.zeros((0, 4), np.float32)


def mined_detectors(dataset: Path, split: str = "train") -> list[str]:
    """The digests of the detectors that mined ``dataset``'s split (none when it was never mined)."""
    return sorted({(folder / MINED_BY).read_text().strip() for folder in mined_folders(dataset / MINED / split)})


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


def move_legacy_records(root: Path) -> None:
    """Move a split mined before detectors had folders of their own into its detector's folder."""
    if not (root / MINED_BY).is_file():
        return
    own = root / (root / MINED_BY).read_text().strip()
    own.mkdir(exist_ok=True)
    for record in root.glob("*.json"):
        record.replace(own / record.name)
    (root / MINED_BY).replace(own / MINED_BY)


def mine(dataset: Path, models: Path, split: str = "train", workers: int = 2, limit: int | None = None) -> dict:
    """Mine every image of ``dataset/images/<split>`` that ``models``' detector has not mined yet (a stopped run
    resumes) into that detector's own folder; counts of the work. An unreadable image is counted and left without a
    record, as training leaves it out. Another detector's boxes (weights or settings differ) are kept beside."""
    from vision.training.judge import boxes_key

    images = sorted((dataset / "images" / split).glob("*.jpg"))[:limit]
    move_legacy_records(dataset / MINED / split)
    key = boxes_key(models)
    out_dir = dataset / MINED / split / key
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / MINED_BY).write_text(key)
    jobs = [(str(p), str(out_dir / f"{p.stem}.json")) for p in images if not (out_dir / f"{p.stem}.json").is_file()]
    found: list[int] = []
    if jobs:
        with ProcessPoolExecutor(max(1, workers), initializer=_init, initargs=(str(models),)) as pool:
            found = list(pool.map(_mine_one, jobs, chunksize=8))
    unreadable = sum(n < 0 for n in found)
    return {
        "detector": key,
        "images": len(images),
        "mined_now": len(jobs) - unreadable,
        "boxes_now": sum(n for n in found if n > 0),
        "unreadable": unreadable,
    }
