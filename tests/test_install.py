"""Reading a photo needs only the reader and the shipped models: from any folder, without the factory.

The wheel itself is checked end to end by ``scripts/check_wheel.sh`` (run by ``.ci/run``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vision.model_location import MANIFEST, models_dir, shipped_models_dir

REPO = Path(__file__).resolve().parents[1]
SAMPLE_HAND = REPO / "tests" / "data" / "sample_hand.jpg"
FACTORY = ("torch", "ultralytics", "cairosvg", "vision.training")


def _python_in(folder: Path, code: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh Python in ``folder``, without ``CRIBCAM_MODELS``; it must succeed."""
    env = {k: v for k, v in os.environ.items() if k != "CRIBCAM_MODELS"}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=folder, env=env, capture_output=True, text=True, timeout=180
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result


def test_the_shipped_models_are_found_without_a_working_directory_hint(monkeypatch):
    monkeypatch.delenv("CRIBCAM_MODELS", raising=False)
    assert (shipped_models_dir() / MANIFEST).is_file()
    assert models_dir() == shipped_models_dir()


def test_cribcam_models_and_an_explicit_folder_override_the_shipped_ones(monkeypatch, tmp_path):
    monkeypatch.setenv("CRIBCAM_MODELS", str(tmp_path))
    assert models_dir() == tmp_path
    assert models_dir(tmp_path / "other") == tmp_path / "other"


def test_reading_a_photo_from_another_folder_imports_no_factory_module(tmp_path):
    code = (
        "import sys\n"
        "from vision import CardDetector, read_photo\n"
        "from ui.sample import sample_photo\n"
        "reading = read_photo(sample_photo(), CardDetector())\n"
        "print(' '.join(sorted(map(str, reading.card_list))))\n"
        f"loaded = [m for m in sys.modules if m.split('.')[0] in {FACTORY!r} or m.startswith('vision.training')]\n"
        "assert not loaded, f'reading a photo imported {loaded}'\n"
    )
    result = _python_in(tmp_path, code)
    assert result.stdout.split() == ["5C", "5D", "5H", "5S", "JD"]


def test_cribcam_photo_counts_a_committed_photo_from_another_folder(tmp_path):
    code = (
        "import sys\n"
        "from cribcam.cli import main\n"
        f"code = main(['photo', {str(SAMPLE_HAND)!r}, '--starter', '5D', '--json'])\n"
        f"loaded = [m for m in sys.modules if m.split('.')[0] in {FACTORY!r} or m.startswith('vision.training')]\n"
        "assert not loaded, f'cribcam photo imported {loaded}'\n"
        "sys.exit(code)\n"
    )
    data = json.loads(_python_in(tmp_path, code).stdout)
    assert data["score"]["total"] == 29 and data["starter"] == "5D"


@pytest.mark.parametrize("problem", ["missing", "broken"])
def test_a_missing_or_broken_models_folder_is_one_sentence_naming_the_path(tmp_path, problem):
    folder = tmp_path / "models"
    if problem == "broken":
        folder.mkdir()
        (folder / MANIFEST).write_text("{not json")
    env = {**os.environ, "CRIBCAM_MODELS": str(folder)}
    result = subprocess.run(
        [sys.executable, "-m", "cribcam.cli", "photo", str(SAMPLE_HAND)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(folder) in lines[0] and "Traceback" not in result.stderr
