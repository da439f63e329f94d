"""Batch scoring from precomputed tables.

Fifteens, pairs and runs depend only on the five ranks, so one table over all
13**5 ordered rank tuples (371,293 small integers) answers them with a single
gather; flush and nobs are vectorised over suits. Cards are class indices
``suit * 13 + rank - 1`` (see ``Card.index``).

>>> import numpy as np
>>> int(score_many(np.array([[4, 17, 30, 10]]), np.array([43]))[0])  # 5S 5H 5D JS + 5C
29
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

import numpy as np

_POW = np.array([13**4, 13**3, 13**2, 13, 1], dtype=np.int64)


@cache
def rank_table() -> np.ndarray:
    """Points for fifteens, pairs and runs of every ordered five-rank tuple (ranks 0..12)."""
    ranks = np.indices((13,) * 5).reshape(5, -1).T.astype(np.int8)  # (371293, 5)
    values = np.minimum(ranks + 1, 10).astype(np.int16)
    points = np.zeros(len(ranks), dtype=np.int16)
    for size in range(2, 6):
        for combo in combinations(range(5), size):
            points += 2 * (values[:, combo].sum(axis=1) == 15)
    for a, b in combinations(range(5), 2):
        points += 2 * (ranks[:, a] == ranks[:, b])
    counts = np.zeros((len(ranks), 13), dtype=np.int16)
    for i in range(5):
        np.add.at(counts, (np.arange(len(ranks)), ranks[:, i]), 1)
    run_points = np.zeros(len(ranks), dtype=np.int16)
    for length in (5, 4, 3):
        found = np.zeros(len(ranks), dtype=np.int16)
        for low in range(0, 14 - length):
            window = counts[:, low : low + length]
            found += length * np.where((window > 0).all(axis=1), window.prod(axis=1), 0)
        run_points = np.where(run_points == 0, found, run_points)
    return (points + run_points).astype(np.int8)


def score_many(hands: np.ndarray, starters: np.ndarray, crib: bool = False) -> np.ndarray:
    """Scores of ``hands`` (N x 4 card indices) with ``starters`` (N card indices) as int8.

    ``crib=True`` applies crib rules (a flush needs all five cards). Inputs are not
    checked for repeated cards; ``score_hand`` is the checked, itemised path.
    """
    hands = np.asarray(hands)
    starters = np.asarray(starters)
    hand_ranks = hands % 13
    hand_suits = hands // 13
    starter_ranks = starters % 13
    starter_suits = starters // 13
    key = hand_ranks.astype(np.int64) @ _POW[:4] + starter_ranks
    points = rank_table()[key].astype(np.int16)
    same_suit = (hand_suits == hand_suits[:, :1]).all(axis=1)
    five = same_suit & (starter_suits == hand_suits[:, 0])
    points += 5 * five
    if not crib:
        points += 4 * (same_suit & ~five)
    nobs = (hands == (starter_suits * 13 + 10)[:, None]).any(axis=1)
    return (points + nobs).astype(np.int8)
