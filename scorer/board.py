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


class Pegboard:
    """Each side's pegs as points are pegged: a side's points from one entry are one move, so the back peg
    marks the score before the entry. Events with no points move nothing; the front peg stops in the game hole.

    >>> board = Pegboard(["Ann", "Bob"])
    >>> board.peg("Ann", 2, entry=4); board.peg("Ann", 6, entry=4); board.pegs["Ann"]
    PegPair(front=8, back=0)
    """

    def __init__(self, sides: Sequence[str], target: int = 121) -> None:
        if target <= 0:
            raise ValueError(f"The board's game hole must be a positive number, not {target}.")
        self.target = target
        self.pegs: dict[str, PegPair] = dict.fromkeys(sides, START)
        self._moves: dict[str, tuple[int, PegPair, int]] = {}
        """Each side's move in progress: (entry, pegs before it, points so far)."""

    def peg(self, side: str, points: int, entry: int = -1) -> None:
        """Peg ``points`` for ``side``; an ``entry`` below 0 is a move of its own."""
        if side not in self.pegs:
            raise ValueError(f"{side!r} has no pegs on this board; the sides are {', '.join(self.pegs)}.")
        move_entry, start, moved = self._moves.get(side, (-1, START, 0))
        if entry < 0 or move_entry != entry:
            start, moved = self.pegs[side], 0
        self._moves[side] = (entry, start, moved + points)
        self.pegs[side] = start.moved(moved + points, self.target)


def peg_positions(
    events: Iterable[Scored | tuple[str, int]], sides: Sequence[str], target: int = 121
) -> dict[str, PegPair]:
    """Leapfrog the pegs through ``events`` (score events or ``(side, points)`` pairs), as ``Pegboard`` does."""
    board = Pegboard(sides, target)
    for event in events:
        if isinstance(event, tuple):
            board.peg(*event)
        else:
            board.peg(event.side, event.points, event.entry)
    return board.pegs
