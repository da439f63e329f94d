"""scripts/tiling_sweep.py: a setting changes only the tiling, is undone for the next, and a bad one is refused."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import MODELS, ROOT, load_script

import vision.detector as detector_module
from vision.detections import Detections


def test_a_setting_tiles_more_and_keeps_the_close_up_target(monkeypatch):
    sweep = load_script("tiling_sweep")
    monkeypatch.setattr(detector_module, "tile_side", detector_module.tile_side)
    monkeypatch.setattr(detector_module, "MIN_CORNER_PX", detector_module.MIN_CORNER_PX)
    first = Detections([[0, 0, 40, 60]] * 3, [0.9] * 3)  # 30 px at the input of a 1280 px photo
    shipped_min, close_up_target = detector_module.MIN_CORNER_PX, detector_module.TARGET_CORNER_PX
    assert detector_module.tile_side(first, (1280, 1280), (640, 640)) is None
    sweep.use_tiling(34, 50)
    assert detector_module.tile_side(first, (1280, 1280), (640, 640)) == pytest.approx(1280 / (50 / 30))
    assert close_up_target == detector_module.TARGET_CORNER_PX  # close-ups are shrunk as before
    sweep.use_tiling(shipped_min, close_up_target)
    assert detector_module.tile_side(first, (1280, 1280), (640, 640)) is None


def test_a_bad_setting_gets_one_sentence(tmp_path):
    cmd = [sys.executable, str(ROOT / "scripts" / "tiling_sweep.py"), "34", "--sets", str(tmp_path), "--cache", "x"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == "Each setting is MIN:TARGET, two numbers (e.g. 34:50)."


def test_a_folder_that_is_not_a_set_gets_one_sentence(tmp_path):
    cmd = [sys.executable, str(ROOT / "scripts" / "tiling_sweep.py"), "34:50", "--sets", str(tmp_path), "--cache", "x"]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == f"Not a models folder or a 'cribcam synth' set: {tmp_path}."


def test_each_detector_caches_its_own_boxes(tmp_path):
    from vision.training.quantize import float_copy

    sweep = load_script("tiling_sweep")
    floating = float_copy(MODELS, tmp_path / "float")
    assert sweep.setting_key(34, 50, MODELS).startswith("tiling_34_50_")
    assert sweep.setting_key(34, 50, MODELS) != sweep.setting_key(34, 50, floating)
