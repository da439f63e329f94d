"""The discard advisor: exact against brute force, known facts, invariants, the CLI."""

import doctest
import json
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import scorer.discard
from cribcam.cli import main
from scorer.cards import DECK, SUITS, Card, parse_cards
from scorer.discard import advise, advise_reference, crib_throw_count


def _same(fast, slow):
    assert [(o.keep, o.discard) for o in fast.options] == [(o.keep, o.discard) for o in slow.options]
    for f, s in zip(fast.options, slow.options, strict=True):
        assert f.hand == s.hand
        assert f.crib_mean == s.crib_mean
        assert f.net == s.net


# Small decks (other cards exposed) so the brute force runs in well under a second,
# chosen so that flushes in the crib and nobs (jack thrown, jack unseen, jack kept) all occur.
SMALL_DECK_CASES = [
    ("5H 6H JH 9H 2C JS", "3H 4H 7H 8H 10H QH KH JD 5S 5D 6C 7C 8S JC", True),
    ("5H 6H JH 9H 2C JS", "3H 4H 7H 8H 10H QH KH JD 5S 5D 6C 7C 8S JC", False),
    ("AD 2D 3D 4D JC QC", "5D 6D 7D 8D 9D JD 2C 3C 4C 5C 10S JS 4H", True),
    ("JH 4H 5C 5D KS", "AH 2H 3H 6H 7H 8H 9H 10H QH KH 5S 10D JD JS", True),
    ("2S 7S JS 10C 5D", "AS 3S 4S 5S 6S 8S 9S 10S QS KS 5C JC 8D", False),
]


@pytest.mark.parametrize(("dealt", "unseen", "mine"), SMALL_DECK_CASES)
def test_advisor_equals_brute_force_on_small_decks(dealt, unseen, mine):
    keep_out = set(parse_cards(dealt)) | set(parse_cards(unseen))
    exposed = [c for c in DECK if c not in keep_out]
    _same(advise(dealt, mine, exposed), advise_reference(dealt, mine, exposed))


@pytest.mark.parametrize("seed", [3, 4])
def test_advisor_equals_brute_force_on_random_deals(seed):
    rng = random.Random(seed)
    size = 6 if seed % 2 else 5
    dealt = rng.sample(DECK, size)
    rest = [c for c in DECK if c not in dealt]
    exposed = rng.sample(rest, len(rest) - 16)
    _same(advise(dealt, seed % 2 == 1, exposed), advise_reference(dealt, seed % 2 == 1, exposed))


def test_advisor_equals_brute_force_with_the_whole_deck_unseen():
    dealt = "JH 4H 7H 8C QS 2D"
    fast = advise(dealt, my_crib=True)
    slow = advise_reference(dealt, my_crib=True, discards=["JH 4H"])  # the jack and a flush draw
    assert fast.option("JH 4H").crib_mean == slow.options[0].crib_mean
    assert fast.option("JH 4H").hand == slow.options[0].hand


def test_five_card_advisor_equals_brute_force_on_a_larger_deck():
    dealt = "JC 5C 6D 9S KH"
    unseen = parse_cards("AC 2C 3C 4C 7C 8C 9C 10C QC KC 5H 5S 5D JH JD JS 10H 10D 4D 6H 3S 2D")
    exposed = [c for c in DECK if c not in unseen and c not in parse_cards(dealt)]
    fast = advise(dealt, my_crib=False, exposed=exposed)
    slow = advise_reference(dealt, my_crib=False, exposed=exposed, discards=["JC"])
    assert fast.option("JC").crib_mean == slow.options[0].crib_mean


def test_keeping_five_five_five_jack_by_hand_calculation():
    # Keep 5H 5C 5S JD, throw 9C KS. The hand alone: fifteens J+5 three times and 5+5+5 (8),
    # three fives (6): 14. Of the 46 unseen starters:
    #   5D: 29, the best hand.
    #   ten-cards (10s, three other jacks, queens, three kings: 14 cards): 14 + 6 for 10+5 three times
    #   = 20, a jack adds a pair (22), a diamond adds nobs (10D, QD, KD: 21):
    #   10S 10H 10C 20*3 + 10D 21 + JS JH JC 22*3 + QS QH QC 20*3 + QD 21 + KH KC 20*2 + KD 21 = 289.
    #   the other 31 (A-4, 6-8 four each, three nines): 14 each, +1 nobs for the 8 diamonds = 442.
    # Mean = (29 + 289 + 442) / 46 = 760 / 46.
    option = advise("5H 5C 5S JD 9C KS", my_crib=True).option("9C KS")
    assert option.hand.mean == Fraction(760, 46)
    assert (option.hand.min, option.hand.max) == (14, 29)
    assert option.hand.distribution == {14: 23, 15: 8, 20: 8, 21: 3, 22: 3, 29: 1}


def test_throwing_five_five_to_your_own_crib_beats_throwing_ten_king():
    advice = advise("5H 5C 10D KS AC 7D", my_crib=True)
    fives, ten_king = advice.option("5H 5C"), advice.option("10D KS")
    assert fives.crib_mean > ten_king.crib_mean + 5
    assert fives.net > ten_king.net
    assert advice.rank_of("5H 5C") < advice.rank_of("10D KS")


def test_the_best_throw_for_five_five_jack_queen_two_three_is_the_two_three():
    advice = advise("5H 5C JD QS 2C 3D", my_crib=True)
    assert set(advice.best.discard) == set(parse_cards("2C 3D"))
    assert advice.best.hand.mean == Fraction(583, 46)


def test_crib_flush_needs_starter_of_the_same_suit():
    # Only hearts unseen besides two clubs: a heart throw makes a five-card crib flush
    # exactly when the two other crib cards and the starter are all hearts.
    dealt = "2H 4H 9S 10S QD KD"
    unseen = parse_cards("6H 7H 8H AC 3C")
    exposed = [c for c in DECK if c not in unseen and c not in parse_cards(dealt)]
    fast = advise(dealt, my_crib=True, exposed=exposed)
    _same(fast, advise_reference(dealt, True, exposed))


def test_unseen_count_and_combinations_per_throw():
    assert advise("5H 5C JD QS 2C 3D", True).unseen == 46
    assert advise("5H 5C JD QS 2C", True).unseen == 47
    assert crib_throw_count(6, 46) == 1035 * 44
    assert crib_throw_count(5, 47) == 16215 * 44


@pytest.mark.parametrize(
    ("dealt", "exposed", "message"),
    [
        ("5H 5C JD QS", "", "six cards"),
        ("5H 5C JD QS 2C 3D 4D", "", "six cards"),
        ("5H 5C JD QS 2C 5H", "", "5H appears twice"),
        ("5H 5C JD QS 2C 3D", "5C", "5C appears twice"),
        ("5H 5C JD QS 2C 3D", "7X", "'7X' is not a card"),
    ],
)
def test_bad_deals_are_refused_in_one_sentence(dealt, exposed, message):
    with pytest.raises(ValueError, match=message):
        advise(dealt, True, exposed)


def test_asking_for_a_throw_that_was_not_dealt():
    advice = advise("5H 5C JD QS 2C 3D", True)
    with pytest.raises(ValueError, match="not a possible throw"):
        advice.option("5H 9D")


cards_strategy = (
    st.integers(5, 6)
    .flatmap(lambda n: st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True))
    .map(lambda idx: [Card.from_index(i) for i in idx])
)


@settings(max_examples=60, deadline=None)
@given(cards_strategy, st.booleans())
def test_expectations_lie_between_min_and_max(cards, mine):
    advice = advise(cards, mine)
    for o in advice.options:
        assert o.hand.min <= o.hand.mean <= o.hand.max
        assert o.hand.starters == advice.unseen
        assert sum(s * n for s, n in o.hand.distribution.items()) == o.hand.mean * advice.unseen
        assert 0 <= o.crib_mean <= 29
        assert o.net == (o.hand.mean + o.crib_mean if mine else o.hand.mean - o.crib_mean)


@settings(max_examples=60, deadline=None)
@given(cards_strategy, st.booleans())
def test_options_cover_every_throw_exactly_once_best_first(cards, mine):
    advice = advise(cards, mine)
    throw = len(cards) - 4
    expected = Counter(frozenset(c) for c in combinations(cards, throw))
    assert Counter(frozenset(o.discard) for o in advice.options) == expected
    assert len(advice.options) == (15 if throw == 2 else 5)
    for o in advice.options:
        assert set(o.keep) | set(o.discard) == set(cards) and len(o.keep) == 4
    nets = [o.net for o in advice.options]
    assert nets == sorted(nets, reverse=True)


@settings(max_examples=30, deadline=None)
@given(cards_strategy, st.permutations(SUITS))
def test_renaming_suits_changes_nothing(cards, suits):
    rename = dict(zip(SUITS, suits, strict=True))
    back = {new: old for old, new in rename.items()}
    before = {frozenset(o.discard): o for o in advise(cards, True).options}
    for o in advise([Card(c.rank, rename[c.suit]) for c in cards], True).options:
        twin = before[frozenset(Card(c.rank, back[c.suit]) for c in o.discard)]
        assert (o.hand, o.crib_mean) == (twin.hand, twin.crib_mean)


def test_my_crib_and_theirs_share_the_numbers_but_not_the_order():
    mine = advise("5H 5C JD QS 2C 3D", True)
    theirs = advise("5H 5C JD QS 2C 3D", False)
    assert {o.discard: o.crib_mean for o in mine.options} == {o.discard: o.crib_mean for o in theirs.options}
    assert set(theirs.best.discard) != set(parse_cards("5H 5C"))


def test_cli_prints_a_table_best_first(capsys):
    assert main(["discard", "5H", "5C", "JD", "QS", "2C", "3D", "--crib", "mine"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "keep" in lines[1] and "net" in lines[1]
    assert lines[2].split()[:7] == ["1", "5H", "5C", "JD", "QS", "2C", "3D"]
    assert len(lines) == 2 + 15


def test_cli_json_has_every_option_with_hand_crib_and_net(capsys):
    assert main(["discard", "5H", "5C", "JD", "QS", "2C", "3D", "--crib", "theirs", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["options"]) == 15
    first = data["options"][0]
    assert set(first) >= {"keep", "discard", "hand", "crib", "net"}
    assert set(first["hand"]) >= {"mean", "min", "max", "distribution"}
    assert sum(first["hand"]["distribution"].values()) == 46
    assert first["net"] == pytest.approx(first["hand"]["mean"] - first["crib"]["mean"], abs=1e-5)
    assert [o["net"] for o in data["options"]] == sorted((o["net"] for o in data["options"]), reverse=True)


@pytest.mark.parametrize("argv", [["5H", "5C", "JD"], ["5H", "5C", "JD", "QS", "2C", "ZZ"]])
def test_cli_bad_input_is_one_line_and_exit_two(capsys, argv):
    assert main(["discard", *argv, "--crib", "mine"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cribcam discard:")


def test_the_examples_in_the_docstrings_hold():
    results = doctest.testmod(scorer.discard)
    assert results.attempted >= 3 and results.failed == 0
