"""cribcam's rules engine: cards, the show, the play, the game and the discard advisor.

>>> from scorer import score_hand
>>> score_hand("5H 5C 5S JD", starter="5D").total
29
"""

from scorer.cards import CLASS_NAMES, DECK, Card, check_distinct, parse_cards, to_card
from scorer.census import Census, census
from scorer.hand import HandScore, ScoreItem, score_hand
from scorer.tables import score_many

__all__ = [
    "CLASS_NAMES",
    "DECK",
    "Card",
    "Census",
    "HandScore",
    "ScoreItem",
    "census",
    "check_distinct",
    "parse_cards",
    "score_hand",
    "score_many",
    "to_card",
]
