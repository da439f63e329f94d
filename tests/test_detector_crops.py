"""Scale-keeping detector crops: boxes follow the crop, cut corners are dropped, scale is the reading scale."""

import numpy as np

from vision.training.classifier_data import read_yolo_labels
from vision.training.detector_crops import at_reading_scale, boxes_in_crop, crop_windows, write_crops


def test_boxes_in_crop_shift_and_drop_mostly_cut_corners():
    boxes = np.array([[110, 120, 130, 150], [195, 100, 215, 120], [300, 300, 320, 330]], np.float32)
    kept = boxes_in_crop(boxes, 100, 100, 100)
    # first box whole inside; second only a quarter inside (dropped); third outside
    np.testing.assert_allclose(kept, [[10, 20, 30, 50]])
    half_in = boxes_in_crop(np.array([[90, 100, 110, 120]], np.float32), 96, 100, 100)
    np.testing.assert_allclose(half_in, [[0, 0, 14, 20]])  # 70% inside: kept, clipped at the edge


def test_reading_scale_shrinks_big_photos_only():
    big = np.zeros((1280, 960, 3), np.uint8)
    image, boxes = at_reading_scale(big, np.array([[100, 200, 140, 260]], np.float32), 640)
    assert image.shape[:2] == (640, 480)
    np.testing.assert_allclose(boxes, [[50, 100, 70, 130]])
    small = np.zeros((300, 200, 3), np.uint8)
    assert at_reading_scale(small, np.zeros((0, 4), np.float32), 640)[0] is small


def test_windows_stay_inside_and_near_the_boxes():
    rng = np.random.default_rng(0)
    boxes = np.array([[500, 500, 520, 530]], np.float32)
    for left, top in crop_windows(640, 640, boxes, 320, 50, rng):
        assert 0 <= left <= 320 and 0 <= top <= 320
        assert left <= 520 and left + 320 >= 500  # the crop overlaps the only box
    assert crop_windows(200, 100, boxes[:0], 320, 3, rng) == [(0, 0)] * 3  # photo smaller than the crop


def test_write_crops_round_trips_labels(tmp_path):
    image = np.full((640, 640, 3), 255, np.uint8)
    boxes = np.array([[300, 300, 320, 330]], np.float32)
    assert write_crops([("photo", image, boxes)], tmp_path, 160, 4, seed=3) == 4
    for label in sorted((tmp_path / "labels").glob("*.txt")):
        assert (tmp_path / "images" / f"{label.stem}.jpg").exists()
        found, ids = read_yolo_labels(label, 160, 160)
        assert len(found) == 1 and ids.tolist() == [0]
        w, h = found[0, 2] - found[0, 0], found[0, 3] - found[0, 1]
        assert abs(w - 20) < 0.01 and abs(h - 30) < 0.01  # whole and at the photo's scale
