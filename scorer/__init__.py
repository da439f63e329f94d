"""cribcam's rules engine: cards, the show, the play, the game and the discard advisor.

>>> from scorer import score_hand
>>> score_hand("5H 5C 5S JD", starter="5D").total
29
"""

from scorer.board import PegPair, peg_positions
from scorer.cards import CLASS_NAMES, DECK, Card, check_distinct, parse_cards, to_card
from scorer.census import Census, census
from scorer.discard import DiscardAdvice, DiscardOption, HandExpectation, advise
from scorer.game import DEAL_SIZES, Game, GameResult, Match, ScoreEvent
from scorer.hand import HandScore, ScoreItem, score_hand
from scorer.learn import LEVELS, Claim, CountQuiz, deal_count_quiz, deal_discard_quiz, explain_hand
from scorer.play import Peg, Play, Turn
from scorer.tables import score_many

__all__ = [
    "CLASS_NAMES",
    "DEAL_SIZES",
    "DECK",
    "LEVELS",
    "Card",
    "Census",
    "Claim",
    "CountQuiz",
    "DiscardAdvice",
    "DiscardOption",
    "Game",
    "GameResult",
    "HandExpectation",
    "HandScore",
    "Match",
    "Peg",
    "PegPair",
    "Play",
    "ScoreEvent",
    "ScoreItem",
    "Turn",
    "advise",
    "census",
    "check_distinct",
    "deal_count_quiz",
    "deal_discard_quiz",
    "explain_hand",
    "parse_cards",
    "peg_positions",
    "score_hand",
    "score_many",
    "to_card",
]
