"""Standard four-colour twins of the package decks: blue diamonds and green clubs, spades black, hearts red.

Only one package deck is four-colour, and its colours are not the usual ones (yellow diamonds, blue spades),
so a blue diamond was never seen in training except through ``train_classifier.recolour``'s channel swaps. A
twin repaints a deck's art as a four-colour deck would print it: the red ink of every diamond blue, the black
ink of every club green (pips, indices and the court cards' drawing alike). Twins are drawn lazily, card by
card, so a worker is sent only the source cards (their paths, for package decks).

>>> ink = np.zeros((2, 2, 4), np.uint8); ink[..., 3] = 255; ink[0, 0, :3] = (200, 20, 30)
>>> repaint(ink, "D")[0, 0, :3].tolist()
[24, 82, 190]
>>> repaint(ink, "H")[0, 0, :3].tolist()
[200, 20, 30]
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

TWIN_SUFFIX = "-4c"
DIAMOND_BLUE = (24, 82, 190)
CLUB_GREEN = (16, 110, 48)
INK = {"D": DIAMOND_BLUE, "C": CLUB_GREEN}
"""The suits a twin repaints, and their new ink."""


def twin_name(name: str) -> str:
    """The name of a deck's four-colour twin."""
    return name + TWIN_SUFFIX


def repaint(rgba: np.ndarray, suit: str) -> np.ndarray:
    """``rgba`` with the suit's ink in its ``INK`` colour: red ink for diamonds, black ink for clubs; others as
    they are."""
    if suit not in INK:
        return rgba
    rgb = rgba[..., :3].astype(np.float32)
    top, low = rgb.max(axis=2), rgb.min(axis=2)
    if suit == "D":  # how red: red well above green and blue
        weight = np.clip((rgb[..., 0] - np.maximum(rgb[..., 1], rgb[..., 2]) - 40) / 80, 0, 1)
        shade = rgb[..., 0:1] / 200
    else:  # how black: dark and grey
        weight = np.clip((140 - top) / 80, 0, 1) * np.clip(1 - (top - low) / 80, 0, 1)
        shade = 1 - (140 - top[..., None]).clip(0, 140) / 560
    painted = np.clip(np.float32(INK[suit]) * shade, 0, 255)
    out = rgba.copy()
    out[..., :3] = np.round(rgb + (painted - rgb) * weight[..., None]).astype(np.uint8)
    return out


@dataclass
class TwinCard:
    """A card of a four-colour twin: the source card's corners, and its art repainted when first asked for."""

    source: Any
    suit: str
    _painted: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def corners(self) -> np.ndarray:
        return self.source.corners

    def image(self) -> np.ndarray:
        if self._painted is None:
            self._painted = repaint(self.source.image(), self.suit)
        return self._painted


def four_colour_twin(deck: Any) -> Any:
    """A four-colour twin of a deck (``cardart.Deck`` or a test deck), named ``<name>-4c``."""
    cards = {name: TwinCard(card, suit=name[-1]) for name, card in deck.cards.items()}
    return replace(deck, name=twin_name(deck.name), four_colour=True, cards=cards)


def with_twins(decks: list[Any], val: list[str]) -> tuple[list[Any], list[str]]:
    """``decks`` and a twin of each two-colour one whose twin name is free; a val deck's twin is a val deck too
    (never in train)."""
    names = {d.name for d in decks}
    twins = [four_colour_twin(d) for d in decks if not d.four_colour and twin_name(d.name) not in names]
    made = {t.name for t in twins}
    return decks + twins, val + [twin_name(name) for name in val if twin_name(name) in made]
