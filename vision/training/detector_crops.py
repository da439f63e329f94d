"""Scale-keeping crops for training the corner detector cheaply.

Training the detector at ``imgsz`` below the photo's size shrinks every corner index: a detector
trained at 384 on 640-pixel photos learns corners 0.6x as big as the ones it meets when it reads a
photo at 640. Square crops of ``size`` pixels cut from photos at their reading scale (long side =
the detector's input) keep the corners their real size while each training image costs
``(size / 640) ** 2`` of a whole one; the detector is fully convolutional, so it reads whole photos.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import cv2
import numpy as np

MIN_KEPT = 0.6
"""A corner cut by the crop edge stays labelled when this much of its area is inside."""


def crop_windows(
    width: int,
    height: int,
    boxes: np.ndarray,
    size: int,
    count: int,
    rng: np.random.Generator,
    decoys: np.ndarray | None = None,
) -> list[tuple[int, int]]:
    """Top-left corners of ``count`` crops, each centred near a random labelled box (anywhere if none);
    given ``decoys`` (print that is not a card), half the crops centre near one of them instead."""
    out = []
    for _ in range(count):
        aims = boxes
        if decoys is not None and len(decoys) and (not len(boxes) or rng.random() < 0.5):
            aims = decoys
        if len(aims):
            x1, y1, x2, y2 = aims[rng.integers(len(aims))]
            cx = (x1 + x2) / 2 + rng.uniform(-0.4, 0.4) * size
            cy = (y1 + y2) / 2 + rng.uniform(-0.4, 0.4) * size
        else:
            cx, cy = rng.uniform(0, width), rng.uniform(0, height)
        left = int(np.clip(round(cx - size / 2), 0, max(width - size, 0)))
        top = int(np.clip(round(cy - size / 2), 0, max(height - size, 0)))
        out.append((left, top))
    return out


def boxes_in_crop(boxes: np.ndarray, left: int, top: int, size: int) -> np.ndarray:
    """The boxes (xyxy) clipped to a crop, in crop pixels; boxes mostly outside it are dropped."""
    shifted = boxes - np.array([left, top, left, top], np.float32)
    clipped = np.clip(shifted, 0, size)
    area = np.prod(np.maximum(shifted[:, 2:] - shifted[:, :2], 1e-6), axis=1)
    kept = np.prod(np.maximum(clipped[:, 2:] - clipped[:, :2], 0), axis=1)
    return clipped[kept / area >= MIN_KEPT]


def at_reading_scale(image: np.ndarray, boxes: np.ndarray, input_side: int) -> tuple[np.ndarray, np.ndarray]:
    """The image shrunk (never enlarged) so its long side is the detector's input, boxes to match."""
    scale = min(1.0, input_side / max(image.shape[:2]))
    if scale == 1.0:
        return image, boxes
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return small, boxes * scale


def crops_of(
    image: np.ndarray,
    boxes: np.ndarray,
    size: int,
    count: int,
    rng: np.random.Generator,
    input_side: int = 640,
    decoys: np.ndarray | None = None,
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``count`` (crop, boxes in crop) pairs from one photo at its reading scale."""
    scale = min(1.0, input_side / max(image.shape[:2]))
    image, boxes = at_reading_scale(image, np.asarray(boxes, np.float32).reshape(-1, 4), input_side)
    if decoys is not None:
        decoys = np.asarray(decoys, np.float32).reshape(-1, 4) * scale
    height, width = image.shape[:2]
    for left, top in crop_windows(width, height, boxes, size, count, rng, decoys):
        crop = image[top : top + size, left : left + size]
        yield crop, boxes_in_crop(boxes, left, top, size)


def write_yolo(out: Path, stem: str, crop: np.ndarray, boxes: np.ndarray) -> Path:
    """One crop as ``out/images/stem.jpg`` with a one-class label file beside it in ``out/labels`` (both exist)."""
    image_path = out / "images" / f"{stem}.jpg"
    cv2.imwrite(str(image_path), crop, [cv2.IMWRITE_JPEG_QUALITY, 92])
    h, w = crop.shape[:2]
    rows = [
        f"0 {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}"
        for x1, y1, x2, y2 in boxes
    ]
    (out / "labels" / f"{stem}.txt").write_text("\n".join(rows) + ("\n" if rows else ""))
    return image_path


def write_crops(
    sources: Iterable[tuple],
    out: Path,
    size: int,
    per_image: int,
    seed: int = 0,
    input_side: int = 640,
) -> int:
    """Crops of (name, BGR image, xyxy boxes[, decoy boxes]) sources into a YOLO folder ``out``; the number
    written."""
    rng = np.random.default_rng(seed)
    out = Path(out)
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    written = 0
    for name, image, boxes, *decoys in sources:
        found = crops_of(image, boxes, size, per_image, rng, input_side, decoys[0] if decoys else None)
        for k, (crop, kept) in enumerate(found):
            write_yolo(out, f"{name}_{k}", crop, kept)
            written += 1
    return written


def yolo_sources(
    dataset: Path, split: str, limit: int | None = None
) -> Iterator[tuple[str, np.ndarray, np.ndarray, np.ndarray]]:
    """(name, BGR image, xyxy boxes, decoy boxes) for each image of a ``cribcam synth`` split."""
    from vision.training.classifier_data import read_decoys, read_yolo_labels

    for path in sorted((Path(dataset) / "images" / split).glob("*.jpg"))[:limit]:
        image = cv2.imread(str(path))
        if image is None:
            continue
        boxes, _ = read_yolo_labels(Path(dataset) / "labels" / split / f"{path.stem}.txt", *image.shape[1::-1])
        yield path.stem, image, boxes, read_decoys(Path(dataset) / "cards" / split / f"{path.stem}.json")


def photo_sources(photos: list) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
    """(name, BGR image, xyxy boxes) for labelled real photos (``real_photos.LabelledPhoto``)."""
    for photo in photos:
        image = cv2.imread(str(photo.path))
        if image is not None:
            yield f"real_{photo.path.stem}", image, photo.boxes
