"""The show in one photo: groups of four and the lone starter, from boxes and from a drawn table photo."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import MODELS

from cribcam.cli import main
from scorer import score_hand
from vision.detections import Detections
from vision.layout import find_layout
from vision.show import show_size, split_show

CORNER = (10, 20)  # a corner box, w x h


def row(x: float, y: float, count: int = 4, step: float = 25) -> list[list[float]]:
    """Corner boxes of ``count`` overlapping cards in a row (one corner each)."""
    return [[x + step * i, y, x + step * i + CORNER[0], y + CORNER[1]] for i in range(count)]


def cards_of(boxes: list[list[float]]) -> Detections:
    return Detections(boxes, [0.9] * len(boxes), list(range(len(boxes))))


def groups_as_sets(show) -> list[frozenset[int]]:
    return sorted((frozenset(g) for g in show.groups), key=min)


@pytest.mark.parametrize(("count", "known", "groups"), [(13, False, 3), (17, False, 4), (12, True, 3), (9, False, 2)])
def test_a_show_is_groups_of_four_and_the_starter(count, known, groups):
    assert show_size(count, starter_known=known) == groups


@pytest.mark.parametrize("count", [5, 6, 8, 12, 14, 25])
def test_other_counts_are_not_a_show(count):
    assert show_size(count) is None


def test_two_hands_and_the_crib_a_few_centimetres_apart_split_with_the_starter_alone():
    # the hands are as close as 2.5 card-spacings: single linkage at the usual reach merges them
    boxes = row(0, 300) + row(165, 300) + row(80, 0) + [[120, 150, 130, 170]]
    show = split_show(cards_of(boxes))
    assert show is not None and show.starter == 12
    assert groups_as_sets(show) == [frozenset(range(0, 4)), frozenset(range(4, 8)), frozenset(range(8, 12))]
    assert show.groups[0] == [0, 1, 2, 3]  # nearest the photographer (lowest), leftmost first


def test_a_hand_close_to_the_crib_and_the_other_close_to_the_starter_still_split():
    # the photo that came back in two heaps: hand A beside the crib, hand B beside the starter
    boxes = row(0, 0) + row(150, 0) + row(0, 200) + [[140, 190, 150, 210]]
    show = split_show(cards_of(boxes))
    assert show is not None and show.starter == 12
    assert groups_as_sets(show) == [frozenset(range(0, 4)), frozenset(range(4, 8)), frozenset(range(8, 12))]


def test_a_named_starter_not_in_the_photo_leaves_every_card_in_a_group():
    boxes = row(0, 300) + row(200, 300) + row(100, 0)
    show = split_show(cards_of(boxes), starter_in_photo=False)
    assert show is not None and show.starter is None and len(show.groups) == 3


def test_a_named_starter_in_the_photo_is_left_out_of_the_groups():
    boxes = [*row(0, 300), [110, 150, 120, 170], *row(200, 300), *row(100, 0)]
    show = split_show(cards_of(boxes), starter=4)
    assert show is not None and show.starter == 4 and all(4 not in g for g in show.groups)


def test_cards_that_cannot_make_groups_of_four_are_no_show():
    boxes = row(0, 0, count=5) + row(300, 0, count=3) + row(0, 300) + [[500, 500, 510, 520]]
    assert split_show(cards_of(boxes)) is None


def test_a_fanned_hand_and_its_starter_keep_their_usual_layout():
    boxes = [*row(0, 0, step=8), [200, 0, 210, 20]]
    layout = find_layout(cards_of(boxes))
    assert layout.groups == [[0, 1, 2, 3], [4]] and layout.starter == 4


def test_the_layout_of_a_show_photo_is_the_show():
    boxes = row(0, 300) + row(165, 300) + row(80, 0) + [[120, 150, 130, 170]]
    layout = find_layout(cards_of(boxes))
    assert len(layout.groups) == 4 and layout.groups[-1] == [12] and layout.starter == 12


# --- a drawn show read by the trained model ------------------------------------------------------------------


@pytest.mark.skipif(not (MODELS / "cribcam.json").is_file(), reason="no trained model in models/ yet")
def test_cribcam_photo_counts_every_hand_and_the_crib_of_a_show_photo(tmp_path, capsys):
    from ui.sample import show_photo

    groups = [["5H", "5C", "5S", "JD"], ["2C", "3C", "4D", "9S"], ["KH", "QH", "JH", "10H"]]
    path = tmp_path / "show.jpg"
    path.write_bytes(show_photo(groups, "5D"))
    code = main(["photo", str(path), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["starter"] == "5D", data["error"]
    shows = data["shows"]
    assert [sorted(s["cards"]) for s in shows] == [sorted(g) for g in groups]  # nearest the photographer first
    for show, group in zip(shows, groups, strict=True):
        assert show["total"] == score_hand(group, "5D").total
        assert show["crib_total"] == score_hand(group, "5D", crib=True).total
    assert shows[2]["total"] == 16 and shows[2]["crib_total"] == 12  # a four-card flush counts only in a hand
    assert np.all([s["starter"] == "5D" for s in shows])
