"""Cards: notation, parsing what people type, the deck."""

import pytest

from scorer import DECK, Card, parse_cards
from scorer.cards import card_words


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5h", "5H"),
        ("5H", "5H"),
        ("10d", "10D"),
        ("Td", "10D"),
        ("T♦", "10D"),
        ("5♥", "5H"),
        ("qs", "QS"),
        ("AC", "AC"),
        ("1c", "AC"),
        ("KD", "KD"),
    ],
)
def test_parse_accepts_what_people_type(text, expected):
    assert str(Card.parse(text)) == expected


def test_parse_cards_with_commas_and_spaces():
    assert [str(c) for c in parse_cards("5h, 10d,JS  qc")] == ["5H", "10D", "JS", "QC"]


@pytest.mark.parametrize("bad", ["11H", "5X", "Z", "", "10", "H5"])
def test_bad_token_error_names_the_token(bad):
    with pytest.raises(ValueError) as err:
        parse_cards(f"5H {bad}") if bad else Card.parse(bad)
    assert f"'{bad}'" in str(err.value)


def test_same_card_twice_is_rejected():
    with pytest.raises(ValueError, match="5H appears twice"):
        parse_cards("5H 6D 5h")


def test_card_value_and_pretty_form():
    assert Card.parse("KH").value == 10
    assert Card.parse("AS").value == 1
    assert Card.parse("5H").pretty() == "5♥"


def test_deck_has_52_distinct_cards_in_class_order():
    assert len(set(DECK)) == 52
    assert [str(c) for c in DECK[:3]] == ["AS", "2S", "3S"]
    assert str(DECK[51]) == "KC"
    assert all(Card.from_index(c.index) == c for c in DECK)


def test_card_is_hashable_and_immutable():
    card = Card.parse("5H")
    assert {card: 1}[Card(5, "H")] == 1
    with pytest.raises(AttributeError):
        card.rank = 6  # type: ignore[misc]


def test_more_cards_than_a_deck_are_refused_with_the_count():
    text = " ".join(str(c) for c in DECK) + " 5H 6H"
    with pytest.raises(ValueError, match=r"^A list of cards can have at most 52 cards; this one has 54\.$"):
        parse_cards(text)


def test_a_caller_bounds_the_list_and_names_it():
    with pytest.raises(ValueError, match=r"^A claim can have at most 2 cards; this one has 3\.$"):
        parse_cards("5H 6H 7H", at_most=2, what="A claim")
    assert len(parse_cards("5H 6H", at_most=2)) == 2


def test_a_long_bad_token_is_shortened_in_the_message():
    with pytest.raises(ValueError) as err:
        Card.parse("X" * 100_000)
    assert str(err.value) == "'" + "X" * 15 + "…' is not a card; write rank then suit, like 5H, 10D, QS or A♣."


def test_card_words_split_as_parse_cards_reads():
    assert card_words("5h, 5c;JD  10d") == ["5h", "5c", "JD", "10d"] and card_words(" ,; ") == []
