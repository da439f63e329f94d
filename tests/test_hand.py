"""The show: each counting rule by name, the spoken count, and the batch scorer agreeing with it."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import DECK, Card, score_hand, score_many


def kinds(score):
    return [(item.kind, item.points) for item in score.items]


def test_twenty_nine_hand():
    score = score_hand("5H 5C 5S JD", "5D")
    assert score.total == 29
    assert len(score.of_kind("fifteen")) == 8
    assert len(score.of_kind("pair")) == 6
    assert score.of_kind("nobs")[0].cards == (Card.parse("JD"),)


def test_fifteens_list_their_cards():
    score = score_hand("7H 8C 2S 3D", "KD")
    found = sorted(tuple(str(c) for c in item.cards) for item in score.of_kind("fifteen"))
    assert found == [("2S", "3D", "KD"), ("7H", "8C")]


def test_pair_royal_is_three_pairs():
    assert sum(i.points for i in score_hand("9H 9C 9S 2D", "KD").of_kind("pair")) == 6


def test_double_run_itemised_as_two_runs():
    runs = score_hand("4H 5C 6S 6D", "KC").of_kind("run")
    assert [len(r.cards) for r in runs] == [3, 3]


def test_triple_run():
    score = score_hand("4H 4C 4S 5D", "6C")
    assert len(score.of_kind("run")) == 3
    assert score.total == 15 + 6  # triple run 15 plus fifteens 4+5+6 three times


def test_double_double_run():
    score = score_hand("2H 3C 3S 4D", "4C")
    assert len(score.of_kind("run")) == 4
    assert score.total == 16
    assert score.spoken() == "A double double run is sixteen."


def test_run_of_five():
    assert kinds(score_hand("9H 10C JS QD", "KC")) == [("run", 5)]


def test_runs_use_the_longest_only():
    assert [len(r.cards) for r in score_hand("2H 3C 4S 5D", "9C").of_kind("run")] == [4]


def test_ace_is_low_in_runs():
    assert score_hand("QH KC AS 2D", "9C").of_kind("run") == []


def test_hand_four_card_flush_scores_four():
    assert score_hand("2H 4H 6H 8H", "KC").of_kind("flush")[0].points == 4


def test_hand_five_card_flush_scores_five():
    assert score_hand("2H 4H 6H 8H", "QH").of_kind("flush")[0].points == 5


def test_crib_four_card_flush_scores_nothing():
    assert score_hand("2H 4H 6H 8H", "KC", crib=True).of_kind("flush") == []


def test_crib_five_card_flush_scores_five():
    assert score_hand("2H 4H 6H 8H", "QH", crib=True).of_kind("flush")[0].points == 5


def test_flush_needs_all_four_hand_cards():
    assert score_hand("2H 4H 6H 8C", "QH").of_kind("flush") == []


def test_nobs_is_jack_of_starters_suit_in_hand():
    assert score_hand("JD 2C 4S 6H", "KD").of_kind("nobs")[0].points == 1


def test_nobs_not_scored_for_starter_jack():
    assert score_hand("QD 2C 4S 6H", "JD").of_kind("nobs") == []


def test_zero_hand_says_nineteen_and_what_it_means():
    score = score_hand("2H 4C 6S 8D", "QC")
    assert score.total == 0
    assert score.spoken() == "Nineteen: no points (players say nineteen, a score no hand can make)."


def test_spoken_count_in_players_cadence():
    assert score_hand("5H 10C 6S 6D", "QC").spoken() == "Fifteen two, fifteen four, and a pair is six."
    assert score_hand("5H 5C 5S JD", "5D").spoken().endswith("four of a kind is twenty-eight, and nobs is twenty-nine.")


def test_spoken_double_run_folds_its_pair():
    assert score_hand("4H 5C 6S 6D", "KC").spoken() == (
        "Fifteen two, fifteen four, fifteen six, and a double run of three is fourteen."
    )


def test_five_cards_without_starter_count_as_a_set():
    score = score_hand("5H 5C 5S JD 5D")
    assert score.total == 28  # no nobs without a starter
    assert score.starter is None


def test_cards_may_be_card_objects_or_strings():
    assert score_hand([Card.parse("5H"), "5C", "5S", "JD"], Card.parse("5D")).total == 29


@pytest.mark.parametrize(
    ("cards", "starter", "message"),
    [
        ("5H 5C 5S", "5D", "needs four cards"),
        ("5H 5C 5S 5D", "5D", "5D appears twice"),
        ("5H 5C 5S 5X", "5D", "'5X' is not a card"),
    ],
)
def test_bad_hands_get_clear_errors(cards, starter, message):
    with pytest.raises(ValueError, match=message):
        score_hand(cards, starter)


five_distinct = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)


@given(five_distinct, st.booleans())
@settings(max_examples=300, deadline=None)
def test_batch_scorer_agrees_with_itemised_count(indices, crib):
    hand, starter = [DECK[i] for i in indices[:4]], DECK[indices[4]]
    fast = score_many(np.array([indices[:4]]), np.array([indices[4]]), crib=crib)[0]
    assert fast == score_hand(hand, starter, crib=crib).total


@given(five_distinct, st.permutations(range(4)))
@settings(max_examples=200, deadline=None)
def test_hand_order_does_not_matter(indices, order):
    hand, starter = [DECK[i] for i in indices[:4]], DECK[indices[4]]
    assert score_hand([hand[i] for i in order], starter).total == score_hand(hand, starter).total


@given(five_distinct, st.permutations("SHDC"))
@settings(max_examples=200, deadline=None)
def test_relabelling_suits_does_not_change_the_score(indices, suits):
    relabel = dict(zip("SHDC", suits, strict=True))
    cards = [DECK[i] for i in indices]
    moved = [Card(c.rank, relabel[c.suit]) for c in cards]
    assert score_hand(moved[:4], moved[4]).total == score_hand(cards[:4], cards[4]).total


@given(five_distinct, st.booleans())
@settings(max_examples=300, deadline=None)
def test_score_is_at_most_29_and_never_19_25_26_27(indices, crib):
    total = score_hand([DECK[i] for i in indices[:4]], DECK[indices[4]], crib=crib).total
    assert 0 <= total <= 29
    assert total not in (19, 25, 26, 27)
