"""Learning to count and to throw: quizzes with feedback, and a teacher's walk through a count.

Everything here is plain data for a page to render; the counting itself is
``score_hand`` and the spoken count is ``spoken_steps``.

>>> quiz = deal_count_quiz(level=3, rng=7)
>>> feedback = quiz.check(quiz.answer)
>>> feedback.total_right
True
>>> explain_hand("4H 5C 6S 6D", "KC").steps[-1].said
'a double run of three is fourteen'
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, islice

from scorer.cards import DECK, RANK_WORDS, SUIT_WORDS, Card, CardLike, parse_cards, to_card
from scorer.discard import DiscardAdvice, DiscardOption, advise
from scorer.hand import KIND_ORDER, HandScore, ScoreItem, score_hand, spoken_steps
from scorer.words import number_word

# ---------------------------------------------------------------- words


def _plural(rank: int) -> str:
    word = RANK_WORDS[rank - 1]
    return word + ("es" if word == "six" else "s")


def _and_list(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _codes(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


def _card_words(cards: Iterable[Card]) -> str:
    return _and_list([f"the {c.words()}" for c in cards])


def item_words(item: ScoreItem) -> str:
    """One scoring item as a player would say it, with the cards in brackets.

    >>> item_words(score_hand("5H KS 2C 3D", "8C").items[0])
    'five and king make fifteen for two (5H KS)'
    """
    cards = item.cards
    if item.kind == "fifteen":
        said = f"{_and_list([RANK_WORDS[c.rank - 1] for c in cards])} make fifteen for two"
    elif item.kind == "pair":
        said = f"a pair of {_plural(cards[0].rank)} for two"
    elif item.kind == "run":
        ranks = "-".join(RANK_WORDS[c.rank - 1] for c in sorted(cards, key=lambda c: c.rank))
        said = f"a run of {number_word(len(cards))}, {ranks}, for {number_word(item.points)}"
    elif item.kind == "flush":
        said = f"a {number_word(len(cards))}-card flush in {SUIT_WORDS[cards[0].suit]} for {number_word(item.points)}"
    else:
        said = f"his nobs, the {cards[0].words()} matching the starter, for one"
    return f"{said} ({_codes(cards)})"


# ---------------------------------------------------------------- the teacher's walk through a count


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a count: what is said aloud, why, and the running total."""

    kind: str
    items: tuple[ScoreItem, ...]
    points: int
    total: int
    said: str
    why: str

    @property
    def cards(self) -> tuple[Card, ...]:
        seen: dict[Card, None] = {}
        for item in self.items:
            seen.update(dict.fromkeys(item.cards))
        return tuple(seen)


@dataclass(frozen=True, slots=True)
class Explanation:
    """A count walked through step by step (fifteens, pairs, runs, flush, nobs) with teaching notes."""

    score: HandScore
    steps: tuple[Step, ...]
    notes: tuple[str, ...]

    @property
    def total(self) -> int:
        return self.steps[-1].total if self.steps else 0

    def lines(self) -> list[str]:
        """Plain text: one line per step, then the notes."""
        out = [f"{s.said[0].upper()}{s.said[1:]}: {s.why}" for s in self.steps]
        return out + list(self.notes)

    def to_dict(self) -> dict:
        return {
            "hand": [str(c) for c in self.score.hand],
            "starter": None if self.score.starter is None else str(self.score.starter),
            "crib": self.score.crib,
            "total": self.total,
            "steps": [
                {
                    "kind": s.kind,
                    "cards": [str(c) for c in s.cards],
                    "points": s.points,
                    "total": s.total,
                    "said": s.said,
                    "why": s.why,
                }
                for s in self.steps
            ],
            "notes": list(self.notes),
        }


def explain_hand(cards: Iterable[CardLike] | str, starter: CardLike, crib: bool = False) -> Explanation:
    """Walk through the count of a hand (or crib) the way a teacher would.

    >>> [s.said for s in explain_hand("5H 5C JD QS", "2C").steps][:3]
    ['fifteen two', 'fifteen four', 'fifteen six']
    """
    return explain_score(score_hand(parse_cards(cards), starter, crib=crib))


def explain_score(score: HandScore, kinds: Sequence[str] = KIND_ORDER) -> Explanation:
    """The walk-through of a count already made, limited to ``kinds`` of item (all by default)."""
    score = limit_score(score, kinds)
    steps = [
        Step(
            step.kind,
            step.items,
            sum(i.points for i in step.items),
            step.total,
            step.phrase,
            _why(step.kind, step.items, sum(i.points for i in step.items)),
        )
        for step in spoken_steps(score)
    ]
    return Explanation(score, tuple(steps), _notes(score, kinds))


def limit_score(score: HandScore, kinds: Sequence[str]) -> HandScore:
    """The same count with only the items of ``kinds`` (fifteen, pair, run, flush, nobs)."""
    unknown = set(kinds) - set(KIND_ORDER)
    if unknown:
        raise ValueError(f"Unknown kind {sorted(unknown)[0]!r}; kinds are {', '.join(KIND_ORDER)}.")
    items = tuple(i for i in score.items if i.kind in kinds)
    return HandScore(score.hand, score.starter, score.crib, items)


def _why(kind: str, items: tuple[ScoreItem, ...], points: int) -> str:
    pts = f"{number_word(points)} point{'s' if points != 1 else ''}"
    if kind == "fifteen":
        cards = items[0].cards
        values = " + ".join(str(c.value) for c in cards)
        return f"{_and_list([c.words() for c in cards])}: {values} = 15, two points"
    if kind == "pair":
        n = len({c for p in items for c in p.cards})
        name = _plural(items[0].cards[0].rank)
        if n == 2:
            return f"two {name} make a pair: two points"
        return f"{number_word(n)} {name} make {number_word(len(items))} pairs: {pts}"
    if kind == "run":
        runs = [i for i in items if i.kind == "run"]
        pairs = [i for i in items if i.kind == "pair"]
        length = len(runs[0].cards)
        ranks = sorted({c.rank for r in runs for c in r.cards})
        seq = "-".join(RANK_WORDS[r - 1] for r in ranks)
        if len(runs) == 1:
            longest = " (count the longest run once, not the shorter runs inside it)" if length > 3 else ""
            return f"{seq} in sequence is a run of {number_word(length)}: {pts}{longest}"
        doubled = _and_list([f"two {_plural(p.cards[0].rank)}" for p in pairs])
        run_pts = number_word(sum(r.points for r in runs))
        pair_pts = number_word(2 * len(pairs))
        pair_word = "pair" if len(pairs) == 1 else "pairs"
        return (
            f"{seq} with {doubled}: {number_word(len(runs))} runs of {number_word(length)} ({run_pts}) "
            f"and the {pair_word} ({pair_pts}), {pts} in all"
        )
    if kind == "flush":
        cards = items[0].cards
        suit = SUIT_WORDS[cards[0].suit]
        if len(cards) == 5:
            return f"all four cards and the starter are {suit}: five points"
        return f"all four cards in hand are {suit}: four points (the starter is not)"
    jack = items[0].cards[0]
    return f"the {jack.words()} in hand is the starter's suit: one for his nobs"


def _notes(score: HandScore, kinds: Sequence[str]) -> tuple[str, ...]:
    notes = []
    hand, starter = score.hand, score.starter
    if starter is not None and "flush" in kinds:
        one_suit = len({c.suit for c in hand}) == 1
        if score.crib and one_suit and starter.suit != hand[0].suit:
            notes.append(
                f"The four crib cards are all {SUIT_WORDS[hand[0].suit]}, but a crib flush needs the "
                "starter to match too: no flush."
            )
    if starter is not None and "nobs" in kinds:
        if not score.of_kind("nobs"):
            for jack in (c for c in hand if c.rank == 11):
                notes.append(
                    f"The {jack.words()} would be his nobs if the starter were a "
                    f"{SUIT_WORDS[jack.suit][:-1]}; the starter is the {starter.words()}."
                )
        if starter.rank == 11:
            notes.append(
                "A jack turned as the starter is his heels: two for the dealer at the cut, not part of the show."
            )
    if not score.items and set(kinds) == set(KIND_ORDER):
        notes.append("No points. Players call a hand like this 'nineteen', a score no hand can make.")
    elif not score.items:
        notes.append(f"No {' or '.join(_KIND_PLURALS[k] for k in kinds)} here.")
    return tuple(notes)


# ---------------------------------------------------------------- the counting quiz


@dataclass(frozen=True, slots=True)
class Level:
    """A difficulty level: which kinds of item count, and whether the cards are a crib."""

    number: int
    name: str
    kinds: tuple[str, ...]
    crib: bool
    description: str


LEVELS: dict[int, Level] = {
    1: Level(1, "Fifteens", ("fifteen",), False, "Count only the fifteens: every group of cards adding to 15."),
    2: Level(2, "Pairs and runs", ("pair", "run"), False, "Count only pairs and runs, double runs included."),
    3: Level(3, "The whole hand", KIND_ORDER, False, "Count everything: fifteens, pairs, runs, flush, nobs."),
    4: Level(
        4,
        "Cribs and flushes",
        KIND_ORDER,
        True,
        "Count a crib: a flush needs all five cards. Expect many flushes.",
    ),
}

MAX_CLAIM_CARDS = 5  # four in hand and the starter
MAX_CLAIMS = 30  # twice the most items any hand scores (15, for 5 5 5 J with the fourth 5)
MAX_CLAIMS_TEXT = 2000  # characters in all the claims typed at once

_KIND_PLURALS = {"fifteen": "fifteens", "pair": "pairs", "run": "runs", "flush": "flushes", "nobs": "nobs"}
_KIND_ALIASES = {
    "15": "fifteen",
    "fifteen": "fifteen",
    "fifteens": "fifteen",
    "pair": "pair",
    "pairs": "pair",
    "run": "run",
    "flush": "flush",
    "nobs": "nobs",
    "nob": "nobs",
}


@dataclass(frozen=True, slots=True)
class Claim:
    """Something the learner says scores: a kind and its cards, e.g. ``Claim.parse("15 5H KS")``.

    A pair claim with three or four cards of one rank stands for all their pairs, and a run
    claim with a repeated rank (``run 3H 4D 5C 5S``) for every run in it.
    """

    kind: str
    cards: tuple[Card, ...]

    def __post_init__(self) -> None:
        if self.kind not in KIND_ORDER:
            raise ValueError(f"A claim's kind is one of {', '.join(KIND_ORDER)}, not {self.kind!r}.")
        if not 1 <= len(self.cards) <= MAX_CLAIM_CARDS:
            raise ValueError(f"A claim can have 1 to {MAX_CLAIM_CARDS} cards; this one has {len(self.cards)}.")

    @classmethod
    def parse(cls, text: str) -> Claim:
        """Read ``"fifteen 5H KS"``, ``"15: 5H KS"``, ``"pair 5H 5C"``, ``"run 3H 4D 5C"``, ``"nobs JH"``."""
        parts = text.split(None, 1)
        head = parts[0] if parts else ""
        rest = parts[1] if len(parts) > 1 else ""
        kind = _KIND_ALIASES.get(head.strip(":").lower())
        if kind is None:
            shown = head if len(head) <= 16 else head[:15] + "…"
            raise ValueError(f"'{shown}' is not something that scores; start with fifteen, pair, run, flush or nobs.")
        cards = tuple(parse_cards(rest, at_most=MAX_CLAIM_CARDS, what="A claim"))
        if not cards:
            raise ValueError(f"Name the cards of the {kind}, e.g. '{kind} 5H KS'.")
        return cls(kind, cards)

    @property
    def points(self) -> int:
        """What the claim would be worth if it were right."""
        return {"fifteen": 2, "pair": 2, "nobs": 1}.get(self.kind, len(self.cards))

    def atoms(self) -> list[Claim]:
        """The single scoring items this claim stands for."""
        ranks = [c.rank for c in self.cards]
        if self.kind == "pair" and len(self.cards) > 2 and len(set(ranks)) == 1:
            return [Claim("pair", pair) for pair in combinations(self.cards, 2)]
        if self.kind == "run" and len(set(ranks)) < len(ranks):
            by_rank: dict[int, list[Card]] = {}
            for card in sorted(self.cards, key=lambda c: c.rank):
                by_rank.setdefault(card.rank, []).append(card)
            runs = [()]
            for same in by_rank.values():
                runs = [(*run, card) for run in runs for card in same]
            return [Claim("run", run) for run in runs]
        return [self]

    def words(self) -> str:
        return f"{self.kind} {_codes(self.cards)}"


def parse_claims(text: str) -> list[Claim]:
    """The claims typed one a line (blank lines skipped); a bad line is named by its number.

    >>> [c.words() for c in parse_claims("15 5H KS\\n\\npair 5H 5C")]
    ['fifteen 5H KS', 'pair 5H 5C']
    """
    if len(text) > MAX_CLAIMS_TEXT:
        raise ValueError(f"The claims run to {len(text):,} characters; keep them under {MAX_CLAIMS_TEXT:,}.")
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) > MAX_CLAIMS:
        raise ValueError(f"List at most {MAX_CLAIMS} items, one a line; these are {len(lines)}.")
    claims = []
    for n, line in lines:
        try:
            claims.append(Claim.parse(line))
        except ValueError as error:
            raise ValueError(f"Line {n}: {error}") from None
    return claims


@dataclass(frozen=True, slots=True)
class NotThere:
    """A claim that does not score, with the reason in a sentence."""

    claim: Claim
    reason: str


@dataclass(frozen=True, slots=True)
class CountFeedback:
    """The answer to a claimed count: found, missed and not there, item by item."""

    claimed_total: int
    actual_total: int
    items_checked: bool
    found: tuple[ScoreItem, ...]
    missed: tuple[ScoreItem, ...]
    not_there: tuple[NotThere, ...]
    explanation: Explanation

    @property
    def total_right(self) -> bool:
        return self.claimed_total == self.actual_total

    @property
    def perfect(self) -> bool:
        """Right total, and (when items were claimed) every item found and nothing extra."""
        return self.total_right and not self.missed and not self.not_there

    def lines(self) -> list[str]:
        """The feedback as a teacher would give it, one sentence a line."""
        actual = number_word(self.actual_total)
        if self.total_right:
            out = [f"Right: {actual}."]
        else:
            out = [f"You said {number_word(self.claimed_total)}; the count is {actual}."]
        if self.items_checked:
            claimed_sum = sum(i.points for i in self.found) + sum(n.claim.points for n in self.not_there)
            if claimed_sum != self.claimed_total:
                out.append(
                    f"Your items add up to {number_word(claimed_sum)}, "
                    f"not the {number_word(self.claimed_total)} you said."
                )
            out += [f"You found {item_words(i)}." for i in self.found]
            out += [f"You missed {item_words(i)}." for i in self.missed]
            out += [f"Not there: {n.claim.words()}. {n.reason}" for n in self.not_there]
        if not self.perfect or not self.items_checked:
            out += self.explanation.lines()
        return out


@dataclass(frozen=True, slots=True)
class CountQuiz:
    """A hand (or crib) and starter to count at a level."""

    level: Level
    hand: tuple[Card, ...]
    starter: Card

    @property
    def score(self) -> HandScore:
        """The count limited to the level's kinds of item."""
        return limit_score(score_hand(self.hand, self.starter, crib=self.level.crib), self.level.kinds)

    @classmethod
    def of(cls, hand: Iterable[CardLike] | str, starter: CardLike, crib: bool = False) -> CountQuiz:
        """A quiz on cards the player holds: everything counts, with the crib's flush rule when ``crib``.

        >>> CountQuiz.of("5H 5C 5S JD", "5D").answer
        29
        """
        level = next(lv for lv in LEVELS.values() if lv.kinds == KIND_ORDER and lv.crib == crib)
        return cls(level, tuple(parse_cards(hand, at_most=4, what="A hand")), to_card(starter))

    @property
    def answer(self) -> int:
        return self.score.total

    def check(self, claimed_total: int, claimed_items: Iterable[Claim | str] | None = None) -> CountFeedback:
        """Compare the learner's count (and, if given, their items) with the real one."""
        score = self.score
        explanation = explain_score(score, self.level.kinds)
        if claimed_items is None:
            return CountFeedback(claimed_total, score.total, False, (), (), (), explanation)
        claims = [c if isinstance(c, Claim) else Claim.parse(c) for c in islice(claimed_items, MAX_CLAIMS + 1)]
        if len(claims) > MAX_CLAIMS:
            raise ValueError(f"List at most {MAX_CLAIMS} items; there are more.")
        actual = {(i.kind, frozenset(i.cards)): i for i in score.items}
        matched: set[tuple[str, frozenset[Card]]] = set()
        found, not_there = [], []
        for claim in claims:
            for atom in claim.atoms():
                key = (atom.kind, frozenset(atom.cards))
                if key in matched:
                    not_there.append(NotThere(atom, "You already counted that."))
                elif key in actual:
                    matched.add(key)
                    found.append(actual[key])
                else:
                    not_there.append(NotThere(atom, self._why_not(atom)))
        missed = tuple(i for key, i in actual.items() if key not in matched)
        return CountFeedback(claimed_total, score.total, True, tuple(found), missed, tuple(not_there), explanation)

    def _why_not(self, claim: Claim) -> str:
        cards, hand, starter = claim.cards, self.hand, self.starter
        if claim.kind not in self.level.kinds:
            counted = _and_list([_KIND_PLURALS[k] for k in self.level.kinds])
            return f"This level counts {counted} only."
        stray = [c for c in cards if c not in hand and c != starter]
        if stray:
            return f"{_codes(stray)} {'is' if len(stray) == 1 else 'are'} not in this hand or the starter."
        ranks = sorted(c.rank for c in cards)
        if claim.kind == "fifteen":
            total = sum(c.value for c in cards)
            values = " + ".join(str(c.value) for c in cards)
            return f"{values} = {total}, not 15."
        if claim.kind == "pair":
            if len(cards) != 2 or len(set(ranks)) != 1:
                return "A pair is two cards of the same rank."
        elif claim.kind == "run":
            if len(cards) < 3:
                return "A run needs at least three cards in sequence."
            if ranks != list(range(ranks[0], ranks[0] + len(ranks))):
                words = "-".join(RANK_WORDS[r - 1] for r in ranks)
                return f"{words} is not a sequence of ranks (kings are high, aces low, no wrapping)."
            return "It is part of a longer run; count only the longest run."
        elif claim.kind == "flush":
            return self._flush_reason(cards)
        elif claim.kind == "nobs":
            return self._nobs_reason(cards)
        return "That does not score."

    def _flush_reason(self, cards: tuple[Card, ...]) -> str:
        hand, starter = self.hand, self.starter
        if len({c.suit for c in cards}) != 1:
            return "A flush is cards all of one suit."
        if not set(hand) <= set(cards):
            return "A flush must be all four cards in hand (and the starter, for five)."
        suit = SUIT_WORDS[hand[0].suit]
        if len(cards) == 4 and starter.suit == hand[0].suit:
            return f"The starter is {suit} too: that is a five-card flush, for five."
        if len(cards) == 4 and self.level.crib:
            return "In the crib a flush needs all five cards, starter included."
        return "That does not score."

    def _nobs_reason(self, cards: tuple[Card, ...]) -> str:
        card = cards[0]
        if len(cards) != 1 or card.rank != 11:
            return "Nobs is one jack, the one of the starter's suit."
        if card == self.starter:
            return "A jack turned as the starter is his heels, two for the dealer at the cut, not nobs."
        return f"The {card.words()} is not the starter's suit ({SUIT_WORDS[self.starter.suit]})."


def deal_count_quiz(level: int = 3, rng: random.Random | int | None = None) -> CountQuiz:
    """Deal four cards and a starter for a counting quiz at ``level`` (1 to 4; see ``LEVELS``).

    Levels 1 and 2 deal until something of their kind scores; level 4 deals four cards of
    one suit half the time. ``rng`` is a ``random.Random`` or a seed.
    """
    if level not in LEVELS:
        raise ValueError(f"Level must be one of {', '.join(map(str, LEVELS))}, not {level!r}.")
    rng = rng if isinstance(rng, random.Random) else random.Random(rng)
    spec = LEVELS[level]
    while True:
        if spec.crib and rng.random() < 0.5:
            suit = rng.choice("SHDC")
            hand = rng.sample([c for c in DECK if c.suit == suit], 4)
            starter = rng.choice([c for c in DECK if c not in hand])
        else:
            *hand, starter = rng.sample(DECK, 5)
        quiz = CountQuiz(spec, tuple(hand), starter)
        if level > 2 or quiz.score.items:
            return quiz


# ---------------------------------------------------------------- the discard quiz


@dataclass(frozen=True, slots=True)
class DiscardFeedback:
    """How the learner's throw compares with the best, in expected points per hand."""

    chosen: DiscardOption
    best: DiscardOption
    rank: int
    options: int

    @property
    def loss(self) -> Fraction:
        """Expected points given up against the best throw (0 when the throw is as good as any)."""
        return self.best.net - self.chosen.net

    @property
    def is_best(self) -> bool:
        return self.loss == 0

    def lines(self) -> list[str]:
        whose = "your" if self.chosen.my_crib else "their"
        out = [
            f"You threw {_card_words(self.chosen.discard)}: your hand averages {float(self.chosen.hand.mean):.2f} "
            f"and {whose} crib {float(self.chosen.crib_mean):.2f}, net {float(self.chosen.net):.2f}."
        ]
        if self.is_best:
            out.append(f"That is the best throw of the {self.options}.")
        else:
            out.append(
                f"Best is to throw {_card_words(self.best.discard)}, keeping {_card_words(self.best.keep)}: net "
                f"{float(self.best.net):.2f}, so your throw gives up {float(self.loss):.2f} points a hand "
                f"on average. Yours ranks {self.rank} of {self.options}."
            )
        return out


@dataclass(frozen=True, slots=True)
class DiscardQuiz:
    """A dealt hand and whose crib it is: the learner picks what to throw."""

    cards: tuple[Card, ...]
    my_crib: bool

    @property
    def advice(self) -> DiscardAdvice:
        return advise(self.cards, self.my_crib)

    def check(self, throw: Iterable[CardLike] | str) -> DiscardFeedback:
        """Grade a throw (two cards from six, or one from five)."""
        advice = self.advice
        chosen = advice.option(throw)
        rank = 1 + sum(1 for o in advice.options if o.net > chosen.net)
        return DiscardFeedback(chosen, advice.best, rank, len(advice.options))


def deal_discard_quiz(players: int = 2, rng: random.Random | int | None = None) -> DiscardQuiz:
    """Deal six cards (two players) or five (three or four), the crib mine or theirs at random."""
    if players not in (2, 3, 4):
        raise ValueError(f"Cribbage is for two, three or four players, not {players}.")
    rng = rng if isinstance(rng, random.Random) else random.Random(rng)
    return DiscardQuiz(tuple(rng.sample(DECK, 6 if players == 2 else 5)), rng.random() < 0.5)
