"""Draw a ``PhotoReading`` on its photo: corner boxes, card names, the starter, cards to check.

>>> picture = annotate(reading.image, reading)  # doctest: +SKIP
>>> save_rgb("annotated.jpg", picture)  # doctest: +SKIP
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.reading import PhotoReading

OK = (40, 200, 80)
CHECK = (255, 165, 0)
CONFLICT = (230, 40, 40)
STARTER = (40, 120, 255)
CORNER = (200, 200, 200)
GROUP = (255, 220, 0)


def annotate(image: np.ndarray, reading: PhotoReading) -> np.ndarray:
    """A copy of ``image`` (RGB, the photo at any size) with the reading drawn on it."""
    out = np.ascontiguousarray(image.copy())
    height, width = out.shape[:2]
    sx, sy = width / reading.image_size[0], height / reading.image_size[1]
    factor = np.array([sx, sy, sx, sy], np.float32)
    thickness = max(1, round(max(width, height) / 700))
    font_scale = max(0.4, max(width, height) / 1600)
    cards = reading.card_list
    conflicted = {c.card for c in reading.conflicts}
    for group_no, group in enumerate(reading.groups, start=1):
        boxes = reading.cards.xyxy[group]
        if reading.corner_card is not None:
            boxes = np.concatenate([boxes, reading.corners.xyxy[np.isin(reading.corner_card, group)]])
        boxes = boxes * factor
        x1, y1 = boxes[:, :2].min(axis=0) - 4 * thickness
        x2, y2 = boxes[:, 2:].max(axis=0) + 4 * thickness
        _rectangle(out, (x1, y1, x2, y2), GROUP, thickness)
        _label(out, f"group {group_no}", (x1, y2), GROUP, font_scale * 0.8, thickness, below=True)
    for box in reading.corners.xyxy * factor:
        _rectangle(out, box, CORNER, thickness)
    for i, card in enumerate(cards):
        box = reading.cards.xyxy[i] * factor
        colour = OK
        text = str(card)
        if card in conflicted:
            colour = CONFLICT
        elif i in reading.to_confirm:
            colour, text = CHECK, f"{card}?"
        if i == reading.starter:
            colour, text = STARTER, f"{text} starter"
        _rectangle(out, box, colour, thickness * 2)
        _label(out, f"{text} {reading.cards.confidence[i]:.2f}", (box[0], box[1]), colour, font_scale, thickness)
    return out


def save_rgb(path: str | Path, rgb: np.ndarray) -> None:
    """Write an RGB image (JPEG/PNG by extension); raises ``OSError`` when it cannot."""
    if not cv2.imwrite(str(path), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)):
        raise OSError(f"Could not write {path}; use a .jpg or .png path in a folder that exists.")


def _rectangle(img: np.ndarray, box, colour: tuple[int, int, int], thickness: int) -> None:
    x1, y1, x2, y2 = (round(float(v)) for v in box)
    cv2.rectangle(img, (x1, y1), (x2, y2), colour, thickness, cv2.LINE_AA)


def _label(
    img: np.ndarray,
    text: str,
    anchor: tuple[float, float],
    colour: tuple[int, int, int],
    scale: float,
    thickness: int,
    below: bool = False,
) -> None:
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    x = int(min(max(anchor[0], 0), img.shape[1] - w - 2))
    y = int(anchor[1] + h + base + 2) if below else int(anchor[1] - 3)
    y = min(max(y, h + 2), img.shape[0] - base - 2)
    cv2.rectangle(img, (x, y - h - 2), (x + w + 2, y + base), (0, 0, 0), -1)
    cv2.putText(img, text, (x + 1, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)
