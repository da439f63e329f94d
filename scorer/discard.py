"""The discard advisor: every way to throw to the crib, with exact expected points.

For a dealt hand of six cards (two players, throw two) or five cards (three or
four players, throw one), each option gets:

* the hand: the four kept cards counted with every unseen card as the starter,
  each equally likely (mean, min, max and the distribution);
* the crib: its exact expected count under crib rules (a flush needs all five
  cards; nobs counts), averaged uniformly over everything the other crib cards
  and the starter can be;
* the net: hand plus crib when the crib is yours, hand minus crib when it is not
  (with four players in partnerships, your partner's crib counts as yours; with
  three, "theirs" treats the dealer's crib as points against you).

What "the other crib cards" are, exactly:

* Six-card hands (two players): the opponent's two crib cards are any pair of
  the 46 unseen cards and the starter any of the 44 left, all 1,035 x 44
  combinations equally likely (opponents are not modelled as throwing well).
* Five-card hands (three or four players): the crib holds your one card and
  three others -- with three players one card from each other player plus one
  from the deck, with four players one card from each other player. Either
  way the three other crib cards are taken to be a uniformly random set of
  three unseen cards, and the starter any one of the 44 left: all
  C(47, 3) x 44 = 713,460 combinations equally likely.

"Unseen" is the 52 cards less your hand and any ``exposed`` cards (cards you
know are elsewhere, e.g. flashed by a careless dealer).

No published average-crib table is used to weight the opponent's throw: none
was found whose figures and method could be cited and checked here, so the
enumeration above is uniform.

How it is fast: the crib's fifteens, pairs and runs depend only on ranks, so
its expectation is one dot product between the rank table (with the thrown
ranks fixed) and the number of ordered draws of unseen cards having each rank
tuple; flush and nobs have closed-form counts. The hands are scored in one
``score_many`` call.

>>> advice = advise("5H 5C JD QS 2C 3D", my_crib=True)
>>> [str(c) for c in advice.best.discard], round(float(advice.best.net), 2)
(['2C', '3D'], 19.56)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb, perm

import numpy as np

from scorer.cards import DECK, Card, CardLike, check_distinct, parse_cards
from scorer.hand import score_hand
from scorer.tables import rank_table, score_many

JACK = 10  # rank index of the jack in class indices (``suit * 13 + rank - 1``)


@dataclass(frozen=True, slots=True)
class HandExpectation:
    """The kept four cards' count over every possible starter."""

    mean: Fraction
    min: int
    max: int
    distribution: dict[int, int]  # score -> number of starters giving it

    @property
    def starters(self) -> int:
        return sum(self.distribution.values())

    def to_dict(self) -> dict:
        return {
            "mean": round(float(self.mean), 6),
            "mean_exact": str(self.mean),
            "min": self.min,
            "max": self.max,
            "distribution": {str(score): n for score, n in sorted(self.distribution.items())},
        }


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One way to split the deal: what you keep, what you throw, and what it is worth on average."""

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    hand: HandExpectation
    crib_mean: Fraction
    my_crib: bool

    @property
    def net(self) -> Fraction:
        """Expected hand plus crib (your crib) or hand minus crib (theirs)."""
        return self.hand.mean + self.crib_mean if self.my_crib else self.hand.mean - self.crib_mean

    def to_dict(self) -> dict:
        return {
            "keep": [str(c) for c in self.keep],
            "discard": [str(c) for c in self.discard],
            "hand": self.hand.to_dict(),
            "crib": {"mean": round(float(self.crib_mean), 6), "mean_exact": str(self.crib_mean)},
            "net": round(float(self.net), 6),
            "net_exact": str(self.net),
        }


@dataclass(frozen=True, slots=True)
class DiscardAdvice:
    """All options for a deal, best first (highest expected net)."""

    cards: tuple[Card, ...]
    my_crib: bool
    unseen: int
    options: tuple[DiscardOption, ...]

    @property
    def best(self) -> DiscardOption:
        return self.options[0]

    def option(self, discard: Iterable[CardLike] | str) -> DiscardOption:
        """The option that throws exactly these cards (any order)."""
        thrown = set(parse_cards(discard))
        for option in self.options:
            if set(option.discard) == thrown:
                return option
        names = " ".join(str(c) for c in thrown)
        need = len(self.cards) - 4
        raise ValueError(f"{names} is not a possible throw; pick {need} of the dealt cards.")

    def rank_of(self, discard: Iterable[CardLike] | str) -> int:
        """1 for the best throw, 2 for the next, ..."""
        return self.options.index(self.option(discard)) + 1

    def to_dict(self) -> dict:
        return {
            "cards": [str(c) for c in self.cards],
            "crib": "mine" if self.my_crib else "theirs",
            "unseen": self.unseen,
            "options": [o.to_dict() for o in self.options],
        }


def advise(cards: Iterable[CardLike] | str, my_crib: bool, exposed: Iterable[CardLike] | str = ()) -> DiscardAdvice:
    """Every discard from a five- or six-card deal with exact expectations, best first.

    >>> advise("5H 5C JD QS 2C 3D", my_crib=False).best.keep
    (Card('5H'), Card('5C'), Card('JD'), Card('QS'))
    """
    dealt, unseen = _deal_and_unseen(cards, exposed)
    throw = len(dealt) - 4
    drawn = 5 - throw  # other crib cards plus the starter, all from the unseen cards
    splits = [(_rest(disc, len(dealt)), disc) for disc in combinations(range(len(dealt)), throw)]
    dealt_idx = np.array([c.index for c in dealt])
    unseen_idx = np.array([c.index for c in unseen])
    keeps = np.array([[dealt_idx[i] for i in keep] for keep, _ in splits])
    discs = np.array([[dealt_idx[i] for i in disc] for _, disc in splits])

    n = len(unseen_idx)
    hand_scores = score_many(np.repeat(keeps, n, axis=0), np.tile(unseen_idx, len(splits))).reshape(len(splits), n)
    crib_points = _crib_points(discs, unseen_idx, drawn)
    crib_ways = perm(n, drawn)

    options = []
    for row, (keep, disc) in enumerate(splits):
        scores = hand_scores[row].astype(np.int64)
        counts = np.bincount(scores)
        hand = HandExpectation(
            mean=Fraction(int(scores.sum()), n),
            min=int(scores.min()),
            max=int(scores.max()),
            distribution={s: int(k) for s, k in enumerate(counts) if k},
        )
        options.append(
            DiscardOption(
                keep=tuple(dealt[i] for i in keep),
                discard=tuple(dealt[i] for i in disc),
                hand=hand,
                crib_mean=Fraction(int(crib_points[row]), crib_ways),
                my_crib=my_crib,
            )
        )
    return DiscardAdvice(tuple(dealt), my_crib, n, _ranked(options, dealt))


def advise_reference(
    cards: Iterable[CardLike] | str,
    my_crib: bool,
    exposed: Iterable[CardLike] | str = (),
    discards: Iterable[Iterable[CardLike] | str] | None = None,
) -> DiscardAdvice:
    """The same analysis done the plain way: ``score_hand`` on every combination, one at a time.

    The oracle for ``advise`` and the baseline in ``bench/``; roughly 20 s for a six-card deal.
    ``discards`` limits the work to those throws (the result then holds only them).
    """
    dealt, unseen = _deal_and_unseen(cards, exposed)
    throw = len(dealt) - 4
    wanted = None if discards is None else [set(parse_cards(d)) for d in discards]
    options = []
    for disc in combinations(dealt, throw):
        if wanted is not None and set(disc) not in wanted:
            continue
        keep = tuple(c for c in dealt if c not in disc)
        scores = [score_hand(keep, starter).total for starter in unseen]
        counts = dict(Counter(scores))
        hand = HandExpectation(Fraction(sum(scores), len(scores)), min(scores), max(scores), counts)
        crib_total = 0
        crib_count = 0
        for others in combinations(unseen, 4 - throw):
            for starter in unseen:
                if starter in others:
                    continue
                crib_total += score_hand(disc + others, starter, crib=True).total
                crib_count += 1
        options.append(
            DiscardOption(
                keep=keep,
                discard=disc,
                hand=hand,
                crib_mean=Fraction(crib_total, crib_count),
                my_crib=my_crib,
            )
        )
    return DiscardAdvice(tuple(dealt), my_crib, len(unseen), _ranked(options, dealt))


def _deal_and_unseen(
    cards: Iterable[CardLike] | str, exposed: Iterable[CardLike] | str
) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    dealt = tuple(parse_cards(cards))
    if len(dealt) not in (5, 6):
        raise ValueError(
            f"The advisor needs the dealt hand: six cards (two players) or five (three or four); got {len(dealt)}."
        )
    known = parse_cards(exposed)
    check_distinct([*dealt, *known])
    gone = set(dealt) | set(known)
    unseen = tuple(c for c in DECK if c not in gone)
    if len(unseen) < 5 - (len(dealt) - 4):
        raise ValueError("Too many exposed cards: the crib and starter need more unseen cards.")
    return dealt, unseen


def _rest(chosen: Sequence[int], size: int) -> tuple[int, ...]:
    return tuple(i for i in range(size) if i not in chosen)


def _ranked(options: list[DiscardOption], dealt: Sequence[Card]) -> tuple[DiscardOption, ...]:
    order = {card: i for i, card in enumerate(dealt)}
    return tuple(sorted(options, key=lambda o: (-o.net, -o.hand.mean, [order[c] for c in o.discard])))


@cache
def _rank_table_5d() -> np.ndarray:
    return rank_table().reshape((13,) * 5)


@cache
def _rank_grid(drawn: int) -> np.ndarray:
    return np.indices((13,) * drawn).reshape(drawn, -1)


def _ordered_draws_by_rank(rank_counts: np.ndarray, drawn: int) -> np.ndarray:
    """Number of ordered draws of ``drawn`` distinct unseen cards with each rank tuple (flattened)."""
    grid = _rank_grid(drawn)
    ways = np.ones(grid.shape[1], dtype=np.int64)
    for i in range(drawn):
        repeats = sum((grid[j] == grid[i]).astype(np.int64) for j in range(i))
        ways *= np.maximum(rank_counts[grid[i]] - repeats, 0)
    return ways


def _crib_points(discs: np.ndarray, unseen: np.ndarray, drawn: int) -> np.ndarray:
    """Total crib points, per throw, summed over every ordered draw of the other cards + starter.

    The starter is the last card drawn; dividing by ``perm(len(unseen), drawn)`` gives the mean.
    """
    n = len(unseen)
    rank_counts = np.bincount(unseen % 13, minlength=13).astype(np.int64)
    suit_counts = np.bincount(unseen // 13, minlength=4).astype(np.int64)
    ways = _ordered_draws_by_rank(rank_counts, drawn)
    thrown_ranks = tuple((discs % 13).T)
    table = _rank_table_5d()[thrown_ranks].reshape(len(discs), -1).astype(np.int64)
    points = table @ ways

    suits = discs // 13
    one_suit = (suits == suits[:, :1]).all(axis=1)
    points += 5 * np.where(one_suit, [perm(int(suit_counts[s]), drawn) for s in suits[:, 0]], 0)

    unseen_set = set(unseen.tolist())
    for suit in range(4):
        jack = suit * 13 + JACK
        in_throw = (discs == jack).any(axis=1)
        starter_suits = int(suit_counts[suit])
        points += in_throw * starter_suits * perm(n - 1, drawn - 1)
        if jack in unseen_set:
            # starter a card of the jack's suit, the jack among the other crib cards
            points += ~in_throw * (starter_suits - 1) * (drawn - 1) * perm(n - 2, drawn - 2)
    return points


def crib_throw_count(dealt: int, unseen: int) -> int:
    """How many (other crib cards, starter) combinations each throw is averaged over.

    >>> crib_throw_count(6, 46), crib_throw_count(5, 47)
    (45540, 713460)
    """
    others = 4 - (dealt - 4)
    return comb(unseen, others) * (unseen - others)
