"""Where the cards lie: groups (hands, the crib, the starter) and a guess at the starter.

A whole show in one photo is split by ``vision.show``. Otherwise cards group by single linkage over
their corner boxes: two cards are in one group when a corner of one lies within reach of a corner of the
other. The reach is 1.5 times the typical spacing of the cards, kept between 2 and 5 corner lengths: fans
close together stay apart, a row of cards with gaps stays together, hands across a table do not. The
starter guess is only a default the user can change.

>>> cards = Detections([[0, 0, 10, 20], [30, 0, 40, 20], [60, 0, 70, 20], [90, 0, 100, 20], [300, 0, 320, 10]],
...                    [0.9] * 5, [0, 1, 2, 3, 4])
>>> layout = find_layout(cards)
>>> layout.groups, layout.starter, layout.starter_reason
([[0, 1, 2, 3], [4]], 4, 'set apart from the others')
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.cards_from_corners import card_centres, corner_length, link_components
from vision.detections import Detections
from vision.show import HAND_SIZE, split_show

MIN_GROUP_REACH = 2.0
"""Corners always link their cards when this many corner lengths apart or less (a card is ~3 wide)."""
MAX_GROUP_REACH = 5.0
"""Corners never link their cards when farther apart than this many corner lengths."""
SPACING_FACTOR = 1.5
"""Between those bounds, cards link up to this many times their typical spacing (fan: tight; row: wide)."""
APART_RATIO = 1.6
"""A card is "set apart" when its nearest neighbour is this much farther than any other card's."""
TURN_ASPECT = 1.15
"""A corner box this much wider than tall (or taller than wide) counts as landscape (or portrait)."""
SHOW_REASON = "alone among the groups of the show"


@dataclass(frozen=True, slots=True)
class Layout:
    """``groups``: lists of card indices, biggest group first; ``starter``: a card index or None."""

    groups: list[list[int]]
    starter: int | None
    starter_reason: str


def group_cards(cards: Detections, corners: Detections | None = None, members: list | None = None) -> list[list[int]]:
    """Card indices in groups, biggest first (ties left to right).

    ``corners`` and ``members`` (each card's corner rows, from ``cards_from_corners``) let every
    corner of a card count; without them each card is its one box.
    """
    if len(cards) == 0:
        return []
    if corners is None or members is None:
        corners, members = cards, [np.array([i]) for i in range(len(cards))]
    owner = np.concatenate([np.full(len(m), i) for i, m in enumerate(members)])
    rows = np.concatenate(members)
    length = corner_length(corners[rows])
    reach = group_reach(card_centres(cards, corners, members), length)
    labels = link_components(corners.centers[rows], reach * length)
    card_label = np.empty(len(cards), dtype=np.int64)
    for label, card in zip(labels, owner, strict=True):
        card_label[card] = label
    groups = [sorted(np.flatnonzero(card_label == label).tolist()) for label in np.unique(card_label)]
    left = cards.centers[:, 0]
    return sorted(groups, key=lambda g: (-len(g), float(np.min(left[g]))))


def group_reach(centers: np.ndarray, length: float) -> float:
    """How many corner lengths link two cards: ``SPACING_FACTOR`` times the median nearest-card distance."""
    if len(centers) < 2:
        return MIN_GROUP_REACH
    distances = np.linalg.norm(centers[:, None] - centers[None], axis=2)
    np.fill_diagonal(distances, np.inf)
    spacing = float(np.median(distances.min(axis=1))) / max(length, 1e-6)
    return float(np.clip(SPACING_FACTOR * spacing, MIN_GROUP_REACH, MAX_GROUP_REACH))


def guess_starter(
    cards: Detections, groups: list[list[int]], centers: np.ndarray | None = None
) -> tuple[int | None, str]:
    """The card most likely to be the starter in a photo of one hand plus the starter.

    Only for exactly five cards: a card alone beside a group of four, else a card clearly farther
    from the rest than any other (by ``centers``, default the boxes'), else the one card turned
    differently. Returns (index, reason).
    """
    if len(cards) != HAND_SIZE + 1:
        return None, ""
    sizes = sorted(len(g) for g in groups)
    if sizes == [1, HAND_SIZE]:
        return next(g[0] for g in groups if len(g) == 1), "set apart from the others"
    apart = _set_apart(cards.centers if centers is None else centers)
    if apart is not None:
        return apart, "set apart from the others"
    turned = _turned_differently(cards)
    if turned is not None:
        return turned, "turned differently from the others"
    return None, ""


def _set_apart(centers: np.ndarray) -> int | None:
    distances = np.linalg.norm(centers[:, None] - centers[None], axis=2)
    np.fill_diagonal(distances, np.inf)
    nearest = distances.min(axis=1)
    order = np.argsort(nearest)
    far, runner_up = nearest[order[-1]], nearest[order[-2]]
    return int(order[-1]) if far >= APART_RATIO * max(runner_up, 1e-6) else None


def _turned_differently(cards: Detections) -> int | None:
    width = cards.xyxy[:, 2] - cards.xyxy[:, 0]
    height = cards.xyxy[:, 3] - cards.xyxy[:, 1]
    landscape = width > TURN_ASPECT * height
    portrait = height > TURN_ASPECT * width
    for odd, rest in ((landscape, portrait), (portrait, landscape)):
        if odd.sum() == 1 and rest.sum() == len(cards) - 1:
            return int(np.flatnonzero(odd)[0])
    return None


def find_layout(cards: Detections, corners: Detections | None = None, members: list | None = None) -> Layout:
    """Groups and the starter guess for cards (and, optionally, all their corners).

    A whole show (groups of four and the starter alone, or groups of four only, ``vision.show``) is grouped
    as such.
    """
    show = split_show(cards, corners, members) or split_show(cards, corners, members, starter_in_photo=False)
    if show is not None and show.starter is not None:
        return Layout([*show.groups, [show.starter]], show.starter, SHOW_REASON)
    if show is not None:  # the show without its starter in the photo
        return Layout(show.groups, None, "")
    groups = group_cards(cards, corners, members)
    starter, reason = guess_starter(cards, groups, card_centres(cards, corners, members))
    return Layout(groups, starter, reason)
