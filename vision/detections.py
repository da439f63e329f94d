"""``Detections``: the boxes every vision stage takes and returns (numpy arrays, one row per box).

>>> d = Detections(xyxy=[[10, 10, 30, 50], [12, 11, 31, 52]], confidence=[0.9, 0.8], class_id=[18, 18])
>>> len(d.nms(0.5)), [str(c) for c in d.cards]
(1, ['6H', '6H'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from scorer.cards import Card

UNCLASSIFIED = -1
"""``class_id`` of a corner box the classifier has not read yet."""


def _as_array(values: object, dtype: type, shape: tuple[int, ...]) -> np.ndarray:
    array = np.asarray(values, dtype=dtype)
    return array.reshape(shape) if array.size == 0 else array


@dataclass(frozen=True, eq=False)
class Detections:
    """Corner-index or card boxes in pixels.

    ``xyxy`` (N x 4 float32), ``confidence`` (N, the classifier's probability of the card, or the
    detector's score before classification), ``class_id`` (N, card index ``suit * 13 + rank - 1``,
    -1 when not read yet), ``corner_confidence`` (N, the detector's score; defaults to ``confidence``) and
    ``runner_up`` (N, the card the classifier found next likeliest, -1 for none or not read yet).
    """

    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray = field(default=None)  # type: ignore[assignment]
    corner_confidence: np.ndarray = field(default=None)  # type: ignore[assignment]
    runner_up: np.ndarray = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        xyxy = _as_array(self.xyxy, np.float32, (0, 4))
        n = len(xyxy)
        confidence = _as_array(self.confidence, np.float32, (0,))
        class_id = (
            np.full(n, UNCLASSIFIED, np.int64) if self.class_id is None else _as_array(self.class_id, np.int64, (0,))
        )
        corner = confidence.copy() if self.corner_confidence is None else self.corner_confidence
        corner = _as_array(corner, np.float32, (0,))
        runner_up = (
            np.full(n, UNCLASSIFIED, np.int64) if self.runner_up is None else _as_array(self.runner_up, np.int64, (0,))
        )
        if xyxy.ndim != 2 or xyxy.shape[1] != 4:
            raise ValueError(f"xyxy must be N x 4, not {xyxy.shape}.")
        for name, array in (
            ("confidence", confidence),
            ("class_id", class_id),
            ("corner_confidence", corner),
            ("runner_up", runner_up),
        ):
            if array.shape != (n,):
                raise ValueError(f"{name} must have one value per box ({n}), not shape {array.shape}.")
        object.__setattr__(self, "xyxy", xyxy)
        object.__setattr__(self, "confidence", confidence)
        object.__setattr__(self, "class_id", class_id)
        object.__setattr__(self, "corner_confidence", corner)
        object.__setattr__(self, "runner_up", runner_up)

    @classmethod
    def empty(cls) -> Detections:
        return cls(np.zeros((0, 4), np.float32), np.zeros(0, np.float32))

    @classmethod
    def concat(cls, parts: Iterable[Detections]) -> Detections:
        """All rows of ``parts``, in order."""
        parts = list(parts)
        if not parts:
            return cls.empty()
        return cls(
            np.concatenate([p.xyxy for p in parts]),
            np.concatenate([p.confidence for p in parts]),
            np.concatenate([p.class_id for p in parts]),
            np.concatenate([p.corner_confidence for p in parts]),
            np.concatenate([p.runner_up for p in parts]),
        )

    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, index: int | slice | Sequence[int] | np.ndarray) -> Detections:
        """Rows by position, slice, index array or boolean mask (always a ``Detections``)."""
        if isinstance(index, int | np.integer):
            index = [int(index)]
        return Detections(
            self.xyxy[index],
            self.confidence[index],
            self.class_id[index],
            self.corner_confidence[index],
            self.runner_up[index],
        )

    @property
    def cards(self) -> list[Card]:
        """The card of each row (every row must be classified)."""
        return [Card.from_index(int(i)) for i in self.class_id]

    @property
    def centers(self) -> np.ndarray:
        """N x 2 box centres."""
        return (self.xyxy[:, :2] + self.xyxy[:, 2:]) / 2

    @property
    def long_sides(self) -> np.ndarray:
        """The longer side of each box."""
        return long_sides(self.xyxy)

    def filter(self, mask: np.ndarray) -> Detections:
        """Rows where the boolean ``mask`` is true."""
        return self[np.asarray(mask, dtype=bool)]

    def scaled(self, sx: float, sy: float, dx: float = 0.0, dy: float = 0.0) -> Detections:
        """Boxes mapped by ``x * sx + dx``, ``y * sy + dy`` (tile or working image to photo)."""
        factor = np.array([sx, sy, sx, sy], np.float32)
        shift = np.array([dx, dy, dx, dy], np.float32)
        return Detections(
            self.xyxy * factor + shift, self.confidence, self.class_id, self.corner_confidence, self.runner_up
        )

    def nms(self, iou: float = 0.5, by_class: bool = False) -> Detections:
        """Greedy non-maximum suppression on ``corner_confidence``, best first."""
        keep = nms_indices(self.xyxy, self.corner_confidence, iou, self.class_id if by_class else None)
        return self[keep]

    def to_list(self) -> list[dict]:
        """Rows as plain dicts (``card`` is null for unclassified rows)."""
        return [
            {
                "card": None if self.class_id[i] == UNCLASSIFIED else str(Card.from_index(int(self.class_id[i]))),
                "confidence": round(float(self.confidence[i]), 4),
                "corner_confidence": round(float(self.corner_confidence[i]), 4),
                "box": [round(float(v), 1) for v in self.xyxy[i]],
            }
            for i in range(len(self))
        ]


def long_sides(xyxy: np.ndarray) -> np.ndarray:
    """The longer side of each N x 4 (xyxy) box."""
    return np.maximum(xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1])


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU matrix (len(a) x len(b)) of xyxy boxes."""
    a = np.asarray(a, np.float32).reshape(-1, 4)
    b = np.asarray(b, np.float32).reshape(-1, 4)
    top_left = np.maximum(a[:, None, :2], b[None, :, :2])
    bottom_right = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(bottom_right - top_left, 0, None), axis=2)
    area_a = np.prod(a[:, 2:] - a[:, :2], axis=1)
    area_b = np.prod(b[:, 2:] - b[:, :2], axis=1)
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-9)


def nms_indices(xyxy: np.ndarray, scores: np.ndarray, iou: float, groups: np.ndarray | None = None) -> np.ndarray:
    """Indices kept by greedy NMS, highest score first; boxes in different ``groups`` never suppress."""
    overlaps = box_iou(xyxy, xyxy)
    if groups is not None:
        overlaps = np.where(groups[:, None] == groups[None, :], overlaps, 0.0)
    return _greedy_keep(overlaps, scores, iou)


def _greedy_keep(overlaps: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Greedy NMS on a precomputed IoU matrix: each box, surest first, kept unless a kept one overlaps it."""
    order = np.argsort(-np.asarray(scores), kind="stable")
    suppressed = np.zeros(len(order), dtype=bool)
    keep = []
    for i in order:
        if suppressed[i]:
            continue
        keep.append(i)
        suppressed |= overlaps[i] > iou
    return np.asarray(keep, dtype=np.int64)


def nms_fused(xyxy: np.ndarray, scores: np.ndarray, iou: float) -> tuple[np.ndarray, np.ndarray]:
    """Greedy NMS whose kept boxes take the score-weighted mean place of themselves and the boxes they suppressed
    (looks of one corner from several tiles agree on it better than the surest look alone): the kept indices
    and their fused boxes (K x 4)."""
    xyxy = np.asarray(xyxy, np.float32).reshape(-1, 4)
    scores = np.asarray(scores, np.float64)
    overlaps = box_iou(xyxy, xyxy)
    keep = _greedy_keep(overlaps, scores, iou)
    if len(keep) == 0:
        return keep, np.zeros((0, 4), np.float32)
    # a box dropped was suppressed by the first kept box (surest first) that overlaps it
    slot = np.argmax(overlaps[keep] > iou, axis=0)
    slot[keep] = np.arange(len(keep))
    weights = np.where(np.isfinite(scores) & (scores > 0), scores, 0.0)  # no weight: the kept box stays put
    weight = np.zeros(len(keep))
    total = np.zeros((len(keep), 4))
    np.add.at(weight, slot, weights)
    np.add.at(total, slot, xyxy * weights[:, None])
    fused = np.where(weight[:, None] > 0, total / np.where(weight > 0, weight, 1.0)[:, None], xyxy[keep])
    return keep, fused.astype(np.float32)
