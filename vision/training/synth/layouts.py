"""Where cards lie in a cribbage-shaped scene, in card units (a card is ``aspect`` wide and 1 tall).

A layout is a bottom-to-top list of ``Item``s; each has a 3x3 transform from its own unit frame
(centred on the origin, size ``w`` x ``h``) to the scene plane. Pick one with ``make_layout``.

>>> layout = make_layout(np.random.default_rng(1), 0.7, "pivot_fan")
>>> [item.kind for item in layout.items][:2]
['card', 'card']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

CARD, BACK, SKIN_UNDER, SKIN_OVER = "card", "back", "skin_under", "skin_over"


def pose(x: float, y: float, degrees: float) -> np.ndarray:
    """Rotate by ``degrees`` (clockwise on screen, y points down) and then move to (x, y)."""
    a = np.radians(degrees)
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, x], [s, c, y], [0, 0, 1]], np.float64)


@dataclass
class Item:
    """One thing in the scene: a face-up card (``slot`` indexes the scene's cards), a card back, or skin."""

    kind: str
    transform: np.ndarray
    slot: int = -1
    w: float = 0.0
    h: float = 1.0


@dataclass
class Layout:
    """Items bottom to top, plus a hint of how many face-up cards the scene needs."""

    name: str
    items: list[Item] = field(default_factory=list)

    @property
    def n_cards(self) -> int:
        return sum(1 for i in self.items if i.kind == CARD)

    def add_card(self, t: np.ndarray, aspect: float, face_up: bool = True) -> None:
        kind = CARD if face_up else BACK
        slot = self.n_cards if face_up else -1
        self.items.append(Item(kind, t, slot, aspect, 1.0))

    def extend(self, other: Layout, t: np.ndarray) -> None:
        """Add another layout's items, moved by ``t``, renumbering its card slots."""
        base = self.n_cards
        for item in other.items:
            slot = item.slot + base if item.kind == CARD else -1
            self.items.append(Item(item.kind, t @ item.transform, slot, item.w, item.h))

    def corners(self) -> np.ndarray:
        """All item outline corners (N x 2) in the scene plane."""
        pts = []
        for item in self.items:
            hw, hh = item.w / 2, item.h / 2
            local = np.array([[-hw, -hh, 1], [hw, -hh, 1], [hw, hh, 1], [-hw, hh, 1]])
            pts.append((local @ item.transform.T)[:, :2])
        return np.concatenate(pts) if pts else np.zeros((0, 2))


def pivot_fan(rng: np.random.Generator, aspect: float, n: int | None = None, spread: float = 1.0) -> Layout:
    """Cards turned about a point below them, each one on top of the last (indices at top-left show)."""
    n = n or int(rng.integers(4, 7))
    radius = rng.uniform(0.25, 0.85)
    needed = np.degrees(0.3 * aspect / (radius + 0.45))  # turn that uncovers about one index width
    step = needed * rng.uniform(0.6, 1.8) * spread
    start = -step * (n - 1) / 2 + rng.normal(0, 5)
    layout = Layout("pivot_fan")
    for i in range(n):
        a = start + i * step + rng.normal(0, step * 0.08)
        t = pose(0, 0, a) @ pose(rng.normal(0, 0.01), -radius + rng.normal(0, 0.01), 0)
        layout.add_card(t, aspect)
    return layout


def loose_fan(rng: np.random.Generator, aspect: float, n: int | None = None) -> Layout:
    """Cards slid along a gentle arc with uneven gaps and small tilts."""
    n = n or int(rng.integers(4, 7))
    gap = aspect * rng.uniform(0.18, 0.5)
    bend = rng.uniform(-0.08, 0.08)
    layout = Layout("loose_fan")
    for i in range(n):
        u = i - (n - 1) / 2
        x = u * gap + rng.normal(0, gap * 0.1)
        layout.add_card(pose(x, bend * u * u + rng.normal(0, 0.02), u * rng.uniform(0, 6) + rng.normal(0, 3)), aspect)
    return layout


def held_fan(rng: np.random.Generator, aspect: float) -> Layout:
    """A pivot fan held in a hand: palm and fingers behind, a thumb over the front card's corner."""
    fan = pivot_fan(rng, aspect)
    layout = Layout("held_fan")
    length, width = rng.uniform(1.4, 2.4), rng.uniform(0.5, 0.75)
    angle = rng.uniform(-120, -60)  # the palm's round end at the pivot, the wrist away below the fan
    a = np.radians(angle)
    end = np.array([rng.uniform(-0.1, 0.15), rng.uniform(0.0, 0.2)])
    centre = end - np.array([np.cos(a), np.sin(a)]) * (length / 2 - width / 2)
    layout.items.append(Item(SKIN_UNDER, pose(*centre, angle), w=length, h=width))
    layout.extend(fan, np.eye(3))
    front = fan.items[-1].transform
    for k in range(int(rng.integers(1, 3))):  # the thumb, sometimes a finger beside it
        length, width = rng.uniform(0.5, 0.9), rng.uniform(0.13, 0.2)
        tip = np.array([rng.uniform(-0.45, 0.0) * aspect, rng.uniform(0.05, 0.4) - 0.12 * k])
        angle = rng.uniform(-80, -10)  # pointing up and to the right, from the hand below
        a = np.radians(angle)
        centre = tip - np.array([np.cos(a), np.sin(a)]) * length / 2
        layout.items.append(Item(SKIN_OVER, front @ pose(*centre, angle), w=length, h=width))
    return layout


def show_row(rng: np.random.Generator, aspect: float, n: int | None = None) -> Layout:
    """A hand laid out for the show: cards side by side, touching, apart or a little overlapped."""
    n = n or int(rng.integers(4, 6))
    gap = aspect * rng.uniform(0.45, 1.25)
    layout = Layout("show_row")
    for i in range(n):
        u = i - (n - 1) / 2
        layout.add_card(pose(u * gap + rng.normal(0, 0.02), rng.normal(0, 0.03), rng.normal(0, 4)), aspect)
    return layout


def pile(rng: np.random.Generator, aspect: float, n: int = 4, face_up: float = 0.5) -> Layout:
    """The crib: a messy pile of cards, face up or face down."""
    layout = Layout("crib_pile")
    up = rng.random() < face_up
    for _ in range(n):
        t = pose(rng.normal(0, 0.12), rng.normal(0, 0.12), rng.uniform(0, 360) if up else rng.normal(0, 15))
        layout.add_card(t, aspect, face_up=up)
    return layout


def pegging(rng: np.random.Generator, aspect: float) -> Layout:
    """The play: overlapping cards in a row (one or two players' rows, the far one upside down)."""
    layout = Layout("pegging")
    rows = int(rng.integers(1, 3))
    for r in range(rows):
        n = int(rng.integers(2, 6))
        step = aspect * rng.uniform(0.3, 0.75)
        flip = 180 if r == 1 else 0
        y = (r - (rows - 1) / 2) * rng.uniform(1.05, 1.4)
        for i in range(n):
            x = (i - (n - 1) / 2) * step * (-1 if flip else 1)
            layout.add_card(pose(x, y + rng.normal(0, 0.02), flip + rng.normal(0, 4)), aspect)
    return layout


def singles(rng: np.random.Generator, aspect: float) -> Layout:
    """One to three loose cards, any way round."""
    layout = Layout("singles")
    for _ in range(int(rng.integers(1, 4))):
        layout.add_card(pose(rng.uniform(-1.2, 1.2), rng.uniform(-0.8, 0.8), rng.uniform(0, 360)), aspect)
    return layout


def scatter(rng: np.random.Generator, aspect: float) -> Layout:
    """Cards strewn over the table after a hand, overlapping any which way."""
    layout = Layout("scatter")
    n = int(rng.integers(6, 16))
    spread = rng.uniform(0.8, 2.0)
    for _ in range(n):
        x, y = rng.normal(0, spread * 0.6, 2)
        layout.add_card(pose(x, y, rng.uniform(0, 360)), aspect, face_up=rng.random() < 0.85)
    return layout


def deck_with_starter(rng: np.random.Generator, aspect: float) -> Layout:
    """The pack, face down, with the cut starter turned up on top (or beside it)."""
    layout = Layout("deck")
    for i in range(int(rng.integers(2, 5))):
        layout.add_card(pose(i * 0.004, -i * 0.004, rng.normal(0, 2)), aspect, face_up=False)
    if rng.random() < 0.6:
        layout.add_card(pose(rng.normal(0, 0.05), rng.normal(0, 0.05), rng.normal(0, 8)), aspect)
    else:
        layout.add_card(pose(aspect * 1.2, rng.normal(0, 0.1), rng.normal(0, 10)), aspect)
    return layout


def table(rng: np.random.Generator, aspect: float) -> Layout:
    """Two or three hands around the pack and starter, maybe the crib, as seen over a table."""
    layout = Layout("table")
    hands = int(rng.integers(2, 4))
    dist = rng.uniform(1.1, 1.6)
    for k in range(hands):
        part = [show_row, loose_fan, pivot_fan][int(rng.integers(3))](rng, aspect)
        angle = 360 * k / hands + rng.normal(0, 10)
        a = np.radians(angle)
        layout.extend(part, pose(-np.sin(a) * dist, np.cos(a) * dist, angle if rng.random() < 0.7 else 0))
    layout.extend(deck_with_starter(rng, aspect), pose(rng.normal(0, 0.1), rng.normal(0, 0.1), rng.uniform(0, 360)))
    if rng.random() < 0.5:
        crib = pile(rng, aspect, face_up=0.3)
        layout.extend(crib, pose(rng.uniform(0.6, 1.0), rng.uniform(-1, 1) * 0.4, rng.uniform(0, 360)))
    return layout


def bridge(rng: np.random.Generator, aspect: float) -> Layout:
    """A whole deal in four fans of many cards: upright in a cross, overlapping (as the real validation
    photos show it), or each turned to face its player across the table."""
    layout = Layout("bridge")
    n = int(rng.integers(8, 14))
    upright = rng.random() < 0.6
    dist_x, dist_y = rng.uniform(0.9, 1.6), rng.uniform(0.7, 1.2)
    for k in rng.permutation(4):
        if rng.random() < 0.7:
            fan = pivot_fan(rng, aspect, n, spread=rng.uniform(0.5, 0.9))
        else:
            fan = loose_fan(rng, aspect, n)
        a = np.radians(90 * k)
        x, y = -np.sin(a) * dist_x + rng.normal(0, 0.1), np.cos(a) * dist_y + rng.normal(0, 0.1)
        turn = rng.normal(0, 8) if upright else 90 * k + rng.normal(0, 8) + 180 * (rng.random() < 0.3)
        layout.extend(fan, pose(x, y, turn))
    return layout


LAYOUTS: dict[str, Callable[[np.random.Generator, float], Layout]] = {
    "pivot_fan": pivot_fan,
    "loose_fan": loose_fan,
    "held_fan": held_fan,
    "show_row": show_row,
    "crib_pile": pile,
    "pegging": pegging,
    "singles": singles,
    "scatter": scatter,
    "table": table,
    "bridge": bridge,
}
LAYOUT_WEIGHTS: dict[str, float] = {
    "pivot_fan": 0.15,
    "loose_fan": 0.1,
    "held_fan": 0.15,
    "show_row": 0.12,
    "crib_pile": 0.06,
    "pegging": 0.1,
    "singles": 0.05,
    "scatter": 0.05,
    "table": 0.13,
    "bridge": 0.1,
}


def make_layout(rng: np.random.Generator, aspect: float, name: str | None = None) -> Layout:
    """A layout of the named kind, or of a kind drawn by ``LAYOUT_WEIGHTS``."""
    if name is None:
        names = list(LAYOUT_WEIGHTS)
        p = np.array([LAYOUT_WEIGHTS[k] for k in names])
        name = names[int(rng.choice(len(names), p=p / p.sum()))]
    layout = LAYOUTS[name](rng, aspect)
    layout.name = name
    return layout
