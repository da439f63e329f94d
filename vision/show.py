"""The show in one photo: every hand, the crib and the starter laid out on the table, split into their groups.

At the show each player lays four cards face up, the dealer lays the crib, and the starter lies alone. The
cards of one photo then split into groups of four plus one card alone: the split cuts the longest links of
the cards' minimum spanning tree (card to card: the nearest two of their corners, in corner lengths), and
of the cuts that leave groups of four and one lone card it takes the one whose cut links are longest, so
hands a few centimetres apart come apart while a fanned hand stays whole.

>>> cards = Detections([[x, y, x + 10, y + 20] for y in (0, 200) for x in (0, 25, 50, 75)] + [[300, 100, 310, 120]],
...                    [0.9] * 9, list(range(9)))
>>> split_show(cards).groups, split_show(cards).starter
([[4, 5, 6, 7], [0, 1, 2, 3]], 8)
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from vision.cards_from_corners import card_centres, corner_length
from vision.detections import Detections

HAND_SIZE = 4
MIN_GROUPS, MAX_GROUPS = 2, 5
"""A show has 2 to 5 groups of four: two players' hands and the crib, up to four hands and the crib."""
EXTRA_CANDIDATES = 3
"""The cut may use this many links past the longest ones, to get groups of four when a gap is narrow."""
ROW_REACH = 3.0
"""Groups whose middles are within this many corner lengths up or down lie in one row (a card is about 4 tall)."""


@dataclass(frozen=True, slots=True)
class Show:
    """``groups``: card indices, four each, nearest the photographer (lowest in the photo) first; ``starter``."""

    groups: list[list[int]]
    starter: int | None


def show_size(count: int, starter_known: bool = False) -> int | None:
    """How many groups of four ``count`` cards make at the show (with the starter among them unless known)."""
    rest = count if starter_known else count - 1
    groups, left = divmod(rest, HAND_SIZE)
    return groups if left == 0 and MIN_GROUPS <= groups <= MAX_GROUPS else None


def split_show(
    cards: Detections,
    corners: Detections | None = None,
    members: list | None = None,
    starter: int | None = None,
    starter_in_photo: bool = True,
) -> Show | None:
    """Groups of four and the lone starter, or ``None`` if the cards can't make them.

    ``starter``: the starter's index when it is known; ``starter_in_photo=False``: it is known and not in the
    photo, so every card belongs to a group. ``corners`` and ``members`` (each card's corner rows, from
    ``cards_from_corners``) let every corner of a card count.
    """
    known = starter is not None or not starter_in_photo
    keep = [i for i in range(len(cards)) if i != starter]
    groups_wanted = show_size(len(keep), starter_known=known)
    if groups_wanted is None:
        return None
    points, owner, length = _card_points(cards, corners, members)
    mask = np.isin(owner, keep)
    index = {card: k for k, card in enumerate(keep)}
    links = _card_links(points[mask], np.array([index[o] for o in owner[mask]]), len(keep)) / max(length, 1e-6)
    edges = _spanning_tree(links)
    sizes = [HAND_SIZE] * groups_wanted + ([] if known else [1])
    parts = _best_cut(edges, len(keep), sorted(sizes))
    if parts is None:
        return None
    parts = [[keep[k] for k in part] for part in parts]
    alone = next((part[0] for part in parts if len(part) == 1), starter)
    fours = [part for part in parts if len(part) == HAND_SIZE]
    # each card's middle (the mean of its corners), not its best corner's box: which corner read best is chance
    return Show(_nearest_first(fours, card_centres(cards, corners, members), ROW_REACH * length), alone)


def _nearest_first(groups: list[list[int]], centres: np.ndarray, row_reach: float) -> list[list[int]]:
    """Groups lowest in the photo first; groups whose middles lie within ``row_reach`` of the row's lowest one
    share its row and go left to right.

    >>> _nearest_first([[0], [1], [2]], np.array([[300.0, 500], [0, 505], [0, 100]]), 20)
    [[1], [0], [2]]
    """
    middles = [centres[g].mean(axis=0) for g in groups]
    rest = sorted(range(len(groups)), key=lambda i: -float(middles[i][1]))
    ordered: list[int] = []
    while rest:
        row = [i for i in rest if middles[rest[0]][1] - middles[i][1] <= row_reach]
        ordered += sorted(row, key=lambda i: float(middles[i][0]))
        rest = [i for i in rest if i not in row]
    return [groups[i] for i in ordered]


def _card_points(
    cards: Detections, corners: Detections | None, members: list | None
) -> tuple[np.ndarray, np.ndarray, float]:
    """Every corner centre with its card (or each card's box centre), and the typical corner length."""
    if corners is None or members is None or not any(len(m) for m in members):
        return cards.centers, np.arange(len(cards)), corner_length(cards)
    rows = [np.asarray(m, np.int64) if len(m) else None for m in members]
    points = [corners.centers[r] if r is not None else cards.centers[i : i + 1] for i, r in enumerate(rows)]
    owner = [np.full(len(p), i) for i, p in enumerate(points)]
    used = np.concatenate([r for r in rows if r is not None])
    return np.concatenate(points), np.concatenate(owner), corner_length(corners[used])


def _card_links(points: np.ndarray, owner: np.ndarray, count: int) -> np.ndarray:
    """count x count: the nearest distance between any corner of one card and any corner of the other."""
    distances = np.linalg.norm(points[:, None] - points[None], axis=2)
    links = np.full((count, count), np.inf)
    np.minimum.at(links, (owner[:, None], owner[None, :]), distances)
    np.fill_diagonal(links, np.inf)
    return links


def _spanning_tree(links: np.ndarray) -> list[tuple[float, int, int]]:
    """Prim's minimum spanning tree over a full distance matrix: (length, a, b) edges."""
    count = len(links)
    inside = np.zeros(count, bool)
    inside[0] = True
    best, via = links[0].copy(), np.zeros(count, np.int64)
    edges = []
    for _ in range(count - 1):
        candidate = np.where(inside, np.inf, best)
        b = int(np.argmin(candidate))
        edges.append((float(candidate[b]), int(via[b]), b))
        inside[b] = True
        closer = links[b] < best
        best[closer], via[closer] = links[b][closer], b
    return edges


def _best_cut(edges: list[tuple[float, int, int]], count: int, sizes: list[int]) -> list[list[int]] | None:
    """Cut len(sizes) - 1 tree edges, from the longest few, leaving parts of exactly ``sizes``; longest cut wins."""
    cuts = len(sizes) - 1
    longest = sorted(range(len(edges)), key=lambda e: -edges[e][0])[: cuts + EXTRA_CANDIDATES]
    best, best_parts = -np.inf, None
    for chosen in combinations(longest, cuts):
        parts = _parts([edge for e, edge in enumerate(edges) if e not in chosen], count)
        if sorted(len(p) for p in parts) != sizes:
            continue
        score = sum(edges[e][0] for e in chosen)
        if score > best:
            best, best_parts = score, parts
    return best_parts


def _parts(edges: list[tuple[float, int, int]], count: int) -> list[list[int]]:
    parent = list(range(count))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for _, a, b in edges:
        parent[root(a)] = root(b)
    groups: dict[int, list[int]] = {}
    for i in range(count):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())
