"""From classified corner indices to cards: a card usually shows two corners, a deck one of each card.

Corners read as the same card merge into one card when they are close enough to be the two
corners of one card (``SAME_CARD_REACH`` corner lengths). A card read in several places farther
apart is one place read right at most (a deck has one of each card): only the surest place is kept
and the card is reported as a ``Conflict``. Cards read with low confidence are listed to confirm.

>>> corners = Detections([[0, 0, 10, 20], [40, 60, 50, 80]], [0.9, 0.7], [5, 5])
>>> found = cards_from_corners(corners)
>>> [str(c) for c in found.cards.cards], found.conflicts
(['6S'], [])
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scorer.cards import Card
from vision.confidence import Calibration, card_features
from vision.detections import Detections

SAME_CARD_REACH = 7.0
"""Corners of one card lie within this many corner lengths (centre to centre); a card's diagonal is about 5."""
LOW_CONFIDENCE = 0.6
"""Cards read with a lower classifier probability are flagged for the user to confirm."""


@dataclass(frozen=True, eq=False)
class Conflict:
    """One card seen in several places too far apart to be one card: ``boxes`` has one row per place, the kept
    (surest) place first; ``instead`` has one entry per place left out: the card it most likely shows (the
    classifier's runner-up there), or None when there is none, that card is read elsewhere in the photo, or an
    earlier place (surer, or of an earlier card) names it already."""

    card: Card
    boxes: np.ndarray
    instead: tuple[Card | None, ...] = ()

    def message(self) -> str:
        kept, *others = (f"({(b[0] + b[2]) / 2:.0f}, {(b[1] + b[3]) / 2:.0f})" for b in self.boxes)
        sentence = (
            f"{self.card} is seen {len(self.boxes)} times far apart, at {kept} and {' and '.join(others)}; a deck "
            f"has one {self.card}, so only the surest, at {kept}, is kept: check the photo."
        )
        likely = [f"{place} is most likely {card}" for place, card in zip(others, self.instead, strict=False) if card]
        return sentence + (f" The card at {' and the card at '.join(likely)}." if likely else "")


@dataclass(frozen=True, eq=False)
class CardsFound:
    """One row per card in ``cards`` (box of its best corner); ``members[i]`` indexes its corners."""

    cards: Detections
    members: list[np.ndarray]
    conflicts: list[Conflict]
    to_confirm: list[int]
    features: np.ndarray
    """(cards, 4) what ``vision.confidence`` calibrates: best probability, corners, detector score, corner size."""


def corner_length(corners: Detections) -> float:
    """The typical corner size in a photo: the median of the boxes' longer sides (1 when empty)."""
    return float(np.median(corners.long_sides)) if len(corners) else 1.0


def card_centres(cards: Detections, corners: Detections | None = None, members: list | None = None) -> np.ndarray:
    """Where each card is: the mean of its corners' centres (with ``corners`` and ``members``), else its box's.

    A card seen at both corners then sits near its middle, whichever corner was read best.
    """
    if corners is None or members is None:
        return cards.centers
    return np.array([corners.centers[m].mean(axis=0) for m in members]).reshape(-1, 2)


def link_components(points: np.ndarray, reach: float) -> np.ndarray:
    """Single-linkage clusters: a label per point, points within ``reach`` share one (labels 0, 1, ...)."""
    n = len(points)
    labels = np.arange(n)
    if n < 2:
        return labels
    distances = np.linalg.norm(points[:, None, :] - points[None, :, :], axis=2)
    close = distances <= reach
    for i in range(n):
        for j in np.flatnonzero(close[i, i + 1 :]) + i + 1:
            old, new = max(labels[i], labels[j]), min(labels[i], labels[j])
            labels[labels == old] = new
    _, dense = np.unique(labels, return_inverse=True)
    return dense


def cards_from_corners(
    corners: Detections,
    reach: float = SAME_CARD_REACH,
    low_confidence: float = LOW_CONFIDENCE,
    calibration: Calibration | None = None,
    pixel_scale: float = 1.0,
) -> CardsFound:
    """Merge the corners of each card; report one card seen far apart in several places.

    With a ``calibration`` each card's confidence is the calibrated chance it is right, cards under its
    ``check_below`` (not ``low_confidence``) are the ones to confirm, and cards under its ``drop_below`` are left
    out (their corners belong to no card). ``pixel_scale``: the corners' pixels per pixel the classifier read (1 for
    corners in the working image, as the app has them; a photo's scale for corners mapped back to its own pixels).
    """
    distance = reach * corner_length(corners)
    rows: list[int] = []
    confidence: list[float] = []
    corner_conf: list[float] = []
    members: list[np.ndarray] = []
    for card_id in np.unique(corners.class_id):
        same = np.flatnonzero(corners.class_id == card_id)
        labels = link_components(corners.centers[same], distance)
        for label in range(labels.max() + 1):
            group = same[labels == label]
            rows.append(int(group[np.argmax(corners.confidence[group])]))
            confidence.append(float(corners.confidence[group].max()))
            corner_conf.append(float(corners.corner_confidence[group].max()))
            members.append(group)
    sides = corners.long_sides / pixel_scale
    features = card_features(confidence, [len(m) for m in members], corner_conf, [sides[m].max() for m in members])
    if calibration is not None:
        confidence = calibration.probability(features).tolist()
        low_confidence = calibration.check_below
    cards = Detections(corners.xyxy[rows], confidence, corners.class_id[rows], corner_conf, corners.runner_up[rows])
    if calibration is not None:
        kept = np.flatnonzero(cards.confidence >= calibration.drop_below)
        cards, members, features = cards[kept], [members[i] for i in kept], features[kept]
    conflicts, kept = _one_place_per_card(cards)
    cards, members, features = cards[kept], [members[i] for i in kept], features[kept]
    order = reading_order(cards)
    cards = cards[order]
    members = [members[i] for i in order]
    to_confirm = [int(i) for i in np.flatnonzero(cards.confidence < low_confidence)]
    return CardsFound(cards, members, conflicts, to_confirm, features[order])


def _one_place_per_card(cards: Detections) -> tuple[list[Conflict], np.ndarray]:
    """Each card read in more than one place (the box of each place's best corner, surest first), and the rows to
    keep: every card once, where it was read surest.

    A deck has one of each card, so all but one place are misread; on the synthetic held-out sets the surest
    place was the right one for nearly every such card (``models/README.md``, "Stop 32")."""
    keep = np.ones(len(cards), dtype=bool)
    conflicting = []
    for card_id in np.unique(cards.class_id):
        places = np.flatnonzero(cards.class_id == card_id)
        if len(places) > 1:
            places = places[np.argsort(-cards.confidence[places], kind="stable")]
            conflicting.append((int(card_id), places))
            keep[places[1:]] = False
    named = set(cards.class_id[keep].tolist())  # each card named once at most, and never one that is kept

    def instead(place: int) -> Card | None:
        other = int(cards.runner_up[place])
        if other < 0 or other in named:
            return None
        named.add(other)
        return Card.from_index(other)

    conflicts = [
        Conflict(Card.from_index(card_id), cards.xyxy[places], tuple(instead(p) for p in places[1:]))
        for card_id, places in conflicting
    ]
    return conflicts, np.flatnonzero(keep)


def reading_order(cards: Detections) -> np.ndarray:
    """Indices sorting cards left to right (then top to bottom), as a person reads a row or fan."""
    if len(cards) == 0:
        return np.zeros(0, dtype=np.int64)
    centers = cards.centers
    return np.lexsort((centers[:, 1], centers[:, 0]))
