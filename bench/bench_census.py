"""Census throughput: table census, batch API and single calls, against a straightforward numpy scorer.

    python bench/bench_census.py

All figures come from this one run; the ratio to the baseline is what to compare across machines.
"""

from __future__ import annotations

import time
from itertools import combinations

import numpy as np

from scorer import DECK, census, score_hand, score_many
from scorer.tables import rank_table


def straightforward_scores(cards: np.ndarray, crib: bool = False) -> np.ndarray:
    """Score (N,5) card indices (hand then starter) directly: subsets for fifteens, sorting for runs."""
    ranks = cards % 13 + 1
    suits = cards // 13
    values = np.minimum(ranks, 10)
    points = np.zeros(len(cards), dtype=np.int32)
    for size in range(2, 6):
        for combo in combinations(range(5), size):
            points += 2 * (values[:, combo].sum(axis=1) == 15)
    for a, b in combinations(range(5), 2):
        points += 2 * (ranks[:, a] == ranks[:, b])
    counts = np.stack([(ranks == r).sum(axis=1) for r in range(1, 14)], axis=1)
    runs = np.zeros(len(cards), dtype=np.int32)
    for length in (5, 4, 3):
        found = np.zeros(len(cards), dtype=np.int32)
        for low in range(0, 14 - length):
            window = counts[:, low : low + length]
            found += length * np.where((window > 0).all(axis=1), window.prod(axis=1), 0)
        runs = np.where(runs == 0, found, runs)
    flush4 = (suits[:, :4] == suits[:, :1]).all(axis=1)
    five = flush4 & (suits[:, 4] == suits[:, 0])
    points += runs + 5 * five + (0 if crib else 4 * (flush4 & ~five))
    points += ((ranks[:, :4] == 11) & (suits[:, :4] == suits[:, 4:5])).any(axis=1)
    return points


def timed(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - start


def main() -> None:
    rng = np.random.default_rng(0)
    sample = np.array([rng.choice(52, 5, replace=False) for _ in range(200_000)])
    baseline, t_base = timed(straightforward_scores, sample)
    base_rate = len(sample) / t_base

    rank_table.cache_clear()
    _, t_table = timed(rank_table)
    hand, t_hand = timed(census, "hand")
    crib, t_crib = timed(census, "crib")
    both = t_hand + t_crib

    fast, t_batch = timed(score_many, sample[:, :4], sample[:, 4])
    assert (fast == baseline).all(), "batch scorer disagrees with the baseline"
    single = [([DECK[i] for i in row[:4]], DECK[row[4]]) for row in sample[:5000]]
    _, t_single = timed(lambda: [score_hand(h, s) for h, s in single])

    rows = [
        ("straightforward numpy (baseline)", base_rate),
        ("census, hand rules (builds hand list)", hand.total / t_hand),
        ("census, crib rules", crib.total / t_crib),
        ("score_many batch API", len(sample) / t_batch),
        ("score_hand single calls", len(single) / t_single),
    ]
    print(f"table build {t_table:.2f} s; both censuses {both:.2f} s (target < 2 s)")
    print(f"{'what':<42} {'hands/s':>14} {'x baseline':>11}")
    for name, rate in rows:
        print(f"{name:<42} {rate:>14,.0f} {rate / base_rate:>11.1f}")
    print(f"baseline census estimate: {12_994_800 / base_rate:.1f} s per rule set")


if __name__ == "__main__":
    main()
