"""scripts/card_losses.py: every labelled card lands in exactly one outcome, and misreads are named by kind."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from scorer.cards import Card

REPO = Path(__file__).resolve().parents[1]


def _script():
    spec = importlib.util.spec_from_file_location("card_losses", REPO / "scripts" / "card_losses.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_misread_kind_names_a_wrong_rank_or_a_wrong_suit():
    kind = _script().misread_kind
    assert kind(Card.parse("6H"), Card.parse("10H")) == "6>10"
    assert kind(Card.parse("5C"), Card.parse("JD")) == "5>J"
    assert kind(Card.parse("4D"), Card.parse("4S")) == "suit D>S"


def test_each_labelled_card_has_one_outcome_and_a_bad_folder_one_sentence(tmp_path, capsys, monkeypatch):
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
    photos = synthetic_photos(tmp_path / "set", "val", 2)
    cards = sum(len(set(photo.class_ids.tolist())) for photo in photos)
    assert cards > 0
    outcomes = sum((script.card_outcomes(detector, photo)[0] for photo in photos), start=Counter())
    assert sum(outcomes.values()) == cards
    assert set(outcomes) <= set(script.OUTCOMES)
    assert outcomes["read right"] > 0

    monkeypatch.setattr("sys.argv", ["card_losses.py", str(tmp_path / "set"), str(tmp_path / "nothing")])
    assert script.main() == 2
    out, err = capsys.readouterr()
    assert out.startswith("set: ")
    assert err.strip() == f"{tmp_path / 'nothing'} is not a 'cribcam synth' set with a val split."
