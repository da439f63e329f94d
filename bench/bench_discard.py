"""Seconds per six-card hand: the fast discard advisor against the straightforward one, in one run.

    python bench/bench_discard.py [--hands 200] [--reference-hands 2] [--seed 1]

The straightforward advisor (``advise_reference``: ``score_hand`` on each of the
683,100 crib and 690 hand combinations) takes about 20 s a hand, so it is timed on
one throw of each of a few hands and multiplied by 15 (every throw does the same
amount of work). Both are checked to agree on the throws timed.
"""

from __future__ import annotations

import argparse
import random
import time

from scorer.cards import DECK
from scorer.discard import advise, advise_reference
from scorer.tables import rank_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200, help="six-card hands for the fast advisor")
    parser.add_argument("--reference-hands", type=int, default=2, help="hands for the straightforward one")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    start = time.perf_counter()
    rank_table()
    advise(rng.sample(DECK, 6), my_crib=True)
    print(f"one-off setup (rank table, first call): {time.perf_counter() - start:.3f} s")

    deals = [(rng.sample(DECK, 6), rng.random() < 0.5) for _ in range(args.hands)]
    start = time.perf_counter()
    for cards, mine in deals:
        advise(cards, my_crib=mine)
    fast = (time.perf_counter() - start) / len(deals)
    print(f"fast advisor:            {fast:.5f} s per six-card hand ({len(deals)} hands, all 15 throws)")

    five = [rng.sample(DECK, 5) for _ in range(args.hands)]
    start = time.perf_counter()
    for cards in five:
        advise(cards, my_crib=True)
    print(f"fast advisor:            {(time.perf_counter() - start) / len(five):.5f} s per five-card hand")

    spent = 0.0
    for cards, mine in deals[: args.reference_hands]:
        throw = rng.sample(cards, 2)
        start = time.perf_counter()
        slow = advise_reference(cards, my_crib=mine, discards=[throw])
        spent += time.perf_counter() - start
        quick = advise(cards, my_crib=mine).option(throw)
        if (slow.best.hand, slow.best.crib_mean) != (quick.hand, quick.crib_mean):
            raise SystemExit(f"MISMATCH on {cards} throwing {throw}")
    reference = 15 * spent / args.reference_hands
    print(
        f"straightforward advisor: {reference:.2f} s per six-card hand "
        f"(timed on 1 of 15 throws of {args.reference_hands} hands, x15; results agree)"
    )
    print(f"speed-up: {reference / fast:,.0f}x")


if __name__ == "__main__":
    main()
