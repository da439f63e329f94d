"""Counting a hand or crib in the show, itemised and spoken.

>>> score_hand("5H 5C 5S JD", "5D").total
29
>>> score_hand(["4H", "5C", "6S", "6D"], "KC").spoken()
'Fifteen two, fifteen four, fifteen six, and a double run of three is fourteen.'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from scorer.cards import Card, CardLike, check_distinct, to_card
from scorer.words import number_word

KIND_ORDER = ("fifteen", "pair", "run", "flush", "nobs")


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: ``kind`` (fifteen, pair, run, flush, nobs), its cards and points."""

    kind: str
    cards: tuple[Card, ...]
    points: int

    def describe(self) -> str:
        names = " ".join(str(c) for c in self.cards)
        label = {
            "run": f"run of {len(self.cards)}",
            "flush": f"{len(self.cards)}-card flush",
            "nobs": "his nobs",
        }.get(self.kind, self.kind)
        return f"{label}: {names} for {self.points}"

    def to_dict(self) -> dict:
        return {"kind": self.kind, "cards": [str(c) for c in self.cards], "points": self.points}


@dataclass(frozen=True, slots=True)
class HandScore:
    """The itemised count of a hand (or crib) with its starter."""

    hand: tuple[Card, ...]
    starter: Card | None
    crib: bool
    items: tuple[ScoreItem, ...]

    @property
    def total(self) -> int:
        return sum(item.points for item in self.items)

    def of_kind(self, kind: str) -> list[ScoreItem]:
        return [item for item in self.items if item.kind == kind]

    def spoken(self) -> str:
        """The count as players say it: ``"Fifteen two, fifteen four, and a pair is six."``"""
        phrases = spoken_phrases(self)
        if not phrases:
            return "Nineteen: no points (players say nineteen, a score no hand can make)."
        text = ", ".join(phrases[:1] + [p if p.startswith("fifteen") else f"and {p}" for p in phrases[1:]])
        return text[0].upper() + text[1:] + "."

    def to_dict(self) -> dict:
        return {
            "hand": [str(c) for c in self.hand],
            "starter": None if self.starter is None else str(self.starter),
            "crib": self.crib,
            "total": self.total,
            "items": [item.to_dict() for item in self.items],
            "spoken": self.spoken(),
        }


def score_hand(cards: Iterable[CardLike] | str, starter: CardLike | None = None, crib: bool = False) -> HandScore:
    """Count four cards plus the starter (or any five cards with ``starter=None``).

    Raises ``ValueError`` for a bad card, a repeated card or the wrong number of cards.
    """
    hand = tuple(to_card(c) for c in (cards.replace(",", " ").split() if isinstance(cards, str) else cards))
    turned = None if starter is None else to_card(starter)
    expected = 4 if turned is not None else 5
    if len(hand) != expected:
        what = "four cards and a starter" if turned is not None else "five cards (or four and a starter)"
        raise ValueError(f"A hand to count needs {what}; got {len(hand)} card(s) in hand.")
    everything = hand + ((turned,) if turned is not None else ())
    check_distinct(everything)
    items = (
        _fifteens(everything)
        + _pairs(everything)
        + _runs(everything)
        + _flush(hand, turned, crib)
        + _nobs(hand, turned)
    )
    return HandScore(hand, turned, crib, tuple(items))


def _fifteens(cards: Sequence[Card]) -> list[ScoreItem]:
    return [
        ScoreItem("fifteen", combo, 2)
        for size in range(2, len(cards) + 1)
        for combo in combinations(cards, size)
        if sum(c.value for c in combo) == 15
    ]


def _pairs(cards: Sequence[Card]) -> list[ScoreItem]:
    return [ScoreItem("pair", (a, b), 2) for a, b in combinations(cards, 2) if a.rank == b.rank]


def _runs(cards: Sequence[Card]) -> list[ScoreItem]:
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(cards):
        by_rank.setdefault(card.rank, []).append(card)
    for length in range(len(by_rank), 2, -1):
        found = []
        for low in range(1, 15 - length):
            ranks = range(low, low + length)
            if all(r in by_rank for r in ranks):
                found += [ScoreItem("run", combo, length) for combo in product(*(by_rank[r] for r in ranks))]
        if found:
            return found
    return []


def _flush(hand: Sequence[Card], starter: Card | None, crib: bool) -> list[ScoreItem]:
    if starter is None:
        return [ScoreItem("flush", tuple(hand), 5)] if len({c.suit for c in hand}) == 1 else []
    if len({c.suit for c in hand}) != 1:
        return []
    if starter.suit == hand[0].suit:
        return [ScoreItem("flush", (*hand, starter), 5)]
    return [] if crib else [ScoreItem("flush", tuple(hand), 4)]


def _nobs(hand: Sequence[Card], starter: Card | None) -> list[ScoreItem]:
    if starter is None:
        return []
    return [ScoreItem("nobs", (c,), 1) for c in hand if c.rank == 11 and c.suit == starter.suit]


_RUN_NAMES = {1: "a run of {n}", 2: "a double run of {n}", 3: "a triple run of {n}", 4: "a double double run"}
_SET_NAMES = {2: "a pair", 3: "three of a kind", 4: "four of a kind"}


@dataclass(frozen=True, slots=True)
class SpokenStep:
    """One step of the count as players say it: the items it covers, the phrase and the running total."""

    kind: str
    items: tuple[ScoreItem, ...]
    phrase: str
    total: int


def spoken_steps(score: HandScore) -> list[SpokenStep]:
    """The count step by step: fifteens one by one, pairs by rank, runs (a double run takes its pair), flush, nobs."""
    steps: list[SpokenStep] = []
    total = 0

    def say(kind: str, items: tuple[ScoreItem, ...], phrase: str) -> None:
        nonlocal total
        total += sum(item.points for item in items)
        steps.append(SpokenStep(kind, items, phrase.format(total=number_word(total)), total))

    for item in score.of_kind("fifteen"):
        say("fifteen", (item,), "fifteen {total}")
    runs = tuple(score.of_kind("run"))
    run_ranks = {c.rank for item in runs for c in item.cards} if len(runs) > 1 else set()
    pairs = score.of_kind("pair")
    folded: tuple[ScoreItem, ...] = ()
    for rank in sorted({p.cards[0].rank for p in pairs}):
        same = tuple(p for p in pairs if p.cards[0].rank == rank)
        if rank in run_ranks:
            folded += same  # the pair is said as part of the double or triple run
        else:
            say("pair", same, f"{_SET_NAMES[{1: 2, 3: 3, 6: 4}[len(same)]]} is {{total}}")
    if runs:
        name = _RUN_NAMES[len(runs)].format(n=number_word(len(runs[0].cards)))
        say("run", runs + folded, f"{name} is {{total}}")
    for item in score.of_kind("flush"):
        say("flush", (item,), f"a {number_word(item.points)}-card flush is {{total}}")
    for item in score.of_kind("nobs"):
        say("nobs", (item,), "nobs is {total}")
    return steps


def spoken_phrases(score: HandScore) -> list[str]:
    """Each step of the count in players' words, with the running total (``"fifteen four"``)."""
    return [step.phrase for step in spoken_steps(score)]
