"""scripts/false_cards.py: each false card gets one kind, the first that holds; a bad folder one sentence."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]


def _script():
    spec = importlib.util.spec_from_file_location("false_cards", REPO / "scripts" / "false_cards.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_false_kind_takes_the_first_that_holds():
    kind = _script().false_kind
    none = np.zeros((1, 0))
    assert kind(np.array([[0.6, 0.2]]), np.array([[0.9]])) == "misread"
    assert kind(np.array([[0.3]]), np.array([[0.9]])) == "poor box"
    assert kind(np.array([[0.05]]), np.array([[0.4]])) == "on a decoy"
    assert kind(np.array([[0.05]]), np.array([[0.2]])) == "elsewhere"
    assert kind(none, none) == "elsewhere"
    assert kind(np.array([[0.0], [0.7]]), none) == "misread", "any corner of the card decides"


def test_every_false_card_is_counted_once_and_a_bad_folder_gets_one_sentence(tmp_path, capsys, monkeypatch):
    from collections import Counter

    from vision.detector import CardDetector
    from vision.training.evaluate import synthetic_photos
    from vision.training.synth import generate
    from vision.training.synth.testdeck import make_test_deck

    if not (REPO / "models" / "cribcam.json").is_file():
        pytest.skip("needs the shipped models")
    script = _script()
    decks = [make_test_deck("a"), make_test_deck("b")]
    generate(tmp_path / "set", n=4, seed=3, imgsz=640, val_fraction=0.5, decks=decks, val_decks=["b"], progress=False)
    detector = CardDetector()
    read: Counter = Counter()
    falses: list[dict] = []
    for photo in synthetic_photos(tmp_path / "set", "val", 2):
        mine, cards = script.photo_false_cards(detector, photo, np.zeros((0, 4), np.float32), None)
        falses += mine
        read += cards
    assert read["read"] > 0 and read["alone"] <= read["read"]
    assert len(falses) <= read["read"]
    assert all(f["kind"] in script.KINDS and f["corners"] >= 1 for f in falses)
    assert script.summary(falses, read).startswith(f"{len(falses)} false cards of {read['read']} read")

    monkeypatch.setattr("sys.argv", ["false_cards.py", str(tmp_path / "set"), str(tmp_path / "nothing")])
    assert script.main() == 2
    assert capsys.readouterr().err.strip() == f"Not a 'cribcam synth' set with a val split: {tmp_path / 'nothing'}."
