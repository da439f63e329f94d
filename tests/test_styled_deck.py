"""Styled procedural decks: deterministic, exact index quads, usable by the generator and the CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest

from scorer.cards import CLASS_NAMES
from vision.training.synth import generate
from vision.training.synth import styled_deck as sd


def _crop(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    x1, y1 = np.floor(quad.min(0)).astype(int)
    x2, y2 = np.ceil(quad.max(0)).astype(int)
    return image[y1:y2, x1:x2, :3].astype(np.float32)


@pytest.fixture(scope="module")
def decks():
    return [sd.make_styled_deck(seed) for seed in range(6)]


def test_same_seed_draws_the_same_deck_and_seeds_differ(decks):
    again = sd.make_styled_deck(2)
    assert np.array_equal(again.cards["7D"].image(), decks[2].cards["7D"].image())
    assert decks[0].cards["7D"].style != decks[1].cards["7D"].style


def test_every_card_has_two_or_four_quads_inside_the_card(decks):
    for deck in decks:
        assert set(deck.cards) == set(CLASS_NAMES)
        for card in deck.cards.values():
            h, w = card.image().shape[:2]
            assert card.corners.shape[0] in (2, 4)
            assert (card.corners >= 0).all() and (card.corners[..., 0] <= w).all() and (card.corners[..., 1] <= h).all()


def test_quads_hold_the_index_ink_and_the_turned_index_matches_the_upright_one(decks):
    for deck in decks:
        for name in ("10H", "QS", "AC"):
            card = deck.cards[name]
            image = card.image()
            upright, turned = _crop(image, card.corners[0]), _crop(image, card.corners[1])
            paper = np.array(card.style.paper, np.float32)
            assert (np.abs(upright - paper).max(axis=2) > 60).mean() > 0.1  # the index is inked
            assert upright.shape == turned.shape
            ink_up = np.abs(upright - paper).max(axis=2) > 60
            ink_turned = np.abs(turned[::-1, ::-1] - paper).max(axis=2) > 60
            assert (ink_up == ink_turned).mean() > 0.9


def test_quads_list_the_index_own_top_left_first(decks):
    card = decks[0].cards["5S"]
    top, bottom = card.corners[0], card.corners[1]
    assert top[0, 1] < top[3, 1]  # upright: its top edge is above its bottom edge
    assert bottom[0, 1] > bottom[3, 1]  # turned half round: its own top edge is lowest on the card


def test_without_system_fonts_the_deck_still_draws(monkeypatch):
    monkeypatch.setattr(sd, "letter_fonts", lambda: ())
    monkeypatch.setattr(sd, "suit_fonts", lambda: ())
    deck = sd.make_styled_deck(11)
    assert deck.cards["KD"].style.font is None
    assert deck.cards["KD"].image()[..., 3].max() == 255


def test_generator_draws_scenes_from_styled_decks(tmp_path, decks):
    val = [decks[0].name]
    stats = generate(tmp_path, n=6, seed=1, imgsz=256, workers=1, decks=decks[:3], val_decks=val, progress=False)
    assert stats["decks"]["val"] == [decks[0].name]
    assert stats["boxes"] > 0


def test_cli_trains_on_styled_decks_only_and_keeps_val_decks(tmp_path, capsys):
    from cribcam.cli import main

    args = ["synth", "--out", str(tmp_path), "--n", "4", "--imgsz", "128", "--workers", "1", "--test-deck"]
    assert main([*args, "--styled", "2", "--styled-only", "--json"]) == 0
    decks = json.loads(capsys.readouterr().out)["decks"]
    assert decks["train"] == ["styled-000", "styled-001"]
    assert len(decks["val"]) == 1 and decks["val"][0].startswith("test")


def _drawn(suit: str, shape: tuple[float, float, float, float]) -> np.ndarray:
    canvas = np.zeros((100, 100, 3), np.uint8)
    sd._drawn_pip(canvas, suit, 50, 50, 40, shape)
    return canvas[..., 0] > 127


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    return float((a & b).sum() / (a | b).sum())


def _top_share(mask: np.ndarray) -> float:
    """The share of a pip's ink in the top quarter of its height: a spade's point holds less than a club's lobe."""
    rows = np.nonzero(mask.any(1))[0]
    return float(mask[rows[0] : rows[0] + (rows[-1] - rows[0] + 1) // 4].sum() / mask.sum())


def test_drawn_clubs_and_spades_take_each_deck_shape_and_stay_apart():
    plain, bold = (0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 1.0, 1.0)
    for suit in "SC":
        assert _drawn(suit, plain).sum() > 1000  # a pip, not a speck
        assert _iou(_drawn(suit, plain), _drawn(suit, bold)) < 0.8  # the deck's shape shows
    for shape in (plain, (0.5, 0.5, 0.5, 0.5), bold, (1.0, 0.0, 0.0, 0.0), (0.0, 1.0, 0.0, 0.0)):
        assert _top_share(_drawn("S", shape)) < 0.8 * _top_share(_drawn("C", shape))  # a point, not a round lobe
    assert np.array_equal(_drawn("H", plain), _drawn("H", bold))  # hearts and diamonds keep testdeck's shape


def test_a_deck_without_suit_fonts_draws_its_clubs_its_own_way(monkeypatch):
    monkeypatch.setattr(sd, "suit_fonts", lambda: ())
    styles = [sd.random_style(np.random.default_rng(seed)) for seed in range(2)]
    assert all(style.suit_font is None for style in styles) and styles[0].pip_shape != styles[1].pip_shape
    masks = [sd._pip_mask("C", style, 40) for style in styles]
    assert all(mask.shape[0] == 40 for mask in masks)
    assert masks[0].shape != masks[1].shape or not np.array_equal(masks[0], masks[1])
