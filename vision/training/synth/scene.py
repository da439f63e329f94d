"""One synthetic photo: a layout of one deck's cards on a table, seen by a phone camera, with labels.

>>> from vision.training.synth.testdeck import make_test_deck
>>> shot = render_scene(np.random.default_rng(0), DeckArt(make_test_deck()), 320)
>>> shot.image.shape, all(0 <= c < 52 for c, *_ in shot.labels)
((320, 320, 3), True)
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from scorer.cards import CLASS_NAMES
from vision.training.synth import printed, textures
from vision.training.synth.camera import apply_camera, tilt_homography
from vision.training.synth.compose import (
    BACKGROUND,
    OCCLUDER,
    Canvas,
    corner_label,
    premultiply,
    transform_points,
    translation,
)
from vision.training.synth.layouts import BACK, CARD, SKIN_OVER, SKIN_UNDER, Item, Layout, make_layout, pose

INDEX_PX = (12.0, 120.0)  # corner-index height range (pixels at the output size) that scenes aim for
UPRIGHT_SHARE = 0.4  # scenes photographed the way their player faces them; the rest at any turn
STAMP_P = 0.15  # share of hard-negative scenes with a burnt-in timestamp
MIN_BOX_PX = 6.0  # boxes narrower or shorter than this are not labelled (too small to read)
# Decks whose back shows card faces with indices (unlabelled indices would teach the detector to miss
# them): these get a procedural back instead.
BACKS_SHOWING_INDICES = frozenset({"kde-nicu-white", "kde-nicu-ornamental"})


def _scale(sx: float, sy: float | None = None) -> np.ndarray:
    return np.diag([sx, sx if sy is None else sy, 1.0])


class DeckArt:
    """A deck's card images, premultiplied and kept at halving sizes, loaded lazily (one per worker)."""

    def __init__(self, deck: Any) -> None:
        self.deck = deck
        self.name: str = deck.name
        self._levels: dict[str, list[np.ndarray]] = {}
        first = deck.cards[CLASS_NAMES[0]]
        self.card_h, self.card_w = first.image().shape[:2]
        self.aspect = self.card_w / self.card_h
        heights = [np.linalg.norm(q[3] - q[0]) for c in deck.cards.values() for q in np.asarray(c.corners)]
        self.index_ratio = float(np.median(heights)) / self.card_h if heights else 0.2
        self.back = self._load_back()

    def _load_back(self) -> np.ndarray:
        back = getattr(self.deck, "back", None)
        if back and self.name not in BACKS_SHOWING_INDICES:
            img = cv2.imread(str(back), cv2.IMREAD_UNCHANGED)
            if img is not None and img.ndim == 3 and img.shape[2] == 4:
                img = cv2.cvtColor(img, cv2.COLOR_BGRA2RGBA)
                img = cv2.resize(img, (self.card_w, self.card_h), interpolation=cv2.INTER_AREA)
                return premultiply(img)
        rng = np.random.default_rng(zlib.crc32(self.name.encode()))
        return textures.procedural_back(rng, self.card_w, self.card_h)

    def sprite(self, name: str, px_height: float) -> tuple[np.ndarray, float]:
        """The card image at the smallest stored size still >= ``px_height`` tall, and its scale factor."""
        levels = self._levels.get(name)
        if levels is None:
            levels = [premultiply(np.ascontiguousarray(self.deck.cards[name].image()))]
            self._levels[name] = levels
        factor = 1.0
        k = 0
        while self.card_h * factor * 0.5 >= px_height * 1.15 and factor > 1 / 16:
            k += 1
            factor *= 0.5
            if k >= len(levels):
                prev = levels[-1]
                size = (max(1, round(self.card_w * factor)), max(1, round(self.card_h * factor)))
                levels.append(cv2.resize(prev, size, interpolation=cv2.INTER_AREA))
        img = levels[k]
        return img, img.shape[0] / self.card_h


@dataclass
class Shot:
    """A rendered photo (RGB uint8), its labels (class, x1, y1, x2, y2 pixels) and the scene record."""

    image: np.ndarray
    labels: list[tuple[int, float, float, float, float]]
    record: dict[str, Any] = field(default_factory=dict)


def _unit_to_sprite(w: float, h: float, sw: int, sh: int) -> np.ndarray:
    """Sprite pixels -> the item's unit frame (centred, ``w`` x ``h``)."""
    return np.array([[w / sw, 0, -w / 2], [0, h / sh, -h / 2], [0, 0, 1]], np.float64)


def _place(
    rng: np.random.Generator, layout: Layout, art: DeckArt, imgsz: int, index_px: tuple[float, float] = INDEX_PX
) -> tuple[np.ndarray, float]:
    """Scene-plane transform (units -> table px) and card height in px: random turn, size and position."""
    turn = pose(0, 0, rng.normal(0, 20) if rng.random() < UPRIGHT_SHARE else rng.uniform(0, 360))
    pts = transform_points(turn, layout.corners())
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    extent = float(max(hi - lo))
    s = float(np.exp(rng.uniform(*np.log(index_px)))) / art.index_ratio
    fit = imgsz * rng.uniform(0.7, 0.95) / extent
    s = min(s, fit * (rng.uniform(1.0, 2.5) if rng.random() < 0.35 else 1.0))  # close-ups crop the scene
    room = (imgsz - s * (hi - lo)) / 2
    offset = rng.uniform(-np.abs(room), np.abs(room))
    centre = (lo + hi) / 2
    t = translation(imgsz / 2 + offset[0], imgsz / 2 + offset[1]) @ _scale(s) @ translation(*-centre) @ turn
    return t, s


def _background_frame(cam: np.ndarray, imgsz: int) -> np.ndarray:
    """Background px -> table px: enlarges the background about the centre so it fills the whole photo."""
    c = imgsz / 2
    seen = transform_points(np.linalg.inv(cam), [[0, 0], [imgsz, 0], [imgsz, imgsz], [0, imgsz]])
    k = max(1.0, float(np.abs(seen - c).max()) / c)
    return translation(c, c) @ _scale(k) @ translation(-c, -c)


def _clutter(rng: np.random.Generator, bg: np.ndarray, card_px: float, avoid: np.ndarray) -> None:
    """A cribbage board, a cup, a phone, a score pad and small things, kept off the cards where possible."""
    size = bg.shape[0]
    lo, hi = avoid.min(axis=0), avoid.max(axis=0)

    def spot(margin: float) -> tuple[float, float]:
        """Somewhere off the cards (or, now and then, anywhere: cards lying on the board or a pad)."""
        p = rng.uniform(-0.2 * size, 1.2 * size, 2)
        if rng.random() < 0.25:
            return float(p[0]), float(p[1])
        for _ in range(8):
            if np.any(p < lo - margin) or np.any(p > hi + margin):
                break
            p = rng.uniform(-0.2 * size, 1.2 * size, 2)
        return float(p[0]), float(p[1])

    if rng.random() < 0.35:
        length = card_px * rng.uniform(2.5, 4)
        textures.draw_board(rng, bg, spot(length * 0.2), length)
    if rng.random() < 0.2:
        r = card_px * rng.uniform(0.35, 0.6)
        textures.draw_cup(rng, bg, spot(r), r)
    if rng.random() < 0.12:
        length = card_px * rng.uniform(1.2, 1.7)
        textures.draw_phone(rng, bg, spot(length * 0.5), length)
    if rng.random() < 0.15:
        pad = card_px * rng.uniform(1.0, 2.0)
        textures.draw_score_pad(rng, bg, spot(pad * 0.6), pad)
    if rng.random() < 0.5:
        textures.draw_small_things(rng, bg, card_px)


def _table(
    rng: np.random.Generator,
    cam: np.ndarray,
    cards: np.ndarray,
    card_px: float,
    imgsz: int,
    hard: np.random.Generator | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The table surface and its clutter (kept off the ``cards`` outline points), seen through ``cam``.

    With ``hard`` (its own generator, so the rest of the scene is drawn the same), print that is not a card
    lies on the table too; returns the table and the print's decoy quads in photo pixels (N, 4, 2).
    """
    to_bg = _background_frame(cam, imgsz)
    bg = textures.background(rng, imgsz)
    _clutter(rng, bg, card_px, transform_points(np.linalg.inv(to_bg), cards))
    quads = np.zeros((0, 4, 2))
    if hard is not None:
        found = [printed.draw_printed(hard, bg, card_px) for _ in range(int(hard.integers(1, 4)))]
        quads = transform_points(cam @ to_bg, np.concatenate(found))
    return cv2.warpPerspective(bg, cam @ to_bg, (imgsz, imgsz), borderMode=cv2.BORDER_REFLECT), quads


def _drop_pegs(rng: np.random.Generator, canvas: Canvas, card_px: float) -> None:
    """Pegs lying on top of everything; they hide what is under them."""
    width, height = canvas.size
    r = max(2, int(card_px * 0.03))
    for _ in range(int(rng.integers(1, 4))):
        x, y = int(rng.uniform(0, width)), int(rng.uniform(0, height))
        col = rng.choice([(200, 30, 30), (30, 60, 200), (30, 160, 60), (220, 200, 40)]).tolist()
        cv2.circle(canvas.image, (x, y), r, col, -1, cv2.LINE_AA)
        cv2.circle(canvas.ids, (x, y), r, OCCLUDER, -1)


def render_scene(
    rng: np.random.Generator,
    art: DeckArt,
    imgsz: int = 640,
    layout_name: str | None = None,
    second: DeckArt | None = None,
    index_px: tuple[float, float] = INDEX_PX,
    hard: np.random.Generator | None = None,
) -> Shot:
    """Draw one scene of ``art``'s cards (some from ``second``, if given); every visible index gets a label.

    Corner indices aim at heights drawn log-uniformly from ``index_px`` (pixels), as far as the scene fits.
    ``hard`` (a generator of its own) adds hard negatives: print on the table, now and then a burnt-in
    timestamp, and the record's ``decoys``, boxes of print and of card faces away from the corners.
    """
    layout = make_layout(rng, art.aspect, layout_name)
    classes = rng.choice(len(CLASS_NAMES), size=layout.n_cards, replace=False)
    arts = [second if second is not None and rng.random() < 0.5 else art for _ in range(layout.n_cards)]
    place, card_px = _place(rng, layout, art, imgsz, index_px)
    if rng.random() < 0.3:  # stray face-down cards around the scene
        for _ in range(int(rng.integers(1, 4))):
            x, y = rng.uniform(-0.1, 1.1, 2) * imgsz
            t = translation(x, y) @ _scale(card_px) @ pose(0, 0, rng.uniform(0, 360))
            layout.items.insert(0, Item(BACK, np.linalg.inv(place) @ t, -1, art.aspect, 1.0))
    cam = tilt_homography(rng, imgsz)
    table, print_quads = _table(rng, cam, transform_points(place, layout.corners()), card_px, imgsz, hard)
    lift = rng.uniform(0.005, 0.03)
    if layout.name == "held_fan" and rng.random() < 0.6:  # held up: the table is out of focus, shadows fall far
        table = cv2.GaussianBlur(table, (0, 0), rng.uniform(1.5, 5.0))
        lift = rng.uniform(0.05, 0.2)
    canvas = Canvas(table)
    shadow = rng.uniform(0.1, 0.45)
    light = rng.normal(0, 1, 2)
    offset = light / max(np.linalg.norm(light), 1e-6) * card_px * lift
    shadow_kw = {
        "shadow": shadow,
        "shadow_offset": (round(offset[0]), round(offset[1])),
        "shadow_sigma": 0.8 + card_px * (0.01 + lift * 0.2),
    }
    skins: dict[str, np.ndarray] = {}
    if any(item.kind in (SKIN_OVER, SKIN_UNDER) for item in layout.items):
        tone = textures.skin_tone(rng)
        skins = {SKIN_OVER: textures.finger_sprite(rng, tone), SKIN_UNDER: textures.palm_sprite(rng, tone)}
    paper = np.float32([1.0, 1.0, 1.0])
    if rng.random() < 0.3:  # old, yellowed or grubby cards
        paper -= rng.uniform(0.0, 0.1) * np.float32([0.2, 0.5, 1.0])
    to_image = cam @ place
    cards: list[dict[str, Any]] = []
    for item in layout.items:
        full = to_image @ item.transform
        if item.kind == CARD:
            own = arts[item.slot]
            sprite, factor = own.sprite(CLASS_NAMES[classes[item.slot]], card_px)
            to_card = full @ _unit_to_sprite(own.aspect, item.h, own.card_w, own.card_h)
            h = to_card @ _scale(1 / factor)
            layer = len(cards)
            canvas.paste(sprite, h, layer, tint=paper * rng.uniform(0.92, 1.04), **shadow_kw)
            cards.append({"class": int(classes[item.slot]), "layer": layer, "h": to_card, "art": own})
        elif item.kind == BACK:
            h = full @ _unit_to_sprite(item.w, item.h, art.card_w, art.card_h)
            canvas.paste(art.back, h, OCCLUDER, tint=rng.uniform(0.92, 1.04), **shadow_kw)
        elif item.kind in skins:
            skin = skins[item.kind]
            h = full @ _unit_to_sprite(item.w, item.h, skin.shape[1], skin.shape[0])
            canvas.paste(skin, h, OCCLUDER, shadow=0.3 if item.kind == SKIN_OVER else 0.0, shadow_sigma=2.0)
    if rng.random() < 0.08:
        _drop_pegs(rng, canvas, card_px)
    centres = [transform_points(c["h"], [[c["art"].card_w / 2, c["art"].card_h / 2]])[0] for c in cards]
    image = apply_camera(rng, canvas.image, canvas.ids, np.array(centres).reshape(-1, 2))
    decoys = np.zeros((0, 4), np.float32)
    if hard is not None:
        faces, owners = _face_quads(hard, cards)
        quads = np.concatenate([print_quads, faces])
        owners = np.concatenate([np.full(len(print_quads), BACKGROUND, np.int32), owners])
        decoys = _visible_decoys(canvas.ids, quads, owners)
        if hard.random() < STAMP_P:
            decoys = np.concatenate([decoys, _stamp(hard, image, canvas.ids)])
    labels, records = _label(canvas.ids, cards)
    record = {"deck": art.name, "layout": layout.name, "card_px": round(card_px, 2), "cards": records}
    if hard is not None:
        record["decoys"] = np.round(decoys, 1).tolist()
    if second is not None:
        record["second_deck"] = second.name
    return Shot(image, labels, record)


def _face_quads(rng: np.random.Generator, cards: list[dict[str, Any]]) -> tuple[np.ndarray, np.ndarray]:
    """Corner-sized to 2.4x corner-sized quads on each card's face, away from its indices (pips, court
    art), and the layer each belongs to."""
    quads, owners = [], []
    for card in cards:
        art, h = card["art"], card["h"]
        corner = np.asarray(art.deck.cards[CLASS_NAMES[card["class"]]].corners[0], np.float64)
        size = corner.max(axis=0) - corner.min(axis=0)
        for _ in range(2):
            centre = np.array([art.card_w, art.card_h]) * rng.uniform([0.28, 0.22], [0.72, 0.78])
            half = size * rng.uniform(0.8, 2.4) / 2
            quads.append(transform_points(h, centre + half * np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]])))
            owners.append(card["layer"])
    return np.array(quads).reshape(-1, 4, 2), np.array(owners, np.int32)


def _visible_decoys(ids: np.ndarray, quads: np.ndarray, owners: np.ndarray) -> np.ndarray:
    """Boxes around ``quads`` that lie in the photo, are big enough, and still show their owner (a card's
    layer, or ``BACKGROUND`` for print on the table) at their centre. Any that overlap a labelled corner
    are dropped later, when the classifier's samples are cut."""
    h, w = ids.shape
    boxes = np.concatenate([quads.min(axis=1), quads.max(axis=1)], axis=1).reshape(-1, 4)
    centre = ((boxes[:, :2] + boxes[:, 2:]) / 2).round().astype(int)
    side = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    keep = (boxes[:, 0] >= 0) & (boxes[:, 1] >= 0) & (boxes[:, 2] < w) & (boxes[:, 3] < h) & (side >= MIN_BOX_PX)
    keep[keep] = ids[centre[keep, 1], centre[keep, 0]] == owners[keep]
    return boxes[keep].astype(np.float32)


def _stamp(rng: np.random.Generator, image: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Burns a timestamp into ``image``; what it covers is hidden (``ids``); returns its decoy boxes."""
    boxes = printed.burn_timestamp(rng, image)
    for x1, y1, x2, y2 in boxes.round().astype(int):
        ids[max(0, y1) : y2 + 1, max(0, x1) : x2 + 1] = OCCLUDER
    return boxes


def render_empty(rng: np.random.Generator, imgsz: int = 640, hard: np.random.Generator | None = None) -> Shot:
    """A photo with no cards in it: a table, its clutter and print (and maybe a timestamp); no labels."""
    hard = hard if hard is not None else rng
    card_px = rng.uniform(0.1, 0.4) * imgsz
    cam = tilt_homography(rng, imgsz)
    table, quads = _table(rng, cam, np.array([[imgsz / 2, imgsz / 2]]), card_px, imgsz, hard)
    ids = np.full(table.shape[:2], BACKGROUND, np.int32)
    image = apply_camera(rng, table, ids)
    decoys = _visible_decoys(ids, quads, np.full(len(quads), BACKGROUND, np.int32))
    if hard.random() < STAMP_P:
        decoys = np.concatenate([decoys, _stamp(hard, image, ids)])
    record = {
        "deck": None,
        "layout": "empty",
        "card_px": round(card_px, 2),
        "cards": [],
        "decoys": np.round(decoys, 1).tolist(),
    }
    return Shot(image, [], record)


def _label(
    ids: np.ndarray, cards: list[dict[str, Any]]
) -> tuple[list[tuple[int, float, float, float, float]], list[dict[str, Any]]]:
    """YOLO labels of the visible corners, and each card's outline, corner quads and visibility."""
    labels: list[tuple[int, float, float, float, float]] = []
    records: list[dict[str, Any]] = []
    for card in cards:
        cls, h, art = card["class"], card["h"], card["art"]
        outline = np.array([[0, 0], [art.card_w, 0], [art.card_w, art.card_h], [0, art.card_h]], np.float64)
        name = CLASS_NAMES[cls]
        corners = []
        for quad in np.asarray(art.deck.cards[name].corners, np.float64):
            q = transform_points(h, quad)
            fraction, box = corner_label(ids, q, card["layer"])
            if box is not None and min(box[2] - box[0], box[3] - box[1]) < MIN_BOX_PX:
                box = None
            if box is not None:
                labels.append((cls, *box))
            corners.append(
                {
                    "quad": np.round(q, 2).tolist(),
                    "visible_fraction": round(fraction, 3),
                    "visible": box is not None,
                    "box": None if box is None else [round(v, 2) for v in box],
                }
            )
        polygon = transform_points(h, outline)
        records.append(
            {"card": name, "class": cls, "deck": art.name, "polygon": np.round(polygon, 2).tolist(), "corners": corners}
        )
    return labels, records
