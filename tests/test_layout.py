"""Grouping cards into hands and guessing the starter, on handcrafted corner boxes."""

from __future__ import annotations

import numpy as np
import pytest

from scorer.cards import Card
from vision.cards_from_corners import cards_from_corners
from vision.detections import Detections
from vision.layout import find_layout, group_cards
from vision.reading import PhotoReading


def cards_at(boxes: list[list[float]], names: list[str]) -> Detections:
    return Detections(boxes, [0.95] * len(boxes), [Card.parse(n).index for n in names])


def upright(x: float, y: float) -> list[float]:
    return [x, y, x + 20, y + 40]  # a corner index is taller than wide on an upright card


def sideways(x: float, y: float) -> list[float]:
    return [x, y, x + 40, y + 20]


HAND = ["5H", "5C", "5S", "JD", "5D"]


def test_a_card_alone_beside_a_row_of_four_is_the_starter():
    boxes = [upright(100 * i, 0) for i in range(4)] + [upright(900, 300)]
    layout = find_layout(cards_at(boxes, HAND))
    assert layout.groups == [[0, 1, 2, 3], [4]]
    assert layout.starter == 4 and layout.starter_reason == "set apart from the others"


def test_a_fan_with_one_card_a_little_apart_still_finds_the_starter():
    boxes = [upright(30 * i, 0) for i in range(4)] + [upright(160, 0)]  # linked, but clearly farther
    layout = find_layout(cards_at(boxes, HAND))
    assert layout.groups == [[0, 1, 2, 3, 4]]
    assert layout.starter == 4


def test_a_tight_fan_does_not_reach_a_card_two_card_widths_away():
    boxes = [upright(30 * i, 0) for i in range(4)] + [upright(250, 0)]
    assert find_layout(cards_at(boxes, HAND)).groups == [[0, 1, 2, 3], [4]]


def test_a_row_of_cards_with_gaps_stays_one_group():
    boxes = [upright(140 * i, 0) for i in range(5)]  # spaced 3.5 corner lengths: a card width and a gap
    assert find_layout(cards_at(boxes, HAND)).groups == [[0, 1, 2, 3, 4]]


def test_the_one_card_turned_sideways_is_the_starter():
    boxes = [upright(0, 0), upright(80, 0), sideways(160, 10), upright(240, 0), upright(320, 0)]
    layout = find_layout(cards_at(boxes, HAND))
    assert layout.starter == 2 and layout.starter_reason == "turned differently from the others"


def test_five_evenly_spaced_alike_cards_give_no_starter_guess():
    boxes = [upright(80 * i, 0) for i in range(5)]
    layout = find_layout(cards_at(boxes, HAND))
    assert layout.starter is None and layout.starter_reason == ""


def test_hands_across_a_table_are_separate_groups_biggest_first():
    west = [upright(30 * i, 500) for i in range(4)]
    east = [upright(1500 + 30 * i, 500) for i in range(6)]
    north = [upright(750, 30 * i) for i in range(2)]
    names = ["AS", "2S", "3S", "4S", "AH", "2H", "3H", "4H", "5H", "6H", "AD", "2D"]
    groups = group_cards(cards_at(west + east + north, names))
    assert [len(g) for g in groups] == [6, 4, 2]
    assert groups[0] == [4, 5, 6, 7, 8, 9]


def test_no_starter_guess_unless_five_cards():
    boxes = [upright(100 * i, 0) for i in range(4)] + [upright(900, 300), upright(1500, 300)]
    assert find_layout(cards_at(boxes, [*HAND, "AS"])).starter is None


def test_a_cards_second_corner_links_it_to_its_neighbours():
    corner_boxes = [upright(0, 0), upright(500, 0), upright(580, 0)]  # card 0 shows a corner far right too
    corners = Detections(corner_boxes, [0.9] * 3, [Card.parse(n).index for n in ("AS", "AS", "2S")])
    found = cards_from_corners(corners, reach=30)
    assert len(found.cards) == 2
    assert group_cards(found.cards, corners, found.members) == [[0, 1]]
    assert len(group_cards(found.cards)) == 2  # one box per card alone: too far apart


def test_the_starter_is_found_whichever_of_its_corners_was_read_best():
    # Corner centres read from a rendered hand: three cards in a row, JD and the 5D each at both
    # corners; the 5D's near corner was read best, so its box alone does not stand apart.
    centres = {"5H": [(131, 220)], "5C": [(300, 233)], "5S": [(471, 247)]}
    centres |= {"JD": [(839, 509), (642, 259)], "5D": [(1202, 772), (1400, 1022)]}
    names = [n for n, places in centres.items() for _ in places]
    boxes = [[x - 18, y - 37, x + 18, y + 37] for places in centres.values() for x, y in places]
    confidence = [0.98, 0.98, 0.98, 0.99, 0.97, 0.97, 0.96]  # the 5D's near corner first
    corners = Detections(boxes, confidence, [Card.parse(n).index for n in names])
    found = cards_from_corners(corners)
    assert find_layout(found.cards).starter is None  # each card as its best corner's box
    layout = find_layout(found.cards, corners, found.members)
    assert layout.starter is not None and str(found.cards.cards[layout.starter]) == "5D"


def _reading(names: list[str], starter: int | None, boxes: list[list[float]] | None = None) -> PhotoReading:
    boxes = boxes or [upright(100 * i, 0) for i in range(len(names))]
    cards = cards_at(boxes, names)
    found = cards_from_corners(cards)
    layout = find_layout(found.cards)
    return PhotoReading(
        cards=found.cards,
        corners=cards,
        groups=layout.groups,
        starter=starter,
        starter_reason="",
        conflicts=found.conflicts,
        to_confirm=found.to_confirm,
        image_size=(2000, 1000),
    )


def test_hand_and_starter_uses_the_guess_or_the_named_starter():
    reading = _reading(HAND, starter=4)
    hand, starter = reading.hand_and_starter()
    assert starter == Card.parse("5D") and [str(c) for c in hand] == ["5H", "5C", "5S", "JD"]
    hand, starter = reading.hand_and_starter(Card.parse("5H"))
    assert starter == Card.parse("5H") and len(hand) == 4
    four = _reading(HAND[:4], starter=None)
    hand, starter = four.hand_and_starter(Card.parse("5D"))
    assert starter == Card.parse("5D") and len(hand) == 4


@pytest.mark.parametrize(
    ("names", "starter", "words"),
    [
        (HAND[:4], None, "no starter"),
        (HAND, None, "none stands apart"),
        ([*HAND, "AS", "KC"], None, "Found 7 cards"),
        (HAND[:3], Card.parse("AS"), "Found 3 cards"),
    ],
)
def test_cards_that_do_not_make_a_hand_say_why(names, starter, words):
    with pytest.raises(ValueError, match=words):
        _reading(names, starter=None).hand_and_starter(starter)


def test_a_conflict_stops_the_count():
    boxes = [upright(100 * i, 0) for i in range(4)] + [upright(2000, 0)]
    reading = _reading(["5H", "5C", "5S", "JD", "5H"], starter=None, boxes=boxes)
    assert len(reading.conflicts) == 1
    with pytest.raises(ValueError, match="5H is seen 2 times"):
        reading.hand_and_starter(Card.parse("AS"))
    assert any("5H is seen" in w for w in reading.warnings)


def test_reading_to_dict_names_cards_groups_and_starter():
    reading = _reading(HAND, starter=4)
    data = reading.to_dict()
    assert [row["card"] for row in data["cards"]] == HAND
    assert data["starter"] == "5D" and data["groups"] == [HAND]
    assert np.allclose(data["cards"][0]["box"], upright(0, 0))
