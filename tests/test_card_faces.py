"""vision.card_faces: corners out of line with the photo's other corners and read unsure are not indices."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from scorer.cards import Card
from vision.card_faces import (
    OVERSIZE,
    SURE,
    UNDERSIZE,
    UNSURE,
    drop_face_patterns,
    median_of_others,
    oversized,
    undersized,
)
from vision.detections import Detections

TEN_D, FOUR_D, AS = Card.parse("10D").index, Card.parse("4D").index, Card.parse("AS").index


def index_boxes(count: int, side: float = 20.0) -> np.ndarray:
    """``count`` corner-index boxes ``side`` px high (half as wide), in a row."""
    return np.array([[60 * i, 0, 60 * i + side / 2, side] for i in range(count)], dtype=np.float32)


def test_pip_block_twice_the_index_size_read_unsure_is_dropped():
    # a ten's two corners, an ace's corner, and its centre pips read as a four: a box twice the size
    boxes = np.vstack([index_boxes(3), [[100, 100, 140, 140]]]).astype(np.float32)
    corners = Detections(boxes, [0.95, 0.93, 0.9, 0.32], [TEN_D, TEN_D, AS, FOUR_D])
    kept = drop_face_patterns(corners)
    assert [str(c) for c in kept.cards] == ["10D", "10D", "AS"]


def test_oversized_corner_read_sure_is_kept():
    boxes = np.vstack([index_boxes(3), [[100, 100, 140, 140]]]).astype(np.float32)
    corners = Detections(boxes, [0.95, 0.93, 0.9, SURE], [TEN_D, TEN_D, AS, FOUR_D])
    assert not oversized(corners).any()


def test_small_lone_corner_read_unsure_is_dropped():
    # a printed label or a calendar cell read as a card: a third the size of the indices, read 0.31
    boxes = np.vstack([index_boxes(3), [[100, 100, 104, 108]]]).astype(np.float32)
    corners = Detections(boxes, [0.95, 0.93, 0.9, 0.31], [TEN_D, TEN_D, AS, FOUR_D])
    assert undersized(corners).tolist() == [False, False, False, True]


def test_small_corner_confirmed_by_another_corner_of_its_card_is_kept():
    boxes = np.vstack([index_boxes(3), [[100, 100, 104, 108]]]).astype(np.float32)
    corners = Detections(boxes, [0.95, 0.93, 0.9, 0.31], [TEN_D, TEN_D, AS, AS])
    assert len(drop_face_patterns(corners)) == 4


def test_small_corner_read_fairly_sure_is_kept():
    boxes = np.vstack([index_boxes(3), [[100, 100, 104, 108]]]).astype(np.float32)
    corners = Detections(boxes, [0.95, 0.93, 0.9, UNSURE], [TEN_D, TEN_D, AS, FOUR_D])
    assert len(drop_face_patterns(corners)) == 4


def test_lone_corner_is_kept_whatever_its_size():
    corners = Detections([[0, 0, 200, 300]], [0.31], [FOUR_D])
    assert len(drop_face_patterns(corners)) == 1


def test_size_is_judged_against_the_other_corners_not_itself():
    # one index and one pip block: against a median of both (the pair's mean) the block would pass
    corners = Detections([[0, 0, 10, 20], [50, 50, 90, 90]], [0.95, 0.4], [TEN_D, FOUR_D])
    assert oversized(corners).tolist() == [False, True]


@given(
    st.lists(st.floats(min_value=10.0, max_value=10.0 * min(OVERSIZE, 1 / UNDERSIZE)), min_size=1, max_size=30),
    st.lists(st.floats(min_value=0.3, max_value=1.0), min_size=30, max_size=30),
)
def test_corners_within_the_size_ratios_of_each_other_are_all_kept(sides, probs):
    boxes = np.array([[40 * i, 0, 40 * i + s / 2, s] for i, s in enumerate(sides)], dtype=np.float32)
    corners = Detections(boxes, probs[: len(sides)], [FOUR_D] * len(sides))
    assert len(drop_face_patterns(corners)) == len(sides)


@given(st.lists(st.floats(min_value=0.0, max_value=1000.0), min_size=2, max_size=40))
def test_median_of_others_leaves_each_value_out(values):
    values = np.array(values)
    expected = [np.median(np.delete(values, i)) for i in range(len(values))]
    assert np.allclose(median_of_others(values), expected)
