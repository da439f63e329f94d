"""Printed matter that is not a card, for hard negatives: calendars, labels, pages, screens, other games'
cards and a camera's burnt-in timestamp.

Each drawing returns "decoys": quadrilaterals around its digits and letters at about a corner index's
size, so the classifier can be shown them as "not a corner" (the detector learns from them just by
their having no label).

>>> img = np.full((320, 320, 3), 128, np.float32)
>>> quads = draw_printed(np.random.default_rng(0), img, 60.0)
>>> quads.shape[1:], img.std() > 0
((4, 2), True)
"""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image, ImageDraw

from vision.training.synth.styled_deck import _font, letter_fonts

MONTHS = ("JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY", "AUGUST", "SEPTEMBER", "OCTOBER")
WORDS = (
    "the",
    "and",
    "game",
    "score",
    "table",
    "KING",
    "QUEEN",
    "Ace",
    "7 Wonders",
    "SALE",
    "No.",
    "Tel",
    "km",
    "Vol. 8",
    "page",
    "news",
    "2C",
    "4C",
    "A4",
    "Q7",
    "K9",
    "J5",
    "8S",
    "10",
    "x3",
    "PM",
    "AM",
    "OK",
    "LOT",
)
INKS = ((20, 20, 20), (30, 30, 120), (150, 20, 20), (20, 90, 40), (90, 90, 90))


def _fonts(rng: np.random.Generator) -> str | None:
    fonts = letter_fonts()
    return str(fonts[int(rng.integers(len(fonts)))]) if fonts else None


def _token(rng: np.random.Generator) -> str:
    """A short run of print: a word, a number, a date or a card-like code."""
    kind = rng.integers(4)
    if kind == 0:
        return str(WORDS[int(rng.integers(len(WORDS)))])
    if kind == 1:
        return str(int(rng.integers(1, 100)))
    if kind == 2:
        return f"{int(rng.integers(1, 13)):02d}/{int(rng.integers(1, 29)):02d}"
    return "".join(rng.choice(list("AKQJ23456789CSDHXY"), int(rng.integers(1, 3))))


class _Page:
    """A sheet drawn with PIL; remembers where each run of print went (as boxes on the sheet)."""

    def __init__(self, w: int, h: int, paper: tuple[int, int, int]) -> None:
        self.image = Image.new("RGB", (max(8, w), max(8, h)), paper)
        self.draw = ImageDraw.Draw(self.image)
        self.boxes: list[tuple[float, float, float, float]] = []

    def text(self, xy: tuple[float, float], text: str, font: str | None, px: float, ink, decoy: bool = True) -> float:
        """Writes ``text`` with its top left at ``xy``, ``px`` high; returns the right edge."""
        f = _font(font, max(6, int(px)))
        self.draw.text(xy, text, fill=tuple(int(v) for v in ink), font=f)
        x1, y1, x2, y2 = self.draw.textbbox(xy, text, font=f)
        if decoy and x2 > x1 and y2 > y1:
            for i in range(0, len(text), 2):  # corner-sized pieces: one or two characters each
                left = self.draw.textbbox(xy, text[:i], font=f)[2] if i else x1
                right = self.draw.textbbox(xy, text[: i + 2], font=f)[2]
                if right - left > 2 and text[i : i + 2].strip():
                    self.boxes.append((left - 1, y1 - 1, right + 1, y2 + 1))
        return float(x2)

    def array(self) -> np.ndarray:
        return np.asarray(self.image, np.float32)


def _calendar(rng: np.random.Generator, size: float) -> _Page:
    w, h = int(size * rng.uniform(1.0, 1.5)), int(size)
    page = _Page(w, h, tuple(int(v) for v in rng.uniform(225, 255, 3)))
    font, ink = _fonts(rng), INKS[int(rng.integers(len(INKS)))]
    page.text(
        (w * 0.08, h * 0.03),
        f"{MONTHS[int(rng.integers(len(MONTHS)))]} {int(rng.integers(1990, 2030))}",
        font,
        h * 0.09,
        ink,
    )
    cell_w, cell_h = w * 0.9 / 7, h * 0.8 / 7
    for i, day in enumerate("SMTWTFS"):
        page.text((w * 0.05 + i * cell_w, h * 0.15), day, font, cell_h * 0.45, ink)
    start = int(rng.integers(0, 7))
    for d in range(1, 32):
        row, col = divmod(start + d - 1, 7)
        x, y = w * 0.05 + col * cell_w, h * 0.22 + row * cell_h
        page.draw.rectangle((x, y, x + cell_w, y + cell_h), outline=(170, 170, 170))
        red = col == 0 and rng.random() < 0.7
        page.text((x + 2, y + 2), str(d), font, cell_h * rng.uniform(0.35, 0.6), (170, 20, 20) if red else ink)
    return page


def _label(rng: np.random.Generator, size: float) -> _Page:
    w, h = int(size * rng.uniform(1.2, 2.5)), int(size)
    paper = tuple(int(v) for v in rng.choice([(250, 250, 245), (250, 235, 120), (235, 200, 200), (200, 225, 250)]))
    page = _Page(w, h, paper)
    font, ink = _fonts(rng), INKS[int(rng.integers(len(INKS)))]
    x = w * 0.08
    for _ in range(int(rng.integers(1, 4))):
        x = page.text((x, h * rng.uniform(0.1, 0.35)), _token(rng), font, h * rng.uniform(0.3, 0.55), ink) + h * 0.2
    if rng.random() < 0.5:  # a bar code
        for bx in np.cumsum(rng.integers(1, 4, 40)) + int(w * 0.1):
            if bx < w * 0.9:
                page.draw.line((bx, h * 0.75, bx, h * 0.95), fill=(20, 20, 20), width=int(rng.integers(1, 3)))
    return page


def _newsprint(rng: np.random.Generator, size: float) -> _Page:
    w, h = int(size * rng.uniform(0.7, 1.4)), int(size)
    page = _Page(w, h, tuple(int(v) for v in rng.uniform(200, 240, 3)))
    font, ink = _fonts(rng), (25, 25, 25)
    page.text((w * 0.05, h * 0.02), " ".join(_token(rng) for _ in range(3)).upper(), font, h * 0.08, ink)
    line = h * rng.uniform(0.03, 0.06)
    y = h * 0.14
    while y < h - line:
        x = w * 0.05
        while x < w * 0.9:
            x = page.text((x, y), _token(rng), font, line * 0.8, ink, decoy=rng.random() < 0.3) + line * 0.5
        y += line * 1.3
    return page


def _screen(rng: np.random.Generator, size: float) -> _Page:
    w, h = int(size * rng.uniform(0.5, 1.8)), int(size)
    page = _Page(w, h, tuple(int(v) for v in rng.uniform(0, 60, 3)))
    font = _fonts(rng)
    glow = tuple(int(v) for v in rng.choice([(240, 240, 240), (150, 220, 255), (255, 230, 150), (120, 255, 140)]))
    page.text((w * 0.1, h * 0.08), f"{int(rng.integers(0, 24))}:{int(rng.integers(0, 60)):02d}", font, h * 0.2, glow)
    y = h * 0.4
    while y < h * 0.9:
        page.text((w * 0.08, y), " ".join(_token(rng) for _ in range(2)), font, h * 0.08, glow)
        y += h * 0.13
    return page


def _game_card(rng: np.random.Generator, size: float) -> _Page:
    """Another game's card, playing-card shaped: a coloured frame, a picture, a title and a big number."""
    h = int(size)
    w = int(h * rng.uniform(0.62, 0.72))
    frame = tuple(int(v) for v in rng.uniform(30, 230, 3))
    page = _Page(w, h, frame)
    for _ in range(int(rng.integers(3, 8))):  # the picture
        c = tuple(int(v) for v in rng.uniform(0, 255, 3))
        x, y = rng.uniform(0.1, 0.9) * w, rng.uniform(0.15, 0.7) * h
        r = rng.uniform(0.05, 0.25) * w
        page.draw.ellipse((x - r, y - r * rng.uniform(0.5, 1.5), x + r, y + r), fill=c)
    font = _fonts(rng)
    page.draw.rectangle((0, h * 0.75, w, h * 0.9), fill=(245, 240, 220))
    page.text((w * 0.08, h * 0.77), _token(rng).upper(), font, h * 0.09, (20, 20, 20))
    spot = (w * rng.uniform(0.05, 0.6), h * rng.uniform(0.02, 0.5))
    page.draw.ellipse((spot[0], spot[1], spot[0] + w * 0.3, spot[1] + w * 0.3), fill=(250, 250, 250))
    page.text((spot[0] + w * 0.06, spot[1] + w * 0.03), str(int(rng.integers(1, 13))), font, w * 0.22, (20, 20, 20))
    return page


KINDS = (_calendar, _label, _newsprint, _screen, _game_card)


def draw_printed(
    rng: np.random.Generator, img: np.ndarray, card_px: float, centre: tuple[float, float] | None = None
) -> np.ndarray:
    """One random piece of print drawn onto ``img`` (float32 RGB) in place; its decoy quads (N, 4, 2)."""
    kind = KINDS[int(rng.integers(len(KINDS)))]
    size = card_px * (rng.uniform(0.4, 0.8) if kind is _label else rng.uniform(0.8, 2.2))
    page = kind(rng, size)
    sheet = page.array()
    ph, pw = sheet.shape[:2]
    if centre is None:
        centre = tuple(rng.uniform(0, img.shape[1], 2))
    m = cv2.getRotationMatrix2D((pw / 2, ph / 2), rng.uniform(0, 360), 1.0)
    m[:, 2] += np.array(centre) - (pw / 2, ph / 2)
    mask = cv2.warpAffine(np.ones((ph, pw), np.float32), m, img.shape[1::-1])
    img *= (1 - mask)[..., None]
    img += cv2.warpAffine(sheet, m, img.shape[1::-1])
    boxes = np.asarray(page.boxes, np.float64).reshape(-1, 4)
    quads = np.stack([boxes[:, [0, 1]], boxes[:, [2, 1]], boxes[:, [2, 3]], boxes[:, [0, 3]]], axis=1)
    return (quads @ m[:, :2].T + m[:, 2]).reshape(-1, 4, 2)


def burn_timestamp(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """A webcam's date and time burnt into ``img`` (uint8 RGB) in place, along one edge; its decoy boxes (N, 4)."""
    h, w = img.shape[:2]
    stamp = (
        f"{int(rng.integers(2005, 2030))}/{int(rng.integers(1, 13)):02d}/{int(rng.integers(1, 29)):02d} "
        f"{int(rng.integers(0, 24)):02d}:{int(rng.integers(0, 60)):02d}:{int(rng.integers(0, 60)):02d}"
    )
    if rng.random() < 0.3:  # a shorter stamp: month/day and AM or PM, maybe a camera name
        camera = "CAM 1  " if rng.random() < 0.5 else ""
        stamp = f"{camera}{stamp.split()[0][5:]} {'AM' if rng.random() < 0.5 else 'PM'}"
    px = h * rng.uniform(0.025, 0.06)
    ink = tuple(int(v) for v in rng.choice([(255, 255, 255), (255, 230, 60), (255, 140, 0), (230, 230, 230)]))
    page = _Page(w, int(px * 1.8), (0, 0, 0))
    page.text((0, px * 0.2), stamp, _fonts(rng), px, ink)
    sheet = np.asarray(page.image)
    lit = sheet.max(axis=2) > 40
    y0 = int(h * rng.uniform(0.01, 0.05)) if rng.random() < 0.5 else h - sheet.shape[0] - int(h * 0.02)
    x0 = int(w * rng.uniform(0.01, 0.4))
    sheet, lit = sheet[:, : w - x0], lit[:, : w - x0]  # the band is at most 0.11 h high: it fits either edge
    region = img[y0 : y0 + sheet.shape[0], x0 : x0 + sheet.shape[1]]
    if rng.random() < 0.5:  # a dark outline keeps the text readable on a bright scene
        halo = cv2.dilate(lit.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        region[halo & ~lit] = 0
    region[lit] = sheet[lit]
    return np.asarray(page.boxes, np.float32).reshape(-1, 4) + np.float32([x0, y0, x0, y0])
