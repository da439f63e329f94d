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


def test_a_card_read_on_its_own_covered_corner_is_own_corner_unless_it_lies_on_another_card():
    kind = _script().false_kind
    none = np.zeros((1, 0))
    assert kind(np.array([[0.3]]), none, own=True) == "own corner", "before poor box"
    assert kind(np.array([[0.6]]), none, own=True) == "misread", "another card's labelled corner wins"
    assert kind(np.array([[0.3]]), none, own=False) == "poor box"
    assert kind(none, none) == "elsewhere"


def test_corner_quads_are_read_by_card_covered_or_not(two_deck_set):
    import json

    from vision.training.classifier_data import corner_quads_of, read_scene

    def quads(path):
        return corner_quads_of(read_scene(path))

    scene = sorted((two_deck_set / "cards" / "val").glob("*.json"))[0]
    cards = json.loads(scene.read_text())["cards"]
    found = quads(scene)
    assert set(found) == {card["class"] for card in cards}
    assert sum(len(boxes) for boxes in found.values()) == sum(len(card["corners"]) for card in cards)
    hidden = [c for card in cards for c in card["corners"] if not c["visible"]]
    assert hidden, "a scene of fans hides some corners: their quads are kept too"
    assert all((boxes[:, 2:] > boxes[:, :2]).all() for boxes in found.values())
    assert quads(two_deck_set / "nothing.json") == {}


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
    assert 0 <= read["flagged"] <= read["read"] and all(isinstance(f["flagged"], bool) for f in falses)
    assert all(f["flagged"] == (f["confidence"] < script.check_below(detector)) for f in falses)
    assert script.summary(falses, read).startswith(f"{len(falses)} false cards of {read['read']} read")

    monkeypatch.setattr("sys.argv", ["false_cards.py", str(two_deck_set), str(two_deck_set.parent / "nothing")])
    assert script.main() == 2
    assert (
        capsys.readouterr().err.strip()
        == f"Not a 'cribcam synth' set with a val split: {two_deck_set.parent / 'nothing'}."
    )


def test_misreads_are_counted_by_deck_with_each_decks_commonest():
    from scorer.cards import Card

    summary = _script().summary
    club, spade, five, jack = (Card.parse(c).index for c in ("4C", "4S", "5H", "JH"))
    falses = [
        {"kind": "misread", "card": spade, "true": club, "confidence": 0.9, "corners": 2, "deck": "gnome-paris"},
        {"kind": "misread", "card": spade, "true": club, "confidence": 0.8, "corners": 1, "deck": "gnome-paris"},
        {"kind": "misread", "card": jack, "true": five, "confidence": 0.7, "corners": 2, "deck": "gnome-paris"},
        {"kind": "misread", "card": jack, "true": five, "confidence": 0.6, "corners": 2, "deck": "kde-jolly-royal"},
        {"kind": "elsewhere", "card": jack, "confidence": 0.5, "corners": 1, "deck": "kde-jolly-royal"},
    ]
    lines = summary(falses, Counter(read=20, alone=3)).splitlines()
    assert lines[-1] == "  misreads by deck (commonest): gnome-paris 3 (suit C>S 2), kde-jolly-royal 1 (5>J 1)"
    assert "by deck" not in summary([{**f, "deck": None} for f in falses], Counter(read=20, alone=3))


def test_the_cards_not_flagged_to_check_have_their_own_precision():
    from scorer.cards import Card

    summary = _script().summary
    spade, club = Card.parse("4S").index, Card.parse("4C").index
    falses = [
        {"kind": "misread", "card": spade, "true": club, "confidence": 0.5, "corners": 1, "flagged": True},
        {"kind": "elsewhere", "card": spade, "confidence": 0.95, "corners": 1, "flagged": False},
    ]
    read = Counter(read=20, alone=3, flagged=4)
    last = summary(falses, read, check=0.9).splitlines()[-1]
    # 16 cards stated without asking, one of them false
    assert last == (
        "  flagged to check (under 0.9): 1 of the 2 false cards, 4 of the 20 read; "
        "precision of the cards not flagged 0.9375 (15 of 16)"
    )
    assert "flagged" not in summary(falses, read)  # no threshold given: no line
