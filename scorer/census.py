"""The census: every four-card hand with every starter, 12,994,800 in all.

Published figures (hand rules) are the test oracle: mean 60759/12740.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations

import numpy as np

from scorer.tables import _POW, rank_table


@dataclass(frozen=True)
class Census:
    """Histogram of scores over all hand + starter combinations."""

    rules: str
    histogram: tuple[int, ...]  # index = score
    seconds: float

    @property
    def total(self) -> int:
        return sum(self.histogram)

    @property
    def points(self) -> int:
        return sum(score * n for score, n in enumerate(self.histogram))

    @property
    def mean(self) -> Fraction:
        return Fraction(self.points, self.total)

    def to_dict(self) -> dict:
        return {
            "rules": self.rules,
            "total": self.total,
            "mean": round(float(self.mean), 6),
            "histogram": {str(s): n for s, n in enumerate(self.histogram)},
            "seconds": round(self.seconds, 3),
        }


@cache
def _all_hands() -> np.ndarray:
    return np.array(list(combinations(range(52), 4)), dtype=np.int16)


def census(rules: str = "hand") -> Census:
    """Score every hand with every starter under ``rules`` (``"hand"`` or ``"crib"``)."""
    if rules not in ("hand", "crib"):
        raise ValueError(f"Rules must be 'hand' or 'crib', not {rules!r}.")
    start = time.perf_counter()
    hands = _all_hands()
    ranks, suits = hands % 13, hands // 13
    starter = np.arange(52)
    key = (ranks.astype(np.int64) @ _POW[:4])[:, None] + (starter % 13)[None, :]
    points = rank_table()[key]  # (270725, 52) int8
    hand_suit = suits[:, 0]
    flush4 = (suits == suits[:, :1]).all(axis=1)
    starter_matches = hand_suit[:, None] == (starter // 13)[None, :]
    points += (5 * (flush4[:, None] & starter_matches)).astype(np.int8)
    if rules == "hand":
        points += (4 * (flush4[:, None] & ~starter_matches)).astype(np.int8)
    jacks = np.zeros((len(hands), 4), dtype=bool)
    for col in range(4):
        is_jack = ranks[:, col] == 10
        jacks[np.flatnonzero(is_jack), suits[is_jack, col]] = True
    points += jacks[:, starter // 13].astype(np.int8)
    in_hand = np.zeros((len(hands), 52), dtype=bool)
    rows = np.arange(len(hands))
    for col in range(4):
        in_hand[rows, hands[:, col]] = True
    counts = np.bincount(points[~in_hand].astype(np.int64), minlength=30)
    return Census(rules, tuple(int(n) for n in counts), time.perf_counter() - start)
