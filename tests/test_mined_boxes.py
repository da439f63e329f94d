"""A detector's boxes in training scenes become classifier samples: "not a corner" off the corners, the corner
on one."""

from __future__ import annotations

import json
import shutil

import numpy as np

from cribcam.cli import main
from vision.detector import ModelManifest
from vision.training.classifier_data import (
    MAX_MINED,
    mined_samples,
    partly_seen_of,
    read_scene,
    samples_from_image,
    samples_from_yolo,
)
from vision.training.classifier_net import NOT_A_CORNER
from vision.training.mined_boxes import MINED_BY, mined_detectors, mined_paths, move_legacy_records, read_mined

CORNERS = np.array([[10, 10, 30, 40], [100, 100, 120, 130]], np.float32)
IDS = np.array([7, 33])


def test_a_mined_box_on_a_corner_is_that_corner_and_one_on_none_is_not_a_corner():
    mined = np.array(
        [
            [101, 99, 121, 131],  # on the second corner
            [60, 60, 80, 90],  # on no corner: the pips of a ten, say
            [20, 25, 40, 55],  # half on the first corner: neither
        ],
        np.float32,
    )
    on, on_ids, off = mined_samples(mined, CORNERS, IDS, np.random.default_rng(0))
    assert on_ids.tolist() == [33]
    assert np.abs(on - mined[0]).max() < 2.5  # lightly jittered, still the detector's placing
    assert len(off) == 1 and np.abs(off - mined[1]).max() < 2.5


def test_a_mined_box_on_a_corner_too_covered_to_be_labelled_is_no_negative():
    mined = np.array([[60, 60, 80, 90], [150, 20, 170, 50]], np.float32)
    partly_seen = np.array([[59, 58, 79, 88]], np.float32)  # an index mostly under another card: still an index
    _, _, off = mined_samples(mined, CORNERS, IDS, np.random.default_rng(0), partly_seen)
    assert len(off) == 1 and np.abs(off - mined[1]).max() < 2.5


def test_the_partly_seen_corners_are_read_from_the_scenes_cards_file(tmp_path):
    corner = {"quad": [[10, 10], [30, 12], [28, 40], [9, 38]], "visible_fraction": 0.2, "visible": False, "box": None}
    hidden = {"quad": [[50, 50], [60, 50], [60, 70], [50, 70]], "visible_fraction": 0.0, "visible": False, "box": None}
    cards = tmp_path / "x.json"
    cards.write_text(json.dumps({"cards": [{"card": "5C", "class": 43, "corners": [corner, hidden]}], "decoys": []}))
    assert partly_seen_of(read_scene(cards)).tolist() == [[9, 10, 30, 40]]
    assert partly_seen_of(read_scene(tmp_path / "missing.json")).shape == (0, 4)


def test_mined_samples_are_capped_per_image_and_need_no_labels():
    mined = np.array([[x, 150, x + 10, 170] for x in range(0, 200, 12)], np.float32)
    none = np.zeros((0, 4), np.float32)
    on, on_ids, off = mined_samples(mined, none, np.zeros(0, np.int64), np.random.default_rng(1))
    assert len(on) == len(on_ids) == 0 and len(off) == MAX_MINED


def test_an_image_with_mined_boxes_gives_their_patches_too():
    rgb = np.full((200, 200, 3), 200, np.uint8)
    mined = np.array([[101, 99, 121, 131], [60, 60, 80, 90]], np.float32)
    plain, plain_labels = samples_from_image(rgb, CORNERS, IDS, np.random.default_rng(2))
    both, labels = samples_from_image(rgb, CORNERS, IDS, np.random.default_rng(2), mined=mined)
    assert len(both) == len(plain) + 2 == len(labels)
    assert (labels == 33).sum() == (plain_labels == 33).sum() + 1
    assert (labels == NOT_A_CORNER).sum() == (plain_labels == NOT_A_CORNER).sum() + 1


def test_unmined_images_read_as_having_no_mined_boxes(tmp_path):
    label = tmp_path / "labels" / "train" / "x.txt"
    assert mined_paths(label) == [] and mined_detectors(tmp_path) == []
    assert read_mined(label).shape == (0, 4)


def test_an_image_mined_by_two_detectors_reads_the_union_of_their_boxes(tmp_path):
    label = tmp_path / "labels" / "train" / "x.txt"
    for key, boxes in (("aaa", [[1, 2, 3, 4]]), ("bbb", [[5, 6, 7, 8], [9, 10, 11, 12]])):
        (tmp_path / "mined" / "train" / key).mkdir(parents=True)
        (tmp_path / "mined" / "train" / key / "x.json").write_text(json.dumps({"boxes": boxes, "confidence": []}))
        (tmp_path / "mined" / "train" / key / MINED_BY).write_text(key)
    assert read_mined(label).tolist() == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]
    assert mined_detectors(tmp_path) == ["aaa", "bbb"]


def test_a_split_mined_before_detectors_had_folders_is_read_and_then_moved_into_its_detectors(tmp_path):
    label, root = tmp_path / "labels" / "train" / "x.txt", tmp_path / "mined" / "train"
    root.mkdir(parents=True)
    (root / "x.json").write_text(json.dumps({"boxes": [[1, 2, 3, 4]], "confidence": [0.5]}))
    (root / MINED_BY).write_text("old")
    assert read_mined(label).tolist() == [[1, 2, 3, 4]] and mined_detectors(tmp_path) == ["old"]
    move_legacy_records(root)
    assert mined_paths(label) == [root / "old" / "x.json"] and not (root / MINED_BY).exists()
    assert read_mined(label).tolist() == [[1, 2, 3, 4]] and mined_detectors(tmp_path) == ["old"]


def test_mine_keeps_the_shipped_detectors_boxes_and_resumes(tmp_path, capsys):
    data = tmp_path / "data"
    synth = ["synth", "--out", str(data), "--n", "4", "--imgsz", "320", "--workers", "1", "--test-deck", "--json"]
    assert main(synth) == 0
    capsys.readouterr()
    assert main(["mine", "--data", str(data), "--workers", "1"]) == 0
    first = json.loads(capsys.readouterr().out)
    images = sorted((data / "images" / "train").glob("*.jpg"))
    assert first["images"] == first["mined_now"] == len(images) > 0
    labels = [data / "labels" / "train" / f"{p.stem}.txt" for p in images]
    kept = [read_mined(label) for label in labels]
    assert sum(len(k) for k in kept) == first["boxes_now"] > 0  # the shipped detector finds the test deck's corners
    own = data / "mined" / "train" / first["detector"]
    assert not list(own.glob("*.part"))  # each record written whole, then renamed
    assert main(["mine", "--data", str(data), "--workers", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["mined_now"] == 0  # everything kept: nothing mined again
    (data / "images" / "train" / "broken.jpg").write_bytes(b"not a photo")
    assert main(["mine", "--data", str(data), "--workers", "1"]) == 0
    counted = json.loads(capsys.readouterr().out)
    assert counted["unreadable"] == 1 and counted["mined_now"] == 0 and not (own / "broken.json").exists()
    (data / "images" / "train" / "broken.jpg").unlink()
    other = tmp_path / "other"
    shutil.copytree(ModelManifest.load().directory, other)
    manifest = json.loads((other / "cribcam.json").read_text())
    manifest["detector"]["conf"] = 0.5  # another detector setting: other boxes
    (other / "cribcam.json").write_text(json.dumps(manifest))
    assert main(["mine", "--data", str(data), "--models", str(other), "--workers", "1"]) == 0
    second = json.loads(capsys.readouterr().out)  # kept beside the first detector's, not mixed with it
    assert second["detector"] != first["detector"] and second["mined_now"] == len(images)
    assert mined_detectors(data) == sorted([first["detector"], second["detector"]])
    both = [read_mined(label) for label in labels]
    assert sum(len(b) for b in both) == first["boxes_now"] + second["boxes_now"]

    plain = samples_from_yolo(data, "train", workers=1)
    mined = samples_from_yolo(data, "train", workers=1, mined=True)
    assert len(mined[1]) > len(plain[1])


def test_training_on_mined_boxes_that_were_never_mined_is_refused_in_one_sentence(tmp_path, capsys):
    (tmp_path / "images" / "train").mkdir(parents=True)
    argv = ["train", "--data", str(tmp_path), "--models", str(tmp_path / "m"), "--classifier-mined"]
    assert main(argv) == 2
    assert "no mined boxes: run 'cribcam mine" in capsys.readouterr().err


def test_mine_refuses_a_folder_that_is_not_a_dataset_in_one_sentence(tmp_path, capsys):
    assert main(["mine", "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "is not a dataset from 'cribcam synth'" in err and err.count("\n") == 1
