"""Playing cards in cribcam's notation: ``AS 10H QD 5C``.

>>> parse_cards("5h, 10d Td qs")
Traceback (most recent call last):
...
ValueError: 10D appears twice; a deck has one of each card.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from scorer.words import number_word

RANK_NAMES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_SYMBOLS: dict[str, str] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_WORDS: tuple[str, ...] = ("ace", *(number_word(n) for n in range(2, 11)), "jack", "queen", "king")
SUIT_WORDS: dict[str, str] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}

_RANK_ALIASES = {name: i + 1 for i, name in enumerate(RANK_NAMES)} | {"T": 10, "1": 1}
_SUIT_ALIASES = (
    {s: s for s in SUITS}
    | {sym: s for s, sym in SUIT_SYMBOLS.items()}
    | {
        "♤": "S",
        "♡": "H",
        "♢": "D",
        "♧": "C",
    }
)
_TOKEN = re.compile(r"[^\s,;]+")
MAX_CARDS = 52  # no list of distinct cards is longer than the deck
_SHOWN = 16  # characters of a bad token repeated back in a message


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card: ``rank`` 1 (ace) to 13 (king) and ``suit`` one of ``S H D C``.

    >>> Card.parse("10h"), Card.parse("T♦").value, str(Card(12, "S"))
    (Card('10H'), 10, 'QS')
    """

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, int) and 1 <= self.rank <= 13):
            raise ValueError(f"Card rank must be 1 to 13, not {self.rank!r}.")
        if self.suit not in SUITS:
            raise ValueError(f"Card suit must be one of S H D C, not {self.suit!r}.")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card as people type it: ``5h``, ``10D``, ``Td``, ``T♦``, ``5♥``, ``qs``."""
        token = text.strip()
        cleaned = token.upper()
        if len(cleaned) >= 2:
            rank = _RANK_ALIASES.get(cleaned[:-1])
            suit = _SUIT_ALIASES.get(cleaned[-1])
            if rank is not None and suit is not None:
                return cls(rank, suit)
        shown = token if len(token) <= _SHOWN else token[: _SHOWN - 1] + "…"
        raise ValueError(f"'{shown}' is not a card; write rank then suit, like 5H, 10D, QS or A♣.")

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with this class index (``suit * 13 + rank - 1``, so 0 is AS and 51 is KC)."""
        if not 0 <= index < 52:
            raise ValueError(f"Card index must be 0 to 51, not {index}.")
        return cls(index % 13 + 1, SUITS[index // 13])

    @property
    def index(self) -> int:
        """Position in the fixed 52-card order ``AS 2S ... KS AH ... KC``."""
        return SUITS.index(self.suit) * 13 + self.rank - 1

    @property
    def value(self) -> int:
        """Counting value: ace 1, two to ten face value, jack, queen and king 10."""
        return min(self.rank, 10)

    @property
    def rank_name(self) -> str:
        return RANK_NAMES[self.rank - 1]

    def pretty(self) -> str:
        """Unicode form, e.g. ``5♥``."""
        return f"{self.rank_name}{SUIT_SYMBOLS[self.suit]}"

    def words(self) -> str:
        """Spoken form, e.g. ``five of hearts``."""
        return f"{RANK_WORDS[self.rank - 1]} of {SUIT_WORDS[self.suit]}"

    def __str__(self) -> str:
        return f"{self.rank_name}{self.suit}"

    def __repr__(self) -> str:
        return f"Card('{self}')"


CardLike = Card | str

DECK: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(52))
CLASS_NAMES: tuple[str, ...] = tuple(str(c) for c in DECK)


def to_card(card: CardLike) -> Card:
    """A ``Card`` from a ``Card`` or its text."""
    return card if isinstance(card, Card) else Card.parse(card)


def check_distinct(cards: Iterable[Card]) -> None:
    """Raise ``ValueError`` naming the first card that appears twice."""
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise ValueError(f"{card} appears twice; a deck has one of each card.")
        seen.add(card)


def card_words(text: str) -> list[str]:
    """The words of typed cards, split at spaces, commas and semicolons, as ``parse_cards`` reads them.

    >>> card_words("5h, 5c;JD  10d")
    ['5h', '5c', 'JD', '10d']
    """
    return _TOKEN.findall(text)


def parse_cards(text: str | Iterable[CardLike], at_most: int = MAX_CARDS, what: str = "A list of cards") -> list[Card]:
    """Cards from text like ``"5h 5c, JD"`` or an iterable of cards/strings; duplicates are refused.

    More than ``at_most`` cards is refused before any is read; ``what`` names the list in the message.
    """
    items = card_words(text) if isinstance(text, str) else list(text)
    if len(items) > at_most:
        raise ValueError(f"{what} can have at most {at_most} cards; this one has {len(items)}.")
    cards = [to_card(item) for item in items]
    check_distinct(cards)
    return cards
