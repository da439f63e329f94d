"""Pegs on the board, derived from a log of scoring events.

Each player (or partnership) has two pegs: the front peg marks the score, the back peg the score before
the last points were pegged. Both start in the start hole, position 0; the game hole is the target.

>>> pegs = peg_positions([("Ann", 2), ("Bob", 3), ("Ann", 5)], ["Ann", "Bob"])
>>> pegs["Ann"], pegs["Bob"]
(PegPair(front=7, back=2), PegPair(front=3, back=0))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol


class Scored(Protocol):
    """Anything with a ``side``, ``points`` and the ``entry`` that pegged them, such as the game's score events."""

    side: str
    points: int
    entry: int


@dataclass(frozen=True, slots=True)
class PegPair:
    """Front and back peg positions: 0 is the start hole, the target is the game hole."""

    front: int
    back: int

    def moved(self, points: int, target: int = 121) -> PegPair:
        """The pegs after pegging ``points``: the back peg leapfrogs the front; none move past the game hole."""
        if points < 0:
            raise ValueError(f"Pegs only move forward; {points} points cannot be pegged.")
        if points == 0 or self.front >= target:
            return self
        return PegPair(min(self.front + points, target), self.front)


START = PegPair(0, 0)


def peg_positions(
    events: Iterable[Scored | tuple[str, int]], sides: Sequence[str], target: int = 121
) -> dict[str, PegPair]:
    """Leapfrog the pegs through ``events`` (score events or ``(side, points)`` pairs).

    A side's points from one entry (score events with the same ``entry``) are pegged as one move, so the
    back peg marks the score before the entry. Events with no points move nothing; the front peg stops in
    the game hole.
    """
    if target <= 0:
        raise ValueError(f"The board's game hole must be a positive number, not {target}.")
    pegs = dict.fromkeys(sides, START)
    moves: dict[str, tuple[int, PegPair, int]] = {}
    for event in events:
        side, points, entry = (*event, -1) if isinstance(event, tuple) else (event.side, event.points, event.entry)
        if side not in pegs:
            raise ValueError(f"{side!r} has no pegs on this board; the sides are {', '.join(sides)}.")
        move_entry, start, moved = moves.get(side, (-1, START, 0))
        if entry < 0 or move_entry != entry:
            start, moved = pegs[side], 0
        moves[side] = (entry, start, moved + points)
        pegs[side] = start.moved(moved + points, target)
    return pegs
