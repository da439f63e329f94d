"""Detections, NMS, the tiling decision and merge, and corners merged into cards (handcrafted boxes)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.cards import Card
from vision.cards_from_corners import LOW_CONFIDENCE, Conflict, cards_from_corners
from vision.detections import Detections, box_iou, nms_fused, nms_indices
from vision.detector import MAX_UPSCALE, merge_tiles, tile_overlap, tile_side, tile_windows

CARD = {name: Card.parse(name).index for name in ("AS", "5H", "5C", "5S", "JD", "5D", "7H", "KC", "7S", "7D")}


def corner(x: float, y: float, w: float = 20, h: float = 40) -> list[float]:
    return [x, y, x + w, y + h]


# --- Detections -------------------------------------------------------------------------------------------


def test_detections_keep_rows_aligned_through_filter_index_and_concat():
    d = Detections([corner(0, 0), corner(100, 0), corner(200, 0)], [0.9, 0.5, 0.8], [0, 1, 2], [0.7, 0.6, 0.5])
    kept = d.filter(d.confidence > 0.6)
    assert kept.class_id.tolist() == [0, 2] and kept.corner_confidence.tolist() == pytest.approx([0.7, 0.5])
    both = Detections.concat([kept, d[1]])
    assert len(both) == 3 and [str(c) for c in both.cards] == ["AS", "3S", "2S"]
    assert both.xyxy.dtype == np.float32 and both.class_id.dtype == np.int64


def test_the_runner_up_card_stays_with_its_row_and_is_none_unless_given():
    d = Detections([corner(0, 0), corner(100, 0)], [0.9, 0.5], [0, 1], [0.7, 0.6], [5, 7])
    assert Detections.concat([d[1], d.filter(d.confidence > 0.6)]).runner_up.tolist() == [7, 5]
    assert d.scaled(2.0, 2.0, 1.0, 1.0).runner_up.tolist() == [5, 7]
    assert Detections([corner(0, 0)], [0.9]).runner_up.tolist() == [-1] and len(Detections.empty().runner_up) == 0
    with pytest.raises(ValueError, match="runner_up must have one value per box"):
        Detections([corner(0, 0)], [0.9], [0], [0.9], [1, 2])


def test_detections_refuse_misaligned_arrays():
    with pytest.raises(ValueError, match="one value per box"):
        Detections([corner(0, 0), corner(5, 5)], [0.9])


def test_empty_detections_have_the_right_shapes():
    d = Detections.empty()
    assert d.xyxy.shape == (0, 4) and len(d.nms()) == 0 and d.cards == []


def test_nms_keeps_the_best_of_overlapping_boxes_and_all_separate_ones():
    d = Detections([corner(0, 0), corner(2, 1), corner(100, 100)], [0.5, 0.9, 0.7], [1, 1, 1])
    kept = d.nms(0.5)
    assert sorted(kept.xyxy[:, 0].tolist()) == [2.0, 100.0]


def test_nms_by_class_keeps_overlapping_boxes_of_different_cards():
    d = Detections([corner(0, 0), corner(1, 1)], [0.9, 0.8], [3, 4])
    assert len(d.nms(0.5)) == 1 and len(d.nms(0.5, by_class=True)) == 2


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 200), st.integers(0, 200), st.integers(5, 60)), min_size=1, max_size=30))
def test_nms_leaves_no_pair_above_the_threshold(boxes):
    xyxy = np.array([[x, y, x + s, y + s] for x, y, s in boxes], np.float32)
    scores = np.linspace(1, 0.1, len(boxes))
    kept = Detections(xyxy, scores).nms(0.5)
    overlaps = box_iou(kept.xyxy, kept.xyxy)
    np.fill_diagonal(overlaps, 0)
    assert (overlaps <= 0.5).all()


# --- tiling ------------------------------------------------------------------------------------------------


def test_one_pass_is_enough_when_corners_are_big_at_the_detector_input():
    first = Detections([corner(0, 0, 40, 60)] * 3, [0.9] * 3)
    assert tile_side(first, (1200, 1200), (640, 640)) is None  # 60 px -> 32 px at the input


def test_small_corners_in_a_big_photo_are_tiled_to_magnify_them():
    first = Detections([corner(0, 0, 20, 30)] * 3, [0.9] * 3)  # 30 px -> 9.5 px at the input
    side = tile_side(first, (1512, 2016), (640, 640))
    assert side is not None and 640 <= side < 1000  # about 4x magnification, capped at the image's pixels


def test_nothing_found_in_a_big_photo_tries_tiles_at_twice_the_magnification():
    assert tile_side(Detections.empty(), (1512, 2016), (640, 640)) == pytest.approx(1008)


def test_a_photo_barely_bigger_than_the_input_is_never_tiled_when_nothing_was_found():
    assert tile_side(Detections.empty(), (600, 800), (640, 640)) is None


def test_tiny_corners_in_a_small_photo_are_magnified_past_its_pixels_at_most_twice():
    first = Detections([corner(0, 0, 8, 12)] * 3, [0.9] * 3)  # 12 px at the input of a 640 px photo
    assert tile_side(first, (640, 640), (640, 640)) == pytest.approx(640 / MAX_UPSCALE)
    big = Detections([corner(0, 0, 20, 30)] * 3, [0.9] * 3)  # 30 px: read in one pass
    assert tile_side(big, (640, 640), (640, 640)) is None


@settings(max_examples=40, deadline=None)
@given(st.integers(100, 3000), st.integers(100, 3000), st.integers(200, 1200), st.floats(0, 150))
def test_tile_windows_cover_the_image_with_the_overlap(width, height, side, overlap):
    windows = tile_windows(width, height, side, overlap)
    covered = np.zeros((height, width), bool)
    for x1, y1, x2, y2 in windows:
        assert 0 <= x1 < x2 <= width and 0 <= y1 < y2 <= height
        covered[y1:y2, x1:x2] = True
    assert covered.all()
    xs = sorted({w[0] for w in windows})
    tile_w = windows[0][2] - windows[0][0]
    for a, b in itertools.pairwise(xs):
        assert a + tile_w - b >= min(overlap, tile_w / 2) - 1  # tiles step at least half a tile


def test_overlap_is_big_enough_for_the_largest_corner():
    first = Detections([corner(0, 0, 30, 90)], [0.9])
    assert tile_overlap(500, first) == pytest.approx(135)
    assert tile_overlap(500, Detections.empty()) == pytest.approx(50)


def test_one_huge_box_in_the_first_pass_does_not_make_thousands_of_tiles():
    first = Detections([corner(0, 0, 20, 30)] * 5 + [corner(0, 0, 200, 300)], [0.9] * 6)  # a card taken for a corner
    side = 320.0
    overlap = tile_overlap(side, first)
    assert overlap == pytest.approx(side / 2)
    assert len(tile_windows(640, 640, side, overlap)) == 9
    assert len(tile_windows(640, 640, side, 10 * side)) == 9  # even an overlap past the tile's side


def test_merge_drops_boxes_cut_by_an_inner_tile_edge_and_duplicates_across_tiles():
    left, right = (0, 0, 600, 600), (500, 0, 1100, 600)
    whole = corner(540, 100)  # x 540..560: inside both tiles
    cut = [580, 300, 600, 340]  # touches the left tile's right edge: the right tile sees it whole
    in_left = Detections([corner(540, 100), cut], [0.8, 0.9])
    in_right = Detections([corner(40, 100), corner(80, 300)], [0.7, 0.95])  # tile pixels
    merged = merge_tiles(Detections.empty(), [(left, in_left), (right, in_right)], (1100, 600), iou=0.5)
    assert sorted(map(tuple, merged.xyxy.tolist())) == sorted([tuple(whole), (580.0, 300.0, 600.0, 340.0)])
    assert merged.corner_confidence.max() == pytest.approx(0.95)


def greedy_nms(xyxy: np.ndarray, scores: np.ndarray, iou: float) -> list[int]:
    """Textbook greedy NMS, one box at a time: the reference ``nms_indices`` must agree with."""
    kept: list[int] = []
    for i in sorted(range(len(xyxy)), key=lambda k: -scores[k]):
        if all(box_iou(xyxy[i], xyxy[j])[0, 0] <= iou for j in kept):
            kept.append(i)
    return kept


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 100), st.integers(0, 100), st.integers(5, 40), st.floats(0.01, 1)), max_size=25),
    st.sampled_from([0.3, 0.5, 0.7]),
)
def test_nms_keeps_what_textbook_greedy_nms_keeps(boxes, iou):
    xyxy = np.array([[x, y, x + s, y + s] for x, y, s, _ in boxes], np.float32).reshape(-1, 4)
    scores = np.array([c for *_, c in boxes])
    assert sorted(nms_indices(xyxy, scores, iou).tolist()) == sorted(greedy_nms(xyxy, scores, iou))
    assert sorted(nms_fused(xyxy, scores, iou)[0].tolist()) == sorted(greedy_nms(xyxy, scores, iou))


def test_a_box_near_two_kept_ones_is_averaged_into_the_one_that_suppressed_it():
    xyxy = np.array([[0, 0, 10, 10], [6, 0, 16, 10], [3, 0, 13, 10]], np.float32)
    keep, fused = nms_fused(xyxy, np.array([0.9, 0.8, 0.7]), 0.3)
    assert keep.tolist() == [0, 1]  # box 2 overlaps both; box 0, surer, suppressed it
    np.testing.assert_allclose(fused[1], xyxy[1])  # so box 1 keeps its own place
    np.testing.assert_allclose(fused[0], (0.9 * xyxy[0] + 0.7 * xyxy[2]) / 1.6, rtol=1e-6)


def test_fused_nms_with_no_weight_leaves_the_kept_box_where_it_is():
    xyxy = np.array([corner(0, 0), corner(2, 1)], np.float32)
    keep, fused = nms_fused(xyxy, np.array([0.0, 0.0]), 0.5)
    assert keep.tolist() == [0] and fused.tolist() == [xyxy[0].tolist()]


def test_fused_nms_keeps_what_nms_keeps_at_the_weighted_mean_of_what_each_suppressed():
    xyxy = np.array([corner(0, 0), corner(2, 1), corner(100, 100), corner(1, 0)], np.float32)
    scores = np.array([0.9, 0.3, 0.8, 0.6])
    keep, fused = nms_fused(xyxy, scores, 0.5)
    assert keep.tolist() == [0, 2]
    expected = (0.9 * xyxy[0] + 0.3 * xyxy[1] + 0.6 * xyxy[3]) / 1.8
    np.testing.assert_allclose(fused, [expected, xyxy[2]], rtol=1e-6)
    assert nms_fused(np.zeros((0, 4)), np.zeros(0), 0.5)[1].shape == (0, 4)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 200), st.integers(0, 200), st.integers(5, 60)), min_size=1, max_size=30))
def test_a_fused_box_lies_within_the_span_of_the_boxes_it_stands_for(boxes):
    xyxy = np.array([[x, y, x + s, y + s] for x, y, s in boxes], np.float32)
    scores = np.linspace(1.0, 0.1, len(xyxy))
    keep, fused = nms_fused(xyxy, scores, 0.5)
    near = box_iou(xyxy[keep], xyxy) > 0.5  # every box a kept one may have suppressed, and itself
    for row, members in zip(fused, near, strict=True):
        assert (row >= xyxy[members].min(axis=0) - 1e-3).all() and (row <= xyxy[members].max(axis=0) + 1e-3).all()


def test_tile_merge_mean_averages_two_tiles_looks_at_one_corner_by_score():
    left, right = (0, 0, 600, 600), (500, 0, 1100, 600)
    in_left = Detections([corner(540, 100)], [0.6])
    in_right = Detections([corner(44, 104)], [0.9])  # the same corner, 4 px right and down (tile pixels)
    parts = [(left, in_left), (right, in_right)]
    surest = merge_tiles(Detections.empty(), parts, (1100, 600), iou=0.5)
    mean = merge_tiles(Detections.empty(), parts, (1100, 600), iou=0.5, fuse=True)
    assert surest.xyxy.tolist() == [corner(544, 104)]
    np.testing.assert_allclose(mean.xyxy, [np.array(corner(542.4, 102.4))], rtol=1e-6)
    assert mean.corner_confidence.tolist() == pytest.approx([0.9])


def test_merge_keeps_boxes_on_the_image_border():
    tile = (0, 0, 600, 600)
    on_border = Detections([corner(0, 0)], [0.9])
    merged = merge_tiles(Detections.empty(), [(tile, on_border)], (1100, 600), iou=0.5)
    assert len(merged) == 1


# --- corners to cards --------------------------------------------------------------------------------------


def test_two_corners_of_one_card_merge_into_one_card_with_the_best_confidence():
    corners = Detections([corner(0, 0), corner(130, 180)], [0.7, 0.95], [CARD["7H"]] * 2, [0.8, 0.6])
    found = cards_from_corners(corners)
    assert [str(c) for c in found.cards.cards] == ["7H"]
    assert found.cards.confidence[0] == pytest.approx(0.95)
    assert found.cards.xyxy[0].tolist() == corner(130, 180)
    assert found.cards.corner_confidence[0] == pytest.approx(0.8)
    assert sorted(found.members[0].tolist()) == [0, 1] and found.conflicts == []


def test_one_card_seen_far_apart_is_a_conflict_kept_once_where_it_is_surest():
    corners = Detections(
        [corner(1000, 0), corner(0, 0), corner(60, 0)], [0.8, 0.9, 0.9], [CARD["7H"], CARD["7H"], CARD["KC"]]
    )
    found = cards_from_corners(corners)
    assert sorted(str(c) for c in found.cards.cards) == ["7H", "KC"]
    seven = [str(c) for c in found.cards.cards].index("7H")
    assert found.cards.xyxy[seven].tolist() == corner(0, 0) and found.members[seven].tolist() == [1]
    assert sorted(np.concatenate(found.members).tolist()) == [1, 2], "the less sure place belongs to no card"
    assert len(found.conflicts) == 1 and found.conflicts[0].card == Card.parse("7H")
    assert found.conflicts[0].boxes.tolist() == [corner(0, 0), corner(1000, 0)], "the kept place first"
    assert found.features.shape == (2, 4) and found.to_confirm == []
    assert found.conflicts[0].message().startswith("7H is seen 2 times far apart, at (10, 20) and (1010, 20)")
    assert "only the surest, at (10, 20), is kept" in found.conflicts[0].message()


def test_a_conflicts_place_left_out_names_its_runner_up_unless_that_card_is_read_elsewhere():
    boxes = [corner(0, 0), corner(1000, 0), corner(2000, 0), corner(60, 0)]
    ids = [CARD["7H"], CARD["7H"], CARD["7H"], CARD["KC"]]
    runner_up = [CARD["7S"], CARD["7D"], CARD["KC"], -1]  # the place at 2000's runner-up, KC, is read already
    found = cards_from_corners(Detections(boxes, [0.9, 0.8, 0.7, 0.9], ids, None, runner_up))
    conflict = found.conflicts[0]
    assert conflict.instead == (Card.parse("7D"), None)
    assert conflict.message().endswith("check the photo. The card at (1010, 20) is most likely 7D.")
    assert Conflict(conflict.card, conflict.boxes).message().endswith("check the photo.")  # none named: as before


def test_different_cards_close_together_stay_separate():
    corners = Detections([corner(0, 0), corner(25, 0)], [0.9, 0.9], [CARD["5H"], CARD["5C"]])
    assert len(cards_from_corners(corners).cards) == 2


def test_low_confidence_cards_are_flagged_to_confirm():
    corners = Detections([corner(0, 0), corner(100, 0)], [0.95, LOW_CONFIDENCE - 0.1], [CARD["5H"], CARD["5C"]])
    found = cards_from_corners(corners)
    assert [str(found.cards.cards[i]) for i in found.to_confirm] == ["5C"]


def test_cards_come_in_reading_order_left_to_right():
    corners = Detections(
        [corner(300, 0), corner(0, 0), corner(150, 0)], [0.9] * 3, [CARD["AS"], CARD["KC"], CARD["JD"]]
    )
    assert [str(c) for c in cards_from_corners(corners).cards.cards] == ["KC", "JD", "AS"]
