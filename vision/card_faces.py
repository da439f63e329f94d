"""Corners out of line with the photo's other corners: patterns on a card's face or no card at all.

Every corner index in one photo is printed the same size, so the indices found in a photo come out
about the same size (perspective aside). The false corners seen on real photos of an unseen deck
(``shared/real_photos/edje``) were mostly of two kinds, both read with low probability:
- the centre pips of a pip card read together as a low card (the 2 x 2 block of a ten's pips read
  as a four of its suit): boxes about twice the size of the photo's real indices (``oversized``);
- print that is not a card (a calendar cell, a label, a page of a book): boxes about
  half the size, read as a card no other corner of the photo confirms (``undersized``).
Both are dropped before corners become cards; a corner read sure enough is kept whatever its size.
The four settings were chosen on the edje ``train_*`` photos, bidly deals 1-3 and synthetic held-out
decks (flat ranges: ``OVERSIZE`` 1.4-1.8, ``UNDERSIZE`` 0.6-0.7; the conservative end where it mattered).

>>> corners = Detections([[0, 0, 10, 20], [50, 0, 60, 20], [90, 0, 100, 20], [20, 40, 60, 80]],
...                      [0.95, 0.9, 0.9, 0.4], [0, 1, 2, 3])
>>> [str(c) for c in drop_face_patterns(corners).cards]
['AS', '2S', '3S']
"""

from __future__ import annotations

import numpy as np

from vision.detections import Detections

OVERSIZE = 1.6
"""A corner whose long side is this many times the median of the photo's other corners is out of line."""
SURE = 0.9
"""Corners the classifier reads with at least this probability are kept whatever their size."""
UNDERSIZE = 0.6
"""A lone corner under this many times the median of the photo's other corners is out of line."""
UNSURE = 0.5
"""Lone corners that small are dropped when read under this probability."""


def median_of_others(values: np.ndarray) -> np.ndarray:
    """For each value, the median of all the other values (needs two values or more).

    >>> median_of_others(np.array([1.0, 2.0, 10.0])).tolist()
    [6.0, 5.5, 1.5]
    """
    n = len(values)
    order = np.argsort(values, kind="stable")
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n)
    ordered = values[order]

    def kth_of_others(k: int) -> np.ndarray:  # the k-th smallest once each value itself is left out
        return ordered[np.where(k < rank, k, k + 1)]

    return (kth_of_others((n - 2) // 2) + kth_of_others((n - 1) // 2)) / 2


def oversized(corners: Detections, ratio: float = OVERSIZE, sure: float = SURE) -> np.ndarray:
    """Boolean mask of corners ``ratio`` times larger than the median of the others and read under ``sure``."""
    if len(corners) < 2:
        return np.zeros(len(corners), dtype=bool)
    sides = corners.long_sides
    return (corners.confidence < sure) & (sides > ratio * median_of_others(sides))


def undersized(corners: Detections, ratio: float = UNDERSIZE, unsure: float = UNSURE) -> np.ndarray:
    """Boolean mask of lone corners under ``ratio`` times the median of the others and read under ``unsure``.

    A lone corner is one whose card no other corner in the photo reads.
    """
    if len(corners) < 2:
        return np.zeros(len(corners), dtype=bool)
    sides = corners.long_sides
    cards, counts = np.unique(corners.class_id, return_counts=True)
    lone = np.isin(corners.class_id, cards[counts == 1])
    return lone & (corners.confidence < unsure) & (sides < ratio * median_of_others(sides))


def drop_face_patterns(corners: Detections) -> Detections:
    """The corners left once those out of line with the photo's other corners are dropped."""
    return corners.filter(~oversized(corners) & ~undersized(corners))
