"""scripts/card_losses.py: every labelled card lands in exactly one outcome, and misreads are named by kind."""

from __future__ import annotations

from collections import Counter

from conftest import load_script

from scorer.cards import Card


def _script():
    return load_script("card_losses")


def test_misread_kind_names_a_wrong_rank_or_a_wrong_suit():
    kind = _script().misread_kind
    assert kind(Card.parse("6H"), Card.parse("10H")) == "6>10"
    assert kind(Card.parse("5C"), Card.parse("JD")) == "5>J"
    assert kind(Card.parse("4D"), Card.parse("4S")) == "suit D>S"


def test_each_labelled_card_has_one_outcome_and_a_bad_folder_one_sentence(two_deck_set, capsys, monkeypatch):
    from vision.detector import CardDetector
    from vision.training.evaluate import synthetic_photos

    script = _script()
    detector = CardDetector()
    photos = synthetic_photos(two_deck_set, "val", 2)
    cards = sum(len(set(photo.class_ids.tolist())) for photo in photos)
    assert cards > 0
    outcomes = sum((script.card_outcomes(detector, photo)[0] for photo in photos), start=Counter())
    assert sum(outcomes.values()) == cards
    assert set(outcomes) <= set(script.OUTCOMES)
    assert outcomes["read right"] > 0

    monkeypatch.setattr("sys.argv", ["card_losses.py", str(two_deck_set), str(two_deck_set.parent / "nothing")])
    assert script.main() == 2
    out, err = capsys.readouterr()
    assert out.startswith("set: ")
    assert err.strip() == f"{two_deck_set.parent / 'nothing'} is not a 'cribcam synth' set with a val split."
