"""A card's confidence that means something: the chance it is right, calibrated on held-out photos.

The raw card confidence is its best corner's classifier probability. That is a poor guide by itself: a
card read the same from both its corners is far surer than one seen in one corner, a box the
detector was unsure of is more often not a corner at all, and a small index is misread more often than
a large one. ``Calibration`` maps such features to the probability that the card is right with a logistic
model, fitted (``fit``) on synthetic photos of held-out decks by ``cribcam calibrate`` and stored in the models
manifest. A manifest fitted before the corner size was a feature holds three weights: the size then has no say.

>>> cal = Calibration(weights=(1.0, 0.0, 0.0), bias=0.0)
>>> [round(float(p), 2) for p in cal.probability(card_features([0.5, 0.9], [1, 2], [0.5, 0.5], [30, 60]))]
[0.5, 0.9]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FEATURES = (
    "logit of the classifier's probability",
    "seen by two or more corners",
    "logit of the detector's score",
    "log2 of its largest corner's long side, in the pixels the classifier read",
)
LEAST_WEIGHTS = 3
"""A calibration may leave out the last features (weight 0): manifests fitted before stop 56 hold three weights."""
EPS = 1e-4


def _logit(p: np.ndarray) -> np.ndarray:
    p = np.clip(np.asarray(p, np.float64), EPS, 1 - EPS)
    return np.log(p / (1 - p))


def card_features(
    prob: np.ndarray, corners: np.ndarray, detector_score: np.ndarray, corner_px: np.ndarray
) -> np.ndarray:
    """(N, 4) ``FEATURES`` of N cards: their best corner's probability, how many corners read them, the
    detector's best score for them, and their largest corner's long side in the pixels the classifier read."""
    prob = np.asarray(prob, np.float64).reshape(-1)
    seen_twice = (np.asarray(corners).reshape(-1) >= 2).astype(np.float64)
    size = np.log2(np.maximum(np.asarray(corner_px, np.float64).reshape(-1), 1.0))
    return np.stack([_logit(prob), seen_twice, _logit(detector_score), size], axis=1)


@dataclass(frozen=True)
class Calibration:
    """P(card is right) = sigmoid(weights . features + bias); cards under ``check_below`` are flagged, cards under
    ``drop_below`` are not reported at all."""

    weights: tuple[float, ...]
    """One per ``FEATURES``, or the first ``LEAST_WEIGHTS`` of them (the rest weigh 0)."""
    bias: float
    check_below: float = 0.9
    drop_below: float = 0.0

    def __post_init__(self) -> None:
        if not LEAST_WEIGHTS <= len(self.weights) <= len(FEATURES):
            raise ValueError(f"a calibration needs {LEAST_WEIGHTS} to {len(FEATURES)} weights, not {len(self.weights)}")

    def probability(self, features: np.ndarray) -> np.ndarray:
        weights = np.zeros(len(FEATURES))
        weights[: len(self.weights)] = self.weights
        z = np.asarray(features, np.float64).reshape(-1, len(FEATURES)) @ weights + self.bias
        return 1 / (1 + np.exp(-z))

    def to_json(self) -> dict:
        return {
            "weights": [round(w, 6) for w in self.weights],
            "bias": round(self.bias, 6),
            "check_below": self.check_below,
            "drop_below": self.drop_below,
            "features": list(FEATURES[: len(self.weights)]),
        }

    @classmethod
    def from_json(cls, data: dict | None) -> Calibration | None:
        """The calibration a manifest holds, or None when it holds none."""
        if not data:
            return None
        weights = tuple(float(w) for w in data["weights"])  # their count is checked as the calibration is made
        check, drop = float(data.get("check_below", 0.9)), float(data.get("drop_below", 0.0))
        return cls(weights=weights, bias=float(data["bias"]), check_below=check, drop_below=drop)  # type: ignore[arg-type]


def fit(
    features: np.ndarray, right: np.ndarray, l2: float = 1e-3, steps: int = 50, used: int = len(FEATURES)
) -> Calibration:
    """Logistic regression of ``right`` on ``features`` (Newton's method, a little L2 on the weights), on their first
    ``used`` columns (``LEAST_WEIGHTS`` to all of ``FEATURES``; the rest weigh 0)."""
    if not LEAST_WEIGHTS <= used <= len(FEATURES):
        raise ValueError(f"A calibration uses {LEAST_WEIGHTS} to {len(FEATURES)} features, not {used}.")
    x = np.asarray(features, np.float64).reshape(-1, len(FEATURES))[:, :used]
    y = np.asarray(right, np.float64).reshape(-1)
    if len(y) < 10 or y.min() == y.max():
        raise ValueError("Calibrating needs at least 10 cards read, some right and some wrong.")
    design = np.hstack([x, np.ones((len(x), 1))])
    theta = np.zeros(design.shape[1])
    penalty = np.diag([l2] * x.shape[1] + [0.0]) * len(y)
    for _ in range(steps):
        p = 1 / (1 + np.exp(-(design @ theta)))
        grad = design.T @ (p - y) + penalty @ theta
        hess = (design * (p * (1 - p))[:, None]).T @ design + penalty + 1e-9 * np.eye(len(theta))
        step = np.linalg.solve(hess, grad)
        theta -= step
        if np.abs(step).max() < 1e-8:
            break
    return Calibration(weights=tuple(float(t) for t in theta[:-1]), bias=float(theta[-1]))  # type: ignore[arg-type]


def matched_floor(probability: np.ndarray, before: np.ndarray, floor_before: float) -> float:
    """The floor under ``probability`` that leaves out as many cards as ``floor_before`` left out under ``before``
    (the same cards' confidences under another calibration): a refit then drops the same share, its own choice of
    which. Halfway between the last card left out and the first kept, to four places where that splits them the
    same; 0.0 when none was left out, 1.0 when all were. Cards tied at the split are all left out.

    >>> matched_floor(np.array([0.25, 0.5, 0.75, 1.0]), np.array([0.1, 0.3, 0.5, 0.8]), 0.4)
    0.625
    """
    probability = np.sort(np.asarray(probability, np.float64).reshape(-1))
    left_out = int((np.asarray(before, np.float64).reshape(-1) < floor_before).sum())
    if left_out == 0:
        return 0.0
    if left_out >= len(probability):
        return 1.0
    low, high = float(probability[left_out - 1]), float(probability[left_out])
    floor = (low + high) / 2
    if low < round(floor, 4) <= high:
        floor = round(floor, 4)
    return floor if floor > low else float(np.nextafter(low, np.inf))


def expected_calibration_error(confidence: np.ndarray, right: np.ndarray, bins: int = 10) -> float | None:
    """Mean |confidence - share right| over equal-width confidence bins, weighted by the cards in each."""
    confidence = np.asarray(confidence, np.float64).reshape(-1)
    right = np.asarray(right, np.float64).reshape(-1)
    if not len(confidence):
        return None
    which = np.minimum((confidence * bins).astype(int), bins - 1)
    error = 0.0
    for b in range(bins):
        inside = which == b
        if inside.any():
            error += inside.sum() * abs(confidence[inside].mean() - right[inside].mean())
    return float(error / len(confidence))
