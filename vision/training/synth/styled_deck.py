"""Procedural decks in many index styles, drawn with the system's fonts, to widen training variety.

The package decks (``vision.training.cardart``) give a few dozen designs, and a detector or classifier trained on
them learns those designs' look. A styled deck draws every card itself from a random ``DeckStyle``: the
rank's font, weight and size, the suit pip (a font glyph, or a drawn shape whose clubs and spades vary from
deck to deck: lobes, shoulders, stems), the index's place and gap,
the colours (two- or four-colour), the paper, the corner radius, and an index in two or four corners.
The corner quads are known exactly, because the index is drawn here. Train with these beside the
package decks; never validate on them (they say nothing about real designs).

>>> deck = make_styled_deck(3)
>>> deck.cards["10H"].image().shape[2], deck.cards["10H"].corners.shape[1:]
(4, (4, 2))
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from scorer.cards import CLASS_NAMES
from vision.training.synth.testdeck import _pip, rounded_alpha

FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))
NOT_LETTER_FONTS = ("D050000L", "StandardSymbols", "DroidSansFallback", "MathTeX", "ExtraLight")
SUIT_GLYPHS = {"S": ("♠", "♤"), "H": ("♥", "♡"), "D": ("♦", "♢"), "C": ("♣", "♧")}
# Pip centres of the number cards, as fractions of the pip area (x, y); those below the middle are drawn turned.
PIP_LAYOUT = {
    "2": [(0.5, 0.0), (0.5, 1.0)],
    "3": [(0.5, 0.0), (0.5, 0.5), (0.5, 1.0)],
    "4": [(0, 0), (1, 0), (0, 1), (1, 1)],
    "5": [(0, 0), (1, 0), (0.5, 0.5), (0, 1), (1, 1)],
    "6": [(0, 0), (1, 0), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "7": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0, 1), (1, 1)],
    "8": [(0, 0), (1, 0), (0.5, 0.25), (0, 0.5), (1, 0.5), (0.5, 0.75), (0, 1), (1, 1)],
    "9": [(0, 0), (1, 0), (0, 1 / 3), (1, 1 / 3), (0.5, 0.5), (0, 2 / 3), (1, 2 / 3), (0, 1), (1, 1)],
    "10": [(0, 0), (1, 0), (0.5, 1 / 6), (0, 1 / 3), (1, 1 / 3), (0, 2 / 3), (1, 2 / 3), (0.5, 5 / 6), (0, 1), (1, 1)],
}


@functools.cache
def letter_fonts() -> tuple[str, ...]:
    """Paths of the installed TrueType/OpenType fonts that draw Latin letters and digits."""
    found = [p for d in FONT_DIRS if d.is_dir() for p in sorted(d.rglob("*")) if p.suffix.lower() in (".ttf", ".otf")]
    return tuple(str(p) for p in found if not any(bad in p.name for bad in NOT_LETTER_FONTS))


@functools.cache
def suit_fonts() -> tuple[str, ...]:
    """Installed fonts known to carry the four suit glyphs (the DejaVu family)."""
    return tuple(p for p in letter_fonts() if "DejaVu" in Path(p).name)


@functools.cache
def _font(path: str | None, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.truetype(path, size) if path else ImageFont.load_default(size)


@dataclass(frozen=True)
class DeckStyle:
    """Everything that makes one styled deck look like itself."""

    font: str | None
    stroke: int
    rank_h: float  # rank height / card height
    squeeze: float  # horizontal scale of the rank text (narrow fonts, a squeezed "10")
    pip_ratio: float  # index pip height / rank height
    gap: float  # gap between rank and pip / rank height
    margin: tuple[float, float]  # index offset from the card's corner, / card width and height
    suit_font: str | None  # None: the pips are drawn shapes
    outline_suits: bool
    colours: dict[str, tuple[int, int, int]]
    paper: tuple[int, int, int]
    radius: int
    four_corners: bool
    frame: bool
    width: int
    pip_shape: tuple[float, float, float, float]  # drawn clubs and spades: see _drawn_pip
    height: int = 360


def random_style(rng: np.random.Generator) -> DeckStyle:
    """A random ``DeckStyle`` (fonts from the system; PIL's own font when none is installed)."""
    fonts, pip_fonts = letter_fonts(), suit_fonts()
    red = (int(rng.integers(150, 235)), int(rng.integers(0, 40)), int(rng.integers(0, 50)))
    black = tuple(int(v) for v in rng.integers(0, 45, 3))
    colours = {"S": black, "C": black, "H": red, "D": red}
    if rng.random() < 0.25:  # four-colour decks: green clubs, blue or orange diamonds
        colours["C"] = (int(rng.integers(0, 40)), int(rng.integers(100, 150)), int(rng.integers(20, 70)))
        blue = (int(rng.integers(0, 40)), int(rng.integers(40, 110)), int(rng.integers(150, 220)))
        orange = (int(rng.integers(210, 250)), int(rng.integers(110, 160)), int(rng.integers(0, 40)))
        colours["D"] = blue if rng.random() < 0.7 else orange
    paper = tuple(int(v) for v in 255 - rng.integers(0, 22, 3)) if rng.random() < 0.5 else (250, 250, 248)
    return DeckStyle(
        font=str(fonts[int(rng.integers(len(fonts)))]) if fonts else None,
        stroke=int(rng.choice([0, 0, 0, 1, 1, 2])),
        rank_h=float(rng.uniform(0.075, 0.15)),
        squeeze=float(rng.uniform(0.75, 1.1)),
        pip_ratio=float(rng.uniform(0.6, 1.05)),
        gap=float(rng.uniform(0.05, 0.3)),
        margin=(float(rng.uniform(0.025, 0.07)), float(rng.uniform(0.02, 0.05))),
        suit_font=str(pip_fonts[int(rng.integers(len(pip_fonts)))]) if pip_fonts and rng.random() < 0.6 else None,
        outline_suits=bool(rng.random() < 0.08),
        colours=colours,
        paper=paper,
        radius=int(rng.integers(6, 26)),
        four_corners=bool(rng.random() < 0.2),
        frame=bool(rng.random() < 0.3),
        width=int(rng.integers(235, 265)),
        pip_shape=tuple(float(v) for v in rng.uniform(0, 1, 4)),  # drawn last: earlier draws keep their values
    )


def _ink_bbox(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    ys, xs = np.nonzero(mask > 40)
    return (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1) if len(xs) else None


def _cut_to_height(mask: np.ndarray, height: int, squeeze: float = 1.0) -> np.ndarray | None:
    """``mask`` cut to its ink and resized to ``height`` pixels tall (``squeeze`` x as wide); None if no ink."""
    box = _ink_bbox(mask)
    if box is None:
        return None
    x1, y1, x2, y2 = box
    mask = mask[y1:y2, x1:x2]
    w = max(1, round(mask.shape[1] * height / mask.shape[0] * squeeze))
    return cv2.resize(mask, (w, height), interpolation=cv2.INTER_AREA)


def _text_mask(text: str, font_path: str | None, height: int, stroke: int, squeeze: float) -> np.ndarray:
    """An ink mask (uint8) of ``text`` cut to its ink, ``height`` pixels tall, squeezed sideways."""
    font = _font(font_path, max(8, int(height * 1.6)))
    canvas = Image.new("L", (int(height * 1.6 * (len(text) + 1)) + 8, int(height * 2.6) + 8), 0)
    ImageDraw.Draw(canvas).text((4, 4), text, fill=255, font=font, stroke_width=stroke, stroke_fill=255)
    mask = _cut_to_height(np.asarray(canvas), height, squeeze)
    return mask if mask is not None else np.zeros((height, max(1, height // 2)), np.uint8)


def _drawn_pip(canvas: np.ndarray, suit: str, cx: int, cy: int, r: int, shape: tuple[float, ...]) -> None:
    """Draw one pip in white on ``canvas``, about 2r tall around (cx, cy); clubs and spades take ``shape``.

    ``shape`` holds four numbers in [0, 1]: lobe size, lobe spread, stem width and stem flare. A club is three round
    lobes on a flared stem, a spade a point over two round shoulders on one; each deck draws them its own way,
    so that a club and a spade are told apart by shape, not by one drawing of each (hearts and diamonds are
    ``testdeck``'s).
    """
    if suit not in "SC":
        _pip(canvas, suit, cx, cy, r, (255, 255, 255))
        return
    lobe_size, spread, stem, flare = shape
    white = (255, 255, 255)
    stem_half = max(1, round(r * (0.06 + 0.1 * stem)))
    base_half = round(r * (0.2 + 0.4 * flare))
    foot = cy + r
    stem_quad = [[cx - stem_half, cy], [cx + stem_half, cy], [cx + base_half, foot], [cx - base_half, foot]]
    cv2.fillPoly(canvas, [np.array(stem_quad, np.int32)], white, cv2.LINE_AA)
    lobe = max(1, round(r * (0.34 + 0.16 * lobe_size)))
    side = round(r * (0.38 + 0.22 * spread))
    if suit == "C":
        top = cy - r + lobe
        for x, y in ((cx, top), (cx - side, cy + r // 8), (cx + side, cy + r // 8)):
            cv2.circle(canvas, (x, y), lobe, white, -1, cv2.LINE_AA)
        cv2.circle(canvas, (cx, cy), max(1, round(lobe * 0.6)), white, -1, cv2.LINE_AA)
        return
    shoulder_y = cy + round(r * 0.1)
    for x in (cx - side, cx + side):
        cv2.circle(canvas, (x, shoulder_y), lobe, white, -1, cv2.LINE_AA)
    outer = side + lobe
    body = [
        [cx, cy - r],
        [cx + outer, shoulder_y],
        [cx + side, shoulder_y + lobe],
        [cx, shoulder_y + lobe // 2],
        [cx - side, shoulder_y + lobe],
        [cx - outer, shoulder_y],
    ]
    cv2.fillPoly(canvas, [np.array(body, np.int32)], white, cv2.LINE_AA)


def _pip_mask(suit: str, style: DeckStyle, height: int) -> np.ndarray:
    """An ink mask of one suit pip, ``height`` pixels tall."""
    if style.suit_font:
        glyph = SUIT_GLYPHS[suit][1 if style.outline_suits else 0]
        return _text_mask(glyph, style.suit_font, height, 0, 1.0)
    side = height * 2 + 4
    canvas = np.zeros((side, side, 3), np.uint8)
    _drawn_pip(canvas, suit, side // 2, side // 2, height // 2, style.pip_shape)
    mask = _cut_to_height(canvas[..., 0], height)
    return mask if mask is not None else cv2.resize(canvas[..., 0], (height, height), interpolation=cv2.INTER_AREA)


def _paint(img: np.ndarray, mask: np.ndarray, x: int, y: int, colour: tuple[int, int, int]) -> None:
    """Blend ``colour`` into ``img`` through ``mask`` placed with its top-left at (x, y), clipped."""
    h, w = mask.shape
    x1, y1, x2, y2 = max(0, x), max(0, y), min(img.shape[1], x + w), min(img.shape[0], y + h)
    if x2 <= x1 or y2 <= y1:
        return
    a = mask[y1 - y : y2 - y, x1 - x : x2 - x, None].astype(np.float32) / 255
    region = img[y1:y2, x1:x2].astype(np.float32)
    img[y1:y2, x1:x2] = (region * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


def _index_mask(rank: str, suit: str, style: DeckStyle) -> np.ndarray:
    """The corner index (rank over pip) as one ink mask cut to its ink."""
    rank_h = max(8, round(style.rank_h * style.height))
    text = _text_mask(rank, style.font, rank_h, style.stroke, style.squeeze * (0.8 if rank == "10" else 1.0))
    pip = _pip_mask(suit, style, max(6, round(rank_h * style.pip_ratio)))
    gap = round(rank_h * style.gap)
    w = max(text.shape[1], pip.shape[1])
    out = np.zeros((text.shape[0] + gap + pip.shape[0], w), np.uint8)
    out[: text.shape[0], (w - text.shape[1]) // 2 : (w - text.shape[1]) // 2 + text.shape[1]] = text
    top = text.shape[0] + gap
    out[top:, (w - pip.shape[1]) // 2 : (w - pip.shape[1]) // 2 + pip.shape[1]] = pip
    return out


def _centre(img: np.ndarray, rank: str, suit: str, style: DeckStyle, rng: np.random.Generator) -> None:
    """The middle of the card: pips for number cards, one big pip for an ace, a framed picture for courts."""
    h, w = img.shape[:2]
    colour = style.colours[suit]
    left, right, top, bottom = int(w * 0.3), int(w * 0.7), int(h * 0.2), int(h * 0.8)
    if rank == "A":
        big = _pip_mask(suit, style, int(h * rng.uniform(0.15, 0.3)))
        _paint(img, big, (w - big.shape[1]) // 2, (h - big.shape[0]) // 2, colour)
    elif rank in PIP_LAYOUT:
        pip = _pip_mask(suit, style, int(h * rng.uniform(0.09, 0.12)))
        ph, pw = pip.shape
        for fx, fy in PIP_LAYOUT[rank]:
            cx, cy = left + fx * (right - left), top + fy * (bottom - top)
            mask = pip[::-1, ::-1] if fy > 0.5 else pip
            _paint(img, mask, int(cx - pw / 2), int(cy - ph / 2), colour)
    else:
        x1, y1, x2, y2 = int(w * 0.24), int(h * 0.15), int(w * 0.76), int(h * 0.85)
        for _ in range(int(rng.integers(4, 10))):
            tint = tuple(int(v) for v in rng.integers(0, 256, 3))
            centre = (int(rng.integers(x1, x2)), int(rng.integers(y1, y2)))
            axes = (int(rng.integers(8, (x2 - x1) // 2)), int(rng.integers(8, (y2 - y1) // 3)))
            cv2.ellipse(img, centre, axes, float(rng.uniform(0, 180)), 0, 360, tint, -1, cv2.LINE_AA)
        letter = _text_mask(rank, style.font, int((y2 - y1) * 0.3), 1, 1.0)
        _paint(img, letter, (w - letter.shape[1]) // 2, (h - letter.shape[0]) // 2, colour)
        cv2.rectangle(img, (x1, y1), (x2, y2), colour, 2)


@dataclass(frozen=True)
class StyledCard:
    """One card of a styled deck: ``image()`` is RGBA (drawn on each call), ``corners`` its (k, 4, 2) index quads."""

    name: str
    style: DeckStyle
    seed: int
    corners: np.ndarray = field(compare=False)

    def image(self) -> np.ndarray:
        return draw_card(self.name, self.style, self.seed)[0]


def _index_places(index_hw: tuple[int, int], style: DeckStyle) -> list[tuple[int, int, bool]]:
    """(x, y, turned) of each index of ``index_hw`` pixels on a card: two opposite corners, or all four."""
    ih, iw = index_hw
    w, h = style.width, style.height
    x, y = round(style.margin[0] * w), round(style.margin[1] * h)
    places = [(x, y, False), (w - x - iw, h - y - ih, True)]
    if style.four_corners:
        places += [(w - x - iw, y, False), (x, h - y - ih, True)]
    return places


def _quads(index_hw: tuple[int, int], style: DeckStyle) -> np.ndarray:
    """The (k, 4, 2) index quads, each listed from the index's own top-left."""
    ih, iw = index_hw
    quads = []
    for px, py, turned in _index_places(index_hw, style):
        tl, tr, br, bl = [px, py], [px + iw, py], [px + iw, py + ih], [px, py + ih]
        quads.append([br, bl, tl, tr] if turned else [tl, tr, br, bl])
    return np.asarray(quads, np.float32)


def draw_card(name: str, style: DeckStyle, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The RGBA image of card ``name`` in ``style`` and its index quads (each from the index's own top-left)."""
    rank, suit = name[:-1], name[-1]
    w, h = style.width, style.height
    img = np.full((h, w, 3), style.paper, np.uint8)
    rng = np.random.default_rng([seed, CLASS_NAMES.index(name)])
    if style.frame:
        inset = int(w * 0.2)
        cv2.rectangle(img, (inset, int(h * 0.1)), (w - inset, int(h * 0.9)), style.colours[suit], 1, cv2.LINE_AA)
    _centre(img, rank, suit, style, rng)
    index = _index_mask(rank, suit, style)
    for px, py, turned in _index_places(index.shape, style):
        _paint(img, index[::-1, ::-1] if turned else index, px, py, style.colours[suit])
    alpha = rounded_alpha(w, h, style.radius)
    return np.dstack([img, alpha]), _quads(index.shape, style)


@dataclass(frozen=True)
class StyledDeck:
    """Shaped like ``vision.training.cardart.Deck``: name, source, licence, four_colour, jumbo, back, cards, family."""

    name: str
    four_colour: bool
    cards: dict[str, StyledCard]
    source: str = "procedural (system fonts)"
    licence: str = "drawn by cribcam"
    jumbo: bool = False
    back: str | None = None
    family: str = ""


def make_styled_deck(seed: int) -> StyledDeck:
    """The styled deck of ``seed`` (the same seed always draws the same deck)."""
    style = random_style(np.random.default_rng([7919, seed]))
    cards = {n: StyledCard(n, style, seed, _quads(_index_mask(n[:-1], n[-1], style).shape, style)) for n in CLASS_NAMES}
    four = style.colours["C"] != style.colours["S"]
    name = f"styled-{seed:03d}"
    return StyledDeck(name, four_colour=four, cards=cards, family=name)
