"""Learning: the counting quiz's feedback, the discard quiz, the teacher's walk through a count."""

import doctest
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorer.learn
from scorer.cards import DECK, Card, parse_cards
from scorer.hand import KIND_ORDER, score_hand, spoken_phrases
from scorer.learn import (
    LEVELS,
    MAX_CLAIMS,
    Claim,
    CountQuiz,
    deal_count_quiz,
    deal_discard_quiz,
    explain_hand,
    explain_score,
    item_words,
    parse_claims,
)


def quiz(level, hand, starter):
    return CountQuiz(LEVELS[level], tuple(parse_cards(hand)), Card.parse(starter))


DOUBLE_RUN = ("3H 4D 5C 5S", "KH")  # fifteen 4, double run of three 8: twelve


def test_double_run_counted_in_full_is_perfect():
    feedback = quiz(3, *DOUBLE_RUN).check(
        12, ["15 5C KH", "fifteen 5S KH", "pair 5C 5S", "run 3H 4D 5C", "run 3H 4D 5S"]
    )
    assert feedback.perfect
    assert len(feedback.found) == 5 and not feedback.missed and not feedback.not_there
    assert feedback.lines() == [
        "Right: twelve.",
        *[f"You found {item_words(i)}." for i in feedback.found],
    ]


def test_double_run_claimed_as_one_run_misses_the_second_run_and_the_pair():
    feedback = quiz(3, *DOUBLE_RUN).check(7, ["15 5C KH", "15 5S KH", "run 3H 4D 5C"])
    assert not feedback.total_right
    assert {(i.kind, tuple(map(str, i.cards))) for i in feedback.missed} == {
        ("pair", ("5C", "5S")),
        ("run", ("3H", "4D", "5S")),
    }
    lines = feedback.lines()
    assert lines[0] == "You said seven; the count is twelve."
    assert "You missed a pair of fives for two (5C 5S)." in lines
    assert "You missed a run of three, three-four-five, for three (3H 4D 5S)." in lines
    assert any(line.startswith("A double run of three is twelve:") for line in lines)


def test_a_run_claim_with_a_repeated_rank_stands_for_every_run_in_it():
    assert [tuple(map(str, a.cards)) for a in Claim.parse("run 3H 4D 5C 5S").atoms()] == [
        ("3H", "4D", "5C"),
        ("3H", "4D", "5S"),
    ]
    feedback = quiz(2, *DOUBLE_RUN).check(8, ["run 3H 4D 5C 5S", "pair 5C 5S"])
    assert feedback.perfect


def test_three_of_a_kind_claimed_as_one_pair_claim_is_three_pairs():
    assert len(Claim.parse("pair 5H 5C 5S").atoms()) == 3
    feedback = quiz(2, "5H 5C 5S 9D", "KD").check(6, ["pair 5H 5C 5S"])
    assert feedback.perfect


def test_double_double_run_missing_one_pair():
    feedback = quiz(2, "5H 5C 6S 7D", "7C").check(14, ["run 5H 5C 6S 7D 7C", "pair 5H 5C"])
    assert [str(c) for i in feedback.missed for c in i.cards] == ["7D", "7C"]
    assert not feedback.not_there


def test_crib_four_card_flush_claim_is_not_there():
    feedback = quiz(4, "2H 4H 6H 8H", "10C").check(4, ["flush 2H 4H 6H 8H"])
    assert feedback.actual_total == 0
    assert feedback.not_there[0].reason == "In the crib a flush needs all five cards, starter included."
    assert any("a crib flush needs the starter to match too" in line for line in feedback.lines())


def test_five_card_flush_claimed_as_four_cards():
    feedback = quiz(3, "2H 4H 6H 8H", "QH").check(4, ["flush 2H 4H 6H 8H"])
    assert feedback.not_there[0].reason == "The starter is hearts too: that is a five-card flush, for five."
    assert [item_words(i) for i in feedback.missed] == ["a five-card flush in hearts for five (2H 4H 6H 8H QH)"]


def test_four_card_flush_in_hand_counts_without_the_starter():
    feedback = quiz(3, "2H 4H 6H 8H", "QC").check(4, ["flush 2H 4H 6H 8H"])
    assert feedback.perfect


def test_crib_five_card_flush_is_found():
    feedback = quiz(4, "2H 4H 6H 8H", "QH").check(5, ["flush 2H 4H 6H 8H QH"])
    assert feedback.perfect


@pytest.mark.parametrize(
    ("hand", "starter", "claim", "reason"),
    [
        ("3H 4D 5C 5S", "KH", "15 3H 4D KH", "3 + 4 + 10 = 17, not 15."),
        ("3H 4D 5C 5S", "KH", "pair 4D 5C", "A pair is two cards of the same rank."),
        ("3H 4D 5C 9S", "KH", "run 3H 4D", "A run needs at least three cards in sequence."),
        ("3H 4D 6C 9S", "KH", "run 3H 4D 6C", "three-four-six is not a sequence of ranks"),
        ("3H 4D 5C 6S", "KH", "run 3H 4D 5C", "It is part of a longer run; count only the longest run."),
        ("3H 4D 5C 9S", "KH", "15 5C QS", "QS is not in this hand or the starter."),
        ("JH 4D 5C 9S", "KS", "nobs JH", "The jack of hearts is not the starter's suit (spades)."),
        ("2H 4D 5C 9S", "JS", "nobs JS", "his heels, two for the dealer at the cut"),
        ("2H 4D 5C 9S", "JS", "nobs 9S", "Nobs is one jack, the one of the starter's suit."),
        ("2H 4H 5C 9H", "JS", "flush 2H 4H 5C 9H", "A flush is cards all of one suit."),
        ("2H 4H 5H 9H", "JH", "flush 2H 4H 5H JH", "A flush must be all four cards in hand"),
    ],
)
def test_claims_that_are_not_there_say_why(hand, starter, claim, reason):
    (wrong,) = quiz(3, hand, starter).check(0, [claim]).not_there
    assert reason in wrong.reason


def test_claiming_the_same_fifteen_twice():
    feedback = quiz(3, *DOUBLE_RUN).check(4, ["15 5C KH", "15 KH 5C"])
    assert feedback.not_there[0].reason == "You already counted that."


def test_a_level_counts_only_its_kinds():
    feedback = quiz(1, "5H 5C 10S 2D", "4D").check(6, ["15 5H 10S", "15 5C 10S", "pair 5H 5C"])
    assert feedback.actual_total == 4
    assert feedback.not_there[0].reason == "This level counts fifteens only."
    assert [s.kind for s in feedback.explanation.steps] == ["fifteen", "fifteen"]


def test_a_total_without_items_gets_the_walk_through():
    feedback = quiz(3, *DOUBLE_RUN).check(10)
    assert not feedback.items_checked and not feedback.total_right
    assert feedback.lines()[1:] == explain_hand(*DOUBLE_RUN).lines()


def test_items_that_do_not_add_up_to_the_claimed_total():
    lines = quiz(3, *DOUBLE_RUN).check(12, ["15 5C KH"]).lines()
    assert "Your items add up to two, not the twelve you said." in lines


@pytest.mark.parametrize("text", ["sixteen 5H KS", "pair", "15 5H 5H"])
def test_bad_claims_are_refused(text):
    with pytest.raises(ValueError):
        Claim.parse(text)


FORTY_CARD_RUN = "run " + " ".join(f"{rank}{suit}" for rank in range(1, 11) for suit in "SHDC")


def test_a_run_claim_of_forty_cards_is_refused_before_it_expands():
    # Ten ranks four times over once stood for 4**10 runs: a million items and half a gigabyte.
    with pytest.raises(ValueError, match=r"^A claim can have at most 5 cards; this one has 40\.$"):
        Claim.parse(FORTY_CARD_RUN)
    with pytest.raises(ValueError, match=r"^Line 2: A claim can have at most 5 cards; this one has 40\.$"):
        parse_claims("15 5C KH\n" + FORTY_CARD_RUN)


def test_a_claim_built_directly_is_bounded_too():
    with pytest.raises(ValueError, match="A claim can have 1 to 5 cards; this one has 40"):
        Claim("run", tuple(parse_cards(FORTY_CARD_RUN[4:])))
    with pytest.raises(ValueError, match="A claim's kind is one of fifteen, pair, run, flush, nobs"):
        Claim("straight", tuple(parse_cards("3H 4H 5H")))


def test_the_most_atoms_one_claim_can_stand_for_is_six():
    assert len(Claim.parse("pair 5H 5C 5S 5D").atoms()) == 6
    assert len(Claim.parse("run 3H 3C 4S 4D 5H").atoms()) == 4


def test_more_claims_than_twice_any_hand_scores_are_refused():
    with pytest.raises(ValueError, match=rf"^List at most {MAX_CLAIMS} items, one a line; these are 31\.$"):
        parse_claims("15 5C KH\n" * 31)
    with pytest.raises(ValueError, match=f"List at most {MAX_CLAIMS} items"):
        quiz(3, *DOUBLE_RUN).check(0, ["15 5C KH"] * 31)
    assert len(parse_claims("15 5C KH\n\n  \n" * MAX_CLAIMS)) == MAX_CLAIMS


def test_claims_text_longer_than_the_cap_is_refused():
    with pytest.raises(ValueError, match=r"^The claims run to 2,001 characters; keep them under 2,000\.$"):
        parse_claims(" " * 2001)


def test_a_bad_claim_line_is_named_by_its_number():
    with pytest.raises(ValueError, match=r"^Line 3: 'sixteen' is not something that scores"):
        parse_claims("15 5C KH\n\nsixteen 5H KS")


def test_claim_kind_and_cards_may_be_separated_by_a_tab():
    assert Claim.parse("15\t5C KH").words() == "fifteen 5C KH"


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_quiz_deals_are_seedable_and_fit_the_level(level):
    first = deal_count_quiz(level, rng=11)
    assert first == deal_count_quiz(level, rng=random.Random(11))
    assert len(set(first.hand) | {first.starter}) == 5
    assert first.level.crib == (level == 4)
    if level <= 2:
        assert first.score.items and all(i.kind in LEVELS[level].kinds for i in first.score.items)


def test_level_four_deals_many_one_suit_cribs():
    rng = random.Random(5)
    deals = [deal_count_quiz(4, rng) for _ in range(40)]
    assert sum(len({c.suit for c in q.hand}) == 1 for q in deals) >= 10


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="Level must be one of 1, 2, 3, 4"):
        deal_count_quiz(7)


def test_explainer_walks_fifteens_then_pairs_runs_flush_nobs():
    explanation = explain_hand("JH 5C 5D 5S", "5H")
    kinds = [s.kind for s in explanation.steps]
    assert kinds == ["fifteen"] * 8 + ["pair", "nobs"]
    assert [s.said for s in explanation.steps][-2:] == ["four of a kind is twenty-eight", "nobs is twenty-nine"]
    assert explanation.steps[-2].why == "four fives make six pairs: twelve points"
    assert explanation.total == 29


def test_explainer_double_run_is_one_step_with_its_pair():
    explanation = explain_hand("4H 5C 6S 6D", "KC")
    run_step = explanation.steps[-1]
    assert run_step.kind == "run" and run_step.points == 8 and run_step.total == 14
    assert run_step.why == (
        "four-five-six with two sixes: two runs of three (six) and the pair (two), eight points in all"
    )


def test_explainer_notes_teach_what_did_not_score():
    crib = explain_hand("2H 4H 6H 8H", "10C", crib=True)
    assert crib.steps == ()
    assert any("crib flush needs the starter" in n for n in crib.notes)
    assert any("nineteen" in n for n in crib.notes)
    heels = explain_hand("2H 4D 9C QH", "JC")
    assert any("his heels" in n for n in heels.notes)
    near_nobs = explain_hand("JS 3H 4H 8C", "9D")
    assert "would be his nobs if the starter were a spade" in near_nobs.notes[0]


hands = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


@settings(max_examples=150, deadline=None)
@given(hands, st.booleans())
def test_explainer_agrees_with_the_count_and_the_spoken_words(cards, crib):
    score = score_hand(cards[:4], cards[4], crib=crib)
    explanation = explain_score(score)
    assert explanation.total == score.total
    assert [s.said for s in explanation.steps] == spoken_phrases(score)
    assert Counter(i for s in explanation.steps for i in s.items) == Counter(score.items)
    order = [KIND_ORDER.index(s.kind) for s in explanation.steps]
    assert order == sorted(order)
    totals = [s.total for s in explanation.steps]
    assert totals == sorted(totals)


@settings(max_examples=100, deadline=None)
@given(hands, st.sampled_from([1, 2, 3, 4]))
def test_claiming_exactly_the_real_items_is_perfect(cards, level):
    q = CountQuiz(LEVELS[level], tuple(cards[:4]), cards[4])
    claims = [Claim(i.kind, i.cards) for i in q.score.items]
    assert q.check(q.answer, claims).perfect
    missing_one = q.check(q.answer, claims[1:])
    assert len(missing_one.missed) == min(1, len(claims))


def test_discard_quiz_best_throw_loses_nothing():
    quiz_ = deal_discard_quiz(rng=3)
    best = quiz_.advice.best
    feedback = quiz_.check(best.discard)
    assert feedback.is_best and feedback.loss == 0 and feedback.rank == 1
    assert feedback.lines()[-1] == "That is the best throw of the 15."


def test_discard_quiz_measures_the_gap_in_expected_points():
    quiz_ = deal_discard_quiz(rng=3)
    worst = quiz_.advice.options[-1]
    feedback = quiz_.check(worst.discard)
    assert feedback.loss == quiz_.advice.best.net - worst.net > 0
    assert feedback.rank == 1 + sum(o.net > worst.net for o in quiz_.advice.options)
    assert f"gives up {float(feedback.loss):.2f} points a hand" in feedback.lines()[1]


def test_discard_feedback_names_the_cards_in_words():
    quiz_ = deal_discard_quiz(rng=3)
    worst = quiz_.advice.options[-1]
    first, best = quiz_.check(worst.discard).lines()
    thrown = " and ".join(f"the {c.words()}" for c in worst.discard)
    assert first.startswith(f"You threw {thrown}: your hand averages")
    assert best.startswith("Best is to throw the ") and ", keeping the " in best
    assert not any(str(c) in (first + best).replace(",", " ").replace(":", " ").split() for c in quiz_.cards)


def test_a_quiz_on_cards_held_counts_everything_with_the_crib_flush_rule():
    assert CountQuiz.of("2H 4H 6H 9H", "10C").answer == 8  # two fifteens and a four-card flush in a hand
    assert CountQuiz.of("2H 4H 6H 9H", "10C", crib=True).answer == 4  # a crib's flush needs the starter too
    assert CountQuiz.of("5H 5C 5S JD", "5D").check(27, ["15 5H JD"]).missed


def test_discard_quiz_for_three_or_four_players_deals_five():
    quiz_ = deal_discard_quiz(players=4, rng=1)
    assert len(quiz_.cards) == 5
    assert quiz_.check([quiz_.cards[0]]).options == 5
    assert deal_discard_quiz(players=3, rng=9) == deal_discard_quiz(players=3, rng=9)


def test_discard_quiz_refuses_a_throw_not_dealt_and_odd_player_counts():
    quiz_ = deal_discard_quiz(rng=3)
    outsider = next(c for c in DECK if c not in quiz_.cards)
    with pytest.raises(ValueError, match="not a possible throw"):
        quiz_.check([quiz_.cards[0], outsider])
    with pytest.raises(ValueError, match="two, three or four players"):
        deal_discard_quiz(players=5)


def test_the_examples_in_the_docstrings_hold():
    results = doctest.testmod(scorer.learn)
    assert results.attempted >= 3 and results.failed == 0
