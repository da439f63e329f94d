"""scripts/false_cards.py: each false card gets one kind, the first that holds; a bad folder one sentence."""

from __future__ import annotations

from collections import Counter

import numpy as np
from conftest import load_script


def _script():
    return load_script("false_cards")


def test_false_kind_takes_the_first_that_holds():
    kind = _script().false_kind
    none = np.zeros((1, 0))
    assert kind(np.array([[0.6, 0.2]]), np.array([[0.9]])) == "misread"
    assert kind(np.array([[0.3]]), np.array([[0.9]])) == "poor box"
    assert kind(np.array([[0.05]]), np.array([[0.4]])) == "on a decoy"
    assert kind(np.array([[0.05]]), np.array([[0.2]])) == "elsewhere"
    assert kind(none, none) == "elsewhere"
    assert kind(np.array([[0.0], [0.7]]), none) == "misread", "any corner of the card decides"


def test_every_false_card_is_counted_once_and_a_bad_folder_gets_one_sentence(two_deck_set, capsys, monkeypatch):
    from vision.detector import CardDetector
    from vision.training.evaluate import synthetic_photos

    script = _script()
    detector = CardDetector()
    read: Counter = Counter()
    falses: list[dict] = []
    for photo in synthetic_photos(two_deck_set, "val", 2):
        mine, cards = script.photo_false_cards(detector, photo, np.zeros((0, 4), np.float32), None)
        falses += mine
        read += cards
    assert read["read"] > 0 and read["alone"] <= read["read"]
    assert len(falses) <= read["read"]
    assert all(f["kind"] in script.KINDS and f["corners"] >= 1 for f in falses)
    assert script.summary(falses, read).startswith(f"{len(falses)} false cards of {read['read']} read")

    monkeypatch.setattr("sys.argv", ["false_cards.py", str(two_deck_set), str(two_deck_set.parent / "nothing")])
    assert script.main() == 2
    assert (
        capsys.readouterr().err.strip()
        == f"Not a 'cribcam synth' set with a val split: {two_deck_set.parent / 'nothing'}."
    )
