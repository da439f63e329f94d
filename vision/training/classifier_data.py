"""Training crops for the corner classifier, cut from a YOLO dataset and the real fine-tuning photos.

Each sample is a ``PATCH``-pixel square around a corner box, a little wider than the crop the
classifier reads (``vision.crops``), so training can shift it by a few pixels the way a
detector's boxes wander. Negatives (``NOT_A_CORNER``) are boxes of the same size placed
beside and away from the labelled corners: pips, court-card art, card edges, the table. With ``mined`` boxes (a
real detector's finds, ``vision.training.mined_boxes``), those on no labelled corner are negatives too, and those
on one are its corner again, cut where the detector put the box.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from vision.crops import CROP_SCALE, CROP_SIZE, crop_boxes
from vision.detections import box_iou
from vision.training.classifier_net import NOT_A_CORNER
from vision.training.mined_boxes import MINED, mined_folders, read_mined

PATCH = CROP_SIZE + CROP_SIZE // 6
MAX_DECOYS = 8  # hard-negative patches cut from one image at most
MAX_MINED = 8  # patches cut at mined boxes from one image at most, of each kind (on no corner, on a corner)
MINED_MATCH = 0.5  # a mined box on a labelled corner (IoU at least this) is read as that corner
CLEAR = 0.05  # a box whose IoU with every labelled corner is under this touches none: a "not a corner" patch


def patch_scale(crop_scale: float = CROP_SCALE) -> float:
    """A patch's side over its box's longer side, for a classifier that reads crops at ``crop_scale``."""
    return crop_scale * PATCH / CROP_SIZE


def jitter_boxes(boxes: np.ndarray, rng: np.random.Generator, shift: float = 0.12, scale: float = 0.15) -> np.ndarray:
    """Boxes moved by up to ``shift`` of their size and rescaled by up to ``scale``, as a detector would."""
    boxes = np.asarray(boxes, dtype=np.float32).reshape(-1, 4)
    size = boxes[:, 2:] - boxes[:, :2]
    centre = (boxes[:, :2] + boxes[:, 2:]) / 2 + rng.uniform(-shift, shift, size.shape) * size
    size = size * rng.uniform(1 - scale, 1 + scale, size.shape)
    return np.concatenate([centre - size / 2, centre + size / 2], axis=1).astype(np.float32)


def negative_boxes(boxes: np.ndarray, shape: tuple[int, int], count: int, rng: np.random.Generator) -> np.ndarray:
    """``count`` corner-sized boxes overlapping no labelled box (IoU under ``CLEAR``), half of them near one."""
    boxes = np.asarray(boxes, dtype=np.float32).reshape(-1, 4)
    h, w = shape
    out = []
    for _ in range(count * 4):
        if len(out) >= count:
            break
        if len(boxes) and rng.random() < 0.6:
            ref = boxes[rng.integers(len(boxes))]
            size = ref[2:] - ref[:2]
            centre = (ref[:2] + ref[2:]) / 2 + rng.uniform(-2.5, 2.5, 2) * size.max()
        else:
            side = rng.uniform(0.02, 0.08) * min(h, w)
            size = np.array([side, side * rng.uniform(1.2, 2.2)], dtype=np.float32)[rng.permutation(2)]
            centre = rng.uniform([0, 0], [w, h])
        cand = np.concatenate([centre - size / 2, centre + size / 2]).astype(np.float32)
        if cand[0] < 0 or cand[1] < 0 or cand[2] > w or cand[3] > h:
            continue
        if len(boxes) and box_iou(cand[None], boxes).max() >= CLEAR:
            continue
        out.append(cand)
    return np.array(out, dtype=np.float32).reshape(-1, 4)


def samples_from_image(
    rgb: np.ndarray,
    boxes: np.ndarray,
    class_ids: np.ndarray,
    rng: np.random.Generator,
    copies: int = 1,
    negatives: float = 0.5,
    decoys: np.ndarray | None = None,
    crop_scale: float = CROP_SCALE,
    mined: np.ndarray | None = None,
    partly_seen: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Patches (N, PATCH, PATCH, 3) and labels for one image's labelled corner boxes, for a classifier that reads
    crops ``crop_scale`` times a box's longer side.

    ``decoys`` (boxes of print or card faces, from a hard-negative scene) add up to ``MAX_DECOYS``
    more "not a corner" patches, jittered like the corners, unless they overlap a labelled corner.
    ``mined`` (a detector's boxes in this image) add up to ``MAX_MINED`` "not a corner" patches at boxes on no
    labelled corner, and up to ``MAX_MINED`` patches at boxes on one, labelled as it (``mined_samples``; no
    negative on a ``partly_seen`` corner).
    """
    boxes = np.asarray(boxes, dtype=np.float32).reshape(-1, 4)
    class_ids = np.asarray(class_ids, dtype=np.int64)
    pos = np.concatenate([jitter_boxes(boxes, rng) for _ in range(copies)]) if len(boxes) else boxes
    pos_ids = np.tile(class_ids, copies)
    neg = negative_boxes(boxes, rgb.shape[:2], round(len(pos) * negatives) or 1, rng)
    if decoys is not None and len(decoys):
        decoys = np.asarray(decoys, np.float32).reshape(-1, 4)
        decoys = decoys[rng.permutation(len(decoys))[:MAX_DECOYS]]
        if len(boxes):
            decoys = decoys[box_iou(decoys, boxes).max(axis=1) < CLEAR]
        neg = np.concatenate([neg, jitter_boxes(decoys, rng)])
    if mined is not None and len(mined):
        on_corner, on_ids, off_corner = mined_samples(mined, boxes, class_ids, rng, partly_seen)
        pos, pos_ids = np.concatenate([pos, on_corner]), np.concatenate([pos_ids, on_ids])
        neg = np.concatenate([neg, off_corner])
    patches = crop_boxes(rgb, np.concatenate([pos, neg]), size=PATCH, scale=patch_scale(crop_scale))
    labels = np.concatenate([pos_ids, np.full(len(neg), NOT_A_CORNER, dtype=np.int64)])
    return patches, labels


def mined_samples(
    mined: np.ndarray,
    boxes: np.ndarray,
    class_ids: np.ndarray,
    rng: np.random.Generator,
    partly_seen: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """From the mined boxes in one image (every detector's that mined it): boxes on a labelled corner (IoU >=
    ``MINED_MATCH``) with its class, and boxes on none (IoU under ``CLEAR``), at most ``MAX_MINED`` of each, lightly
    jittered; boxes in between are left out (half a corner is neither), and so are boxes on a ``partly_seen`` corner
    (too covered to be labelled, but an index all the same)."""
    mined = np.asarray(mined, np.float32).reshape(-1, 4)
    if len(boxes):
        iou = box_iou(mined, boxes)
        best, nearest = iou.max(axis=1), iou.argmax(axis=1)
    else:
        best, nearest = np.zeros(len(mined), np.float32), np.zeros(len(mined), np.int64)
    off_corner = best < CLEAR
    if partly_seen is not None and len(partly_seen) and len(mined):
        off_corner &= box_iou(mined, np.asarray(partly_seen, np.float32).reshape(-1, 4)).max(axis=1) < CLEAR
    on = rng.permutation(np.flatnonzero(best >= MINED_MATCH))[:MAX_MINED]
    off = rng.permutation(np.flatnonzero(off_corner))[:MAX_MINED]
    light = {"shift": 0.04, "scale": 0.05}
    return (
        jitter_boxes(mined[on], rng, **light),
        class_ids[nearest[on]].astype(np.int64),
        jitter_boxes(mined[off], rng, **light),
    )


def read_yolo_labels(label_path: Path, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """Boxes (xyxy pixels) and class ids from one YOLO label file."""
    rows = np.loadtxt(label_path, ndmin=2) if label_path.exists() and label_path.stat().st_size else np.zeros((0, 5))
    cls = rows[:, 0].astype(np.int64)
    cx, cy, bw, bh = rows[:, 1] * width, rows[:, 2] * height, rows[:, 3] * width, rows[:, 4] * height
    return np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], axis=1).astype(np.float32), cls


def read_scene(cards_path: Path) -> dict:
    """A scene's cards file (``vision.training.synth``'s record of its cards and decoys); empty when missing."""
    return json.loads(cards_path.read_text()) if cards_path.exists() else {}


def decoys_of(scene: dict) -> np.ndarray:
    """The decoy boxes a hard-negative scene recorded (none when it has none)."""
    return np.asarray(scene.get("decoys", []), np.float32).reshape(-1, 4)


def corner_bounds_of(scene: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every corner index of a scene's cards, covered or not: its card's class, the bounds of its quad (xyxy) and
    the share of it in view."""
    cards = scene.get("cards", [])
    corners = [(card["class"], c["quad"], c["visible_fraction"]) for card in cards for c in card["corners"]]
    if not corners:
        return np.zeros(0, np.int64), np.zeros((0, 4), np.float32), np.zeros(0, np.float32)
    classes, quads, seen = zip(*corners, strict=True)
    points = np.asarray(quads, np.float32)
    bounds = np.concatenate([points.min(axis=1), points.max(axis=1)], axis=1)
    return np.asarray(classes, np.int64), bounds, np.asarray(seen, np.float32)


def corner_quads_of(scene: dict) -> dict[int, np.ndarray]:
    """Each card of a scene (by class) and the bounds of its corner quads, covered or not (boxes)."""
    classes, bounds, _ = corner_bounds_of(scene)
    return {int(card): bounds[classes == card] for card in dict.fromkeys(classes.tolist())}


def read_decoys(cards_path: Path) -> np.ndarray:
    """The decoy boxes a hard-negative scene recorded in its cards file (none when it has none)."""
    return decoys_of(read_scene(cards_path))


def partly_seen_of(scene: dict) -> np.ndarray:
    """Bounds of the corner indices a scene records as partly in view, labelled or not."""
    _, bounds, seen = corner_bounds_of(scene)
    return bounds[seen > 0]


def _one_yolo_image(job: tuple[str, str, int, float, list[Path] | None]) -> tuple[np.ndarray, np.ndarray]:
    image_path, label_path, seed, crop_scale, mined_in = job
    bgr = cv2.imread(image_path)
    if bgr is None:
        return np.zeros((0, PATCH, PATCH, 3), np.uint8), np.zeros(0, np.int64)
    rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
    boxes, ids = read_yolo_labels(Path(label_path), rgb.shape[1], rgb.shape[0])
    label = Path(label_path)
    scene = read_scene(label.parent.parent.parent / "cards" / label.parent.name / f"{label.stem}.json")  # read once
    mined, partly_seen = (read_mined(label, mined_in), partly_seen_of(scene)) if mined_in is not None else (None, None)
    rng = np.random.default_rng(seed)
    return samples_from_image(
        rgb, boxes, ids, rng, decoys=decoys_of(scene), crop_scale=crop_scale, mined=mined, partly_seen=partly_seen
    )


def samples_from_yolo(
    dataset: Path,
    split: str,
    limit: int | None = None,
    seed: int = 0,
    workers: int = 2,
    crop_scale: float = CROP_SCALE,
    mined: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Patches from every image of ``dataset/images/<split>`` with its YOLO labels (``samples_from_image``), and
    with ``mined`` the boxes ``vision.training.mined_boxes`` kept for it (an image not mined has none)."""
    images = sorted((Path(dataset) / "images" / split).glob("*.jpg"))[:limit]
    mined_in = mined_folders(Path(dataset) / MINED / split) if mined else None
    jobs = [
        (str(p), str(Path(dataset) / "labels" / split / f"{p.stem}.txt"), seed * 1_000_003 + i, crop_scale, mined_in)
        for i, p in enumerate(images)
    ]
    with ProcessPoolExecutor(max(1, workers)) as pool:
        parts = list(pool.map(_one_yolo_image, jobs, chunksize=16))
    return _concat(parts)


def samples_from_photos(
    photos: Iterable, copies: int, seed: int = 0, crop_scale: float = CROP_SCALE
) -> tuple[np.ndarray, np.ndarray]:
    """Patches from real labelled photos (``vision.training.real_photos.LabelledPhoto``), ``copies`` jitters each."""
    rng = np.random.default_rng(seed)
    parts = []
    for photo in photos:
        rgb = cv2.cvtColor(cv2.imread(str(photo.path)), cv2.COLOR_BGR2RGB)
        parts.append(samples_from_image(rgb, photo.boxes, photo.class_ids, rng, copies=copies, crop_scale=crop_scale))
    return _concat(parts)


def _concat(parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    if not parts:
        return np.zeros((0, PATCH, PATCH, 3), np.uint8), np.zeros(0, np.int64)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
