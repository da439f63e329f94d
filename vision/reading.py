"""``read_photo``: a photo in, the cards, their groups, a starter guess and warnings out.

The one call the CLI (``cribcam photo``) and the app make.

>>> reading = read_photo("hand.jpg", CardDetector())  # doctest: +SKIP
>>> [str(c) for c in reading.card_list], reading.starter_card, reading.warnings  # doctest: +SKIP
(['5H', '5C', '5S', 'JD', '5D'], Card('5D'), [])
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from scorer.cards import Card
from vision.card_faces import drop_face_patterns
from vision.cards_from_corners import Conflict, cards_from_corners
from vision.detections import Detections
from vision.layout import HAND_SIZE, find_layout
from vision.photo_io import Photo, PhotoSource, load_photo

if TYPE_CHECKING:
    from vision.detector import CardDetector


NO_STARTER = "No card stands apart as the starter; choose it."


@dataclass(eq=False)
class PhotoReading:
    """What a photo shows. Boxes are in original-photo pixels; indices refer to rows of ``cards``."""

    cards: Detections
    corners: Detections
    groups: list[list[int]]
    starter: int | None
    starter_reason: str
    conflicts: list[Conflict]
    to_confirm: list[int]
    image_size: tuple[int, int]
    corner_card: np.ndarray | None = None
    """For each row of ``corners``, the index of its card (-1 for none)."""
    timings_ms: dict[str, float] = field(default_factory=dict)
    tiles: int = 0
    image: np.ndarray | None = field(default=None, repr=False)
    """The upright working image (RGB, at most ``WORKING_MAX_SIDE``), for drawing."""

    @property
    def card_list(self) -> list[Card]:
        return self.cards.cards

    @property
    def starter_card(self) -> Card | None:
        return None if self.starter is None else self.card_list[self.starter]

    @property
    def warnings(self) -> list[str]:
        """Sentences for the user: conflicts, cards to confirm, no cards, no starter guess."""
        notes = [c.message() for c in self.conflicts]
        cards = self.card_list
        notes += [self.check_message(i) for i in self.to_confirm]
        if not cards:
            notes.append("No cards found; photograph the cards face up, with their corners in view.")
        elif len(cards) == HAND_SIZE + 1 and self.starter is None:
            notes.append(NO_STARTER)
        return notes

    def runner_up(self, index: int) -> Card | None:
        """The card the classifier found next likeliest for card ``index`` (None when it found none)."""
        card_id = int(self.cards.runner_up[index])
        return Card.from_index(card_id) if card_id >= 0 else None

    def read_too(self, card: Card) -> bool:
        """Whether ``card``, a runner-up, is read in this photo too: a wrong read naming it may then be a second corner
        of it (a deck has one of each card), to be removed rather than changed (``models/README.md``, "Stop 62")."""
        return card in self.card_list

    def check_message(self, index: int) -> str:
        """The sentence asking the user to check card ``index``, naming the likeliest other card when there is one."""
        card = self.card_list[index]
        sentence = f"Check {card}: only about {self.cards.confidence[index]:.0%} likely read right"
        other = self.runner_up(index)
        if other is None:
            return sentence + "."
        if self.read_too(other):
            return f"{sentence}; if not, it may be a second corner of the {other} also in the photo: then remove it."
        return f"{sentence}; if not, it is most likely {other}."

    def hand_and_starter(self, starter: Card | None = None) -> tuple[list[Card], Card]:
        """The four hand cards and the starter: ``starter`` when given (in the photo or not), else the guess.

        Raises ``ValueError`` when the cards found cannot make a hand plus starter.
        """
        if self.conflicts:
            raise ValueError(self.conflicts[0].message())
        cards = self.card_list
        if starter is None:
            if len(cards) == HAND_SIZE and self.starter is None:
                raise ValueError("Found 4 cards and no starter; give the starter (e.g. --starter 5D).")
            if len(cards) == HAND_SIZE + 1 and self.starter is None:
                raise ValueError("Found 5 cards but none stands apart as the starter; name it (--starter CARD).")
            starter = self.starter_card
        hand = [c for c in cards if c != starter]
        if len(hand) != HAND_SIZE:
            found = " ".join(str(c) for c in cards) or "none"
            raise ValueError(
                f"Found {len(cards)} cards ({found}); a hand to count is 4 cards plus the starter: "
                "photograph one hand (and the starter)."
            )
        return hand, starter

    def to_dict(self) -> dict:
        """JSON-ready: cards (card, confidence, box; a card to check also its likeliest other card, "or"), groups (of
        card names), starter, warnings, timings."""
        cards = self.card_list
        rows = self.cards.to_list()
        for row, i in zip(rows, range(len(rows)), strict=True):
            row["confirm"] = i in self.to_confirm
            other = self.runner_up(i) if row["confirm"] else None
            if other is not None:
                row["or"] = str(other)
        return {
            "cards": rows,
            "groups": [[str(cards[i]) for i in group] for group in self.groups],
            "starter": None if self.starter is None else str(cards[self.starter]),
            "starter_reason": self.starter_reason or None,
            "warnings": self.warnings,
            "image_size": list(self.image_size),
            "tiles": self.tiles,
            "timings_ms": {k: round(v, 1) for k, v in self.timings_ms.items()},
        }


def read_photo(source: PhotoSource | Photo, detector: CardDetector) -> PhotoReading:
    """Load, detect, drop face patterns taken for corners, merge corners into cards, group them, guess the starter.

    Raises ``PhotoError`` (a ``ValueError``) for a file that is not a usable photo.
    """
    photo = source if isinstance(source, Photo) else load_photo(source)
    corners, run = detector.detect_photo(photo)
    start = time.perf_counter()
    corners = drop_face_patterns(corners)
    calibration = getattr(getattr(detector, "manifest", None), "calibration", None)
    found = cards_from_corners(corners, calibration=calibration)
    layout = find_layout(found.cards, corners, found.members)
    layout_ms = (time.perf_counter() - start) * 1000
    timings = {"load": photo.load_ms, **run.timings_ms, "layout": layout_ms}
    timings["total"] = sum(timings.values())
    sx, sy = photo.scale
    corner_card = np.full(len(corners), -1, np.int64)
    for card, rows in enumerate(found.members):
        corner_card[rows] = card
    conflicts = [Conflict(c.card, c.boxes * np.array([sx, sy, sx, sy], np.float32), c.instead) for c in found.conflicts]
    return PhotoReading(
        cards=found.cards.scaled(sx, sy),
        corners=corners.scaled(sx, sy),
        groups=layout.groups,
        starter=layout.starter,
        starter_reason=layout.starter_reason,
        conflicts=conflicts,
        to_confirm=found.to_confirm,
        image_size=photo.original_size,
        corner_card=corner_card,
        timings_ms=timings,
        tiles=run.tiles,
        image=photo.rgb,
    )
