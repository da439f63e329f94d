"""Card art from packaged SVG decks, rendered once to PNG, with the exact corner-index quadrilaterals.

>>> decks = load_decks()                       # doctest: +SKIP
>>> decks[0].cards["10H"].image().shape         # doctest: +SKIP
(360, 250, 4)

Sources: Debian ``gnome-cards-data`` and ``kdegames-card-data-kf5`` and three npm packages, installed by
``scripts/install_card_art.sh``. Each usable deck is rendered to ``<cache>/<deck>/<CARD>.png`` (RGBA, card
height ``CARD_HEIGHT``) and described in ``<cache>/index.json``. A corner index is the rank symbol plus the
suit pip under (or beside) it; ``CardArt.corners`` holds one quadrilateral per corner that shows an index
(k x 4 x 2 pixel points, ``MARGIN`` px outside the ink): top-left, bottom-right, then top-right and
bottom-left for decks with four indices. Each runs clockwise from the index's own top-left as it reads, so
a bottom-right index turned 180° starts at its bottom-right point on the card.

``vision/training/deck_specs.json`` lists the decks left out by eye (non-English indices, foreign suits) and the
families of decks that share their index art, so a split by deck can keep a family on one side.
"""

from __future__ import annotations

import fnmatch
import gzip
import json
import re
import shutil
import subprocess
from collections.abc import Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from scorer.cards import CLASS_NAMES

REPO = Path(__file__).resolve().parents[2]
DEFAULT_CACHE = REPO / ".cache" / "cards"
NPM_MODULES = REPO / ".cache" / "npm" / "node_modules"
GNOME_DIR = Path("/usr/share/aisleriot/cards")
KDE_DIR = Path("/usr/share/carddecks")
SPECS_FILE = Path(__file__).with_name("deck_specs.json")
CARD_HEIGHT = 360
INDEX_VERSION = 1

_RANK_WORDS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")
_SUIT_WORDS = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}


class DeckError(ValueError):
    """A deck that cannot be used; the message says which deck and why."""


@dataclass(frozen=True)
class ArtRef:
    """Where one card's art lives: an SVG file and, for a whole-deck file, the element id."""

    file: Path
    element: str | None = None


@dataclass(frozen=True)
class DeckSource:
    """One deck design as found in a package, before rendering."""

    name: str
    source: str
    licence: str
    cards: dict[str, ArtRef]
    back: ArtRef | None = None
    four_colour: bool = False
    jumbo: bool = False


@dataclass
class CardArt:
    """One rendered card: its PNG and its corner-index quadrilaterals (k x 4 x 2, pixels)."""

    path: Path
    corners: np.ndarray
    _image: np.ndarray | None = field(default=None, repr=False, compare=False)

    def image(self) -> np.ndarray:
        """The RGBA uint8 image (H x W x 4), read once and kept."""
        if self._image is None:
            bgra = cv2.imread(str(self.path), cv2.IMREAD_UNCHANGED)
            if bgra is None or bgra.ndim != 3 or bgra.shape[2] != 4:
                raise DeckError(f"{self.path} is missing or is not an RGBA PNG; run `cribcam cards --force`.")
            self._image = cv2.cvtColor(bgra, cv2.COLOR_BGRA2RGBA)
        return self._image


@dataclass
class Deck:
    """A usable deck: 52 rendered cards with corner indices, a licence and an optional back."""

    name: str
    source: str
    licence: str
    four_colour: bool
    jumbo: bool
    back: Path | None
    cards: dict[str, CardArt]
    family: str = ""

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of every card image of this deck."""
        h, w = self.cards[CLASS_NAMES[0]].image().shape[:2]
        return w, h


# --------------------------------------------------------------------------------------------------
# The deck checker


def check_deck(name: str, cards: Mapping[str, object] | Iterable[str]) -> None:
    """Raise ``DeckError`` unless ``cards`` (card names, or a mapping keyed by them) has all 52 cards.

    >>> check_deck("half", ["AS", "2S"])
    Traceback (most recent call last):
    ...
    vision.training.cardart.DeckError: deck half lacks 50 of 52 cards: AH, AD, AC, 2H, 2D, 2C, ...
    """
    present = set(cards)
    missing = [c for c in _sorted_by_rank(CLASS_NAMES) if c not in present]
    if missing:
        shown = ", ".join(missing[:6]) + (", ..." if len(missing) > 6 else "")
        raise DeckError(f"deck {name} lacks {len(missing)} of 52 cards: {shown}")


def _sorted_by_rank(names: Iterable[str]) -> list[str]:
    order = {c: i for i, c in enumerate(CLASS_NAMES)}
    return sorted(names, key=lambda c: (order[c] % 13, order[c] // 13))


# --------------------------------------------------------------------------------------------------
# Finding the decks in the installed packages


def _svg_ids(path: Path) -> set[str]:
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return {m.decode() for m in re.findall(rb'\bid=["\']([^"\']+)["\']', data)}


def _debian_licence(package: str, path: str) -> str:
    """The licence of ``path`` (relative to the upstream tree) from /usr/share/doc/<package>/copyright."""
    copyright_file = Path("/usr/share/doc") / package / "copyright"
    try:
        text = copyright_file.read_text(errors="replace")
    except OSError:
        return "unknown (no Debian copyright file)"
    best, best_len = "unknown", -1
    for block in text.split("\n\n"):
        files = re.search(r"^Files:\s*(.+(?:\n\s+.+)*)", block, re.M)
        licence = re.search(r"^License:\s*(\S.*)$", block, re.M)
        if not files or not licence:
            continue
        for pattern in files.group(1).split():
            if fnmatch.fnmatch(path, pattern) and len(pattern) > best_len:
                best, best_len = licence.group(1).strip(), len(pattern)
    return best


def _whole_deck_source(
    name: str, source: str, licence: str, path: Path, element_id, **flags: bool
) -> DeckSource | DeckError:
    ids = _svg_ids(path)
    cards = {}
    for card in CLASS_NAMES:
        element = element_id(card)
        if element in ids:
            cards[card] = ArtRef(path, element)
    try:
        check_deck(name, cards)
    except DeckError as error:
        return error
    back = ArtRef(path, "back") if "back" in ids else None
    return DeckSource(name, source, licence, cards, back, **flags)


def _gnome_id(card: str) -> str:
    return f"{_SUIT_WORDS[card[-1]]}_{_RANK_WORDS[CLASS_NAMES.index(card) % 13]}"


def _kde_id(card: str) -> str:
    return f"{_RANK_WORDS[CLASS_NAMES.index(card) % 13]}_{_SUIT_WORDS[card[-1]]}"


def _ascii_name(stem: str) -> str:
    if stem == "Атласные":
        return "atlasnye-cyrillic"
    return re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-")


def find_sources() -> tuple[list[DeckSource], dict[str, str]]:
    """All deck designs in the installed packages, and {deck: reason} for those that are incomplete."""
    found: list[DeckSource | DeckError] = []
    names: list[str] = []
    for path in sorted(GNOME_DIR.glob("*.svgz")):
        name = f"gnome-{_ascii_name(path.stem)}"
        licence = _debian_licence("gnome-cards-data", f"cards/{path.name}")
        names.append(name)
        found.append(
            _whole_deck_source(name, "gnome-cards-data", licence, path, _gnome_id, four_colour="4_color" in path.stem)
        )
    for folder in sorted(KDE_DIR.glob("svg-*")):
        svgs = sorted(folder.glob("*.svg*"))
        if not svgs:
            continue
        name = f"kde-{folder.name.removeprefix('svg-')}"
        licence = _debian_licence("kdegames-card-data-kf5", f"carddecks/{folder.name}/{svgs[0].name}")
        names.append(name)
        found.append(_whole_deck_source(name, "kdegames-card-data-kf5", licence, svgs[0], _kde_id))
    found += _npm_sources(names)
    sources = [s for s in found if isinstance(s, DeckSource)]
    problems = {}
    for item, name in zip(found, names, strict=True):
        if isinstance(item, DeckError):
            problems[name] = str(item)
    return sources, problems


def _npm_licence(package_dir: Path) -> str:
    try:
        return str(json.loads((package_dir / "package.json").read_text()).get("license", "unknown"))
    except (OSError, ValueError):
        return "unknown"


def _npm_sources(names: list[str]) -> list[DeckSource | DeckError]:
    out: list[DeckSource | DeckError] = []
    pkg = NPM_MODULES / "@younestouati" / "playing-cards-standard-deck"
    if pkg.is_dir():
        name = "npm-touati-standard"
        names.append(name)
        files = {}
        for i, card in enumerate(CLASS_NAMES):
            f = pkg / "cards" / f"{i % 13 + 1}{card[-1].lower()}.svg"
            if f.is_file():
                files[card] = ArtRef(f)
        out.append(
            _file_deck(
                name,
                "npm @younestouati/playing-cards-standard-deck",
                _npm_licence(pkg),
                files,
                pkg / "cards" / "back.svg",
            )
        )
    pkg = NPM_MODULES / "svg-cards"
    if (pkg / "svg-cards.svg").is_file():
        name = "npm-svg-cards"
        names.append(name)
        out.append(_whole_deck_source(name, "npm svg-cards", _npm_licence(pkg), pkg / "svg-cards.svg", _gnome_id))
    pkg = NPM_MODULES / "@heruka_urgyen" / "react-playing-cards"
    images = pkg / "src" / "images"
    kennard = "CC0 (Adrian Kennard's cards; npm package MIT)"
    for folder, suffix, four, jumbo in (
        ("2color", "", False, False),
        ("4color", "-4colour", True, False),
        ("2color-bf", "-jumbo", False, True),
        ("4color-bf", "-jumbo-4colour", True, True),
    ):
        if not (images / folder).is_dir():
            continue
        name = f"npm-kennard{suffix}"
        names.append(name)
        files = {}
        for card in CLASS_NAMES:
            f = images / folder / f"{card.replace('10', 'T')}.svg"
            if f.is_file():
                files[card] = ArtRef(f)
        out.append(
            _file_deck(
                name,
                "npm @heruka_urgyen/react-playing-cards",
                kennard,
                files,
                images / "back.svg",
                four_colour=four,
                jumbo=jumbo,
            )
        )
    return out


def _file_deck(
    name: str, source: str, licence: str, files: dict[str, ArtRef], back: Path, **flags: bool
) -> DeckSource | DeckError:
    try:
        check_deck(name, files)
    except DeckError as error:
        return error
    return DeckSource(name, source, licence, files, ArtRef(back) if back.is_file() else None, **flags)


# --------------------------------------------------------------------------------------------------
# Rendering


def _rsvg(ref: ArtRef, zoom: float) -> np.ndarray:
    """Render ``ref`` at ``zoom`` with rsvg-convert; RGBA uint8."""
    cmd = ["rsvg-convert", "-z", f"{zoom:.6f}"]
    if ref.element:
        cmd += ["-i", ref.element]
    cmd.append(str(ref.file))
    result = subprocess.run(cmd, capture_output=True, check=False)
    png = np.frombuffer(result.stdout, np.uint8)
    image = cv2.imdecode(png, cv2.IMREAD_UNCHANGED) if result.returncode == 0 and png.size else None
    if image is None:
        why = result.stderr.decode(errors="replace").strip()[:160]
        raise DeckError(f"rsvg-convert cannot render {ref.file.name} {ref.element or ''}: {why}")
    if image.ndim == 2 or image.shape[2] != 4:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGRA if image.ndim == 2 else cv2.COLOR_BGR2BGRA)
    return cv2.cvtColor(image, cv2.COLOR_BGRA2RGBA)


def _card_box(rgba: np.ndarray) -> tuple[int, int, int, int]:
    """x, y, w, h of the largest opaque blob: the card itself (an element's box may hold invisible extras)."""
    mask = (rgba[..., 3] > 0).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n < 2:
        raise DeckError("the rendered card is empty")
    i = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = stats[i, :4]
    return int(x), int(y), int(w), int(h)


def _render_card(ref: ArtRef, zoom: float, size: tuple[int, int] | None) -> np.ndarray:
    rgba = _rsvg(ref, zoom)
    x, y, w, h = _card_box(rgba)
    card = rgba[y : y + h, x : x + w]
    if size and (w, h) != size:
        card = cv2.resize(card, size, interpolation=cv2.INTER_AREA)
    return card


def render_source(src: DeckSource, out_dir: Path, height: int = CARD_HEIGHT) -> tuple[int, int]:
    """Render the 52 cards (and back) of ``src`` into ``out_dir/<CARD>.png``; returns the card size (w, h).

    The zoom is set once per deck from its ace of spades so that cards are ``height`` pixels tall.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    first = src.cards[CLASS_NAMES[0]]
    _, _, w0, h0 = _card_box(_rsvg(first, 1.0))
    zoom = height / h0
    size = (round(w0 * zoom), height)
    for card, ref in src.cards.items():
        _write_png(out_dir / f"{card}.png", _render_card(ref, zoom, size))
    if src.back:
        back = _render_card(src.back, zoom, None)
        _write_png(out_dir / "back.png", back)
    return size


def _write_png(path: Path, rgba: np.ndarray) -> None:
    if not cv2.imwrite(str(path), cv2.cvtColor(rgba, cv2.COLOR_RGBA2BGRA)):
        raise DeckError(f"cannot write {path}")


def contact_sheet(images: list[list[np.ndarray]], labels: list[str], cell_h: int = 180) -> np.ndarray:
    """A grid image (RGB) with one labelled row per entry of ``images``."""
    rows = []
    for row, label in zip(images, labels, strict=True):
        cells = []
        for im in row:
            k = cell_h / im.shape[0]
            im = cv2.resize(im, (round(im.shape[1] * k), cell_h), interpolation=cv2.INTER_AREA)
            rgb = im[..., :3].astype(np.float32)
            a = im[..., 3:4].astype(np.float32) / 255
            bg = np.full_like(rgb, (90, 140, 90))
            cells.append((rgb * a + bg * (1 - a)).astype(np.uint8))
            cells.append(np.full((cell_h, 6, 3), (90, 140, 90), np.uint8))
        strip = np.concatenate(cells, axis=1)
        title = np.full((22, strip.shape[1], 3), 255, np.uint8)
        cv2.putText(title, label, (4, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1, cv2.LINE_AA)
        rows.append(np.concatenate([title, strip], axis=0))
    width = max(r.shape[1] for r in rows)
    rows = [np.pad(r, ((0, 0), (0, width - r.shape[1]), (0, 0)), constant_values=255) for r in rows]
    return np.concatenate(rows, axis=0)


# --------------------------------------------------------------------------------------------------
# Locating the corner indices

_VIEWS = ("tl", "br", "tr", "bl")  # which card corner each view brings to the top-left


def _view(image: np.ndarray, corner: str) -> np.ndarray:
    """``image`` turned so that ``corner`` is at the top-left (180° turn for br, mirror for tr and bl)."""
    if corner == "br":
        return image[::-1, ::-1]
    if corner == "tr":
        return image[:, ::-1]
    if corner == "bl":
        return image[::-1, :]
    return image


def _unview_box(box: tuple[float, float, float, float], corner: str, w: int, h: int) -> tuple[float, ...]:
    x1, y1, x2, y2 = box
    if corner in ("br", "tr"):
        x1, x2 = w - x2, w - x1
    if corner in ("br", "bl"):
        y1, y2 = h - y2, h - y1
    return x1, y1, x2, y2


def _paper(rgb: np.ndarray) -> np.ndarray:
    """The card's paper colour near a corner: the commonest colour (coarsely binned)."""
    q = (rgb // 16).reshape(-1, 3).astype(np.int32)
    keys = q[:, 0] * 256 + q[:, 1] * 16 + q[:, 2]
    common = np.bincount(keys).argmax()
    return rgb.reshape(-1, 3)[keys == common].mean(axis=0)


def _window_paper(view: np.ndarray, window: tuple[int, int]) -> np.ndarray:
    """The paper colour in the top-left ``window`` (w, h) of ``view``."""
    patch = view[: window[1], : window[0]]
    opaque = patch[..., 3] > 200
    return _paper(patch[..., :3][opaque].astype(np.float32)) if opaque.any() else np.full(3, 255.0)


def _ink(view: np.ndarray, window: tuple[int, int], threshold: float, paper: np.ndarray) -> np.ndarray:
    """Boolean mask of ink (far from ``paper``, opaque) in the top-left ``window`` (w, h) of ``view``."""
    patch = view[: window[1], : window[0]].astype(np.float32)
    return (patch[..., 3] > 200) & (np.linalg.norm(patch[..., :3] - paper, axis=-1) > threshold)


@dataclass(frozen=True)
class _Blob:
    x1: int
    y1: int
    x2: int
    y2: int
    area: int

    @property
    def w(self) -> int:
        return self.x2 - self.x1

    @property
    def h(self) -> int:
        return self.y2 - self.y1


def _blobs(ink: np.ndarray, max_size: int) -> list[_Blob]:
    """Connected ink pieces, leaving out those longer than ``max_size`` (card border, court frame)."""
    _, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    return [
        _Blob(int(x), int(y), int(x + w), int(y + h), int(a))
        for x, y, w, h, a in stats[1:]
        if w <= max_size and h <= max_size
    ]


def _extend_rank(rank: _Blob, blobs: list[_Blob], join: int) -> _Blob:
    """The rank with the glyphs right beside it of the same height and line (the 0 of a 10)."""
    rest = [b for b in blobs if b is not rank]
    while True:
        nxt = [
            b
            for b in rest
            if rank.x2 - 1 <= b.x1 <= rank.x2 + join
            and abs(b.h - rank.h) <= 0.2 * rank.h
            and abs(b.y1 - rank.y1) <= 0.2 * rank.h
        ]
        if not nxt:
            return rank
        b = nxt[0]
        rest.remove(b)
        rank = _Blob(rank.x1, min(rank.y1, b.y1), max(rank.x2, b.x2), max(rank.y2, b.y2), rank.area + b.area)


def _find_parts(ink: np.ndarray, card_w: int, card_h: int) -> tuple[_Blob, _Blob | None] | None:
    """The rank blob nearest the corner and the suit pip under it (or beside it; None if neither)."""
    join = max(2, round(card_h * 0.012))
    blobs = [b for b in _blobs(ink, round(card_h * 0.3)) if b.h >= card_h * 0.02 and b.area >= 6]
    if not blobs:
        return None
    first = min(blobs, key=lambda b: np.hypot(b.x1, b.y1))
    rank = _extend_rank(first, blobs, join)
    blobs = [b for b in blobs if not (b.x1 >= rank.x1 and b.x2 <= rank.x2 and b.y1 >= rank.y1 and b.y2 <= rank.y2)]
    if rank.x1 > card_w * 0.2 or rank.y1 > card_h * 0.15:
        return None
    below = [
        b
        for b in blobs
        if b.y1 >= rank.y1 + rank.h * 0.6
        and b.y1 - rank.y2 < rank.h * 0.8
        and b.x1 < rank.x2
        and b.x2 > rank.x1
        and b.h < rank.h * 1.6
        and b.w < rank.h * 2
    ]
    beside = [
        b
        for b in blobs
        if b.x1 >= rank.x2 - 1
        and b.x1 - rank.x2 < rank.h * 0.8
        and b.y1 < rank.y2
        and b.y2 > rank.y1
        and b.h < rank.h * 1.6
    ]
    if below:
        return rank, min(below, key=lambda b: b.y1 - rank.y2)
    if beside:
        return rank, min(beside, key=lambda b: b.x1 - rank.x2)
    return rank, None


Box = tuple[float, float, float, float]


def _union(*blobs: _Blob | None) -> Box:
    parts = [b for b in blobs if b is not None]
    return min(b.x1 for b in parts), min(b.y1 for b in parts), max(b.x2 for b in parts), max(b.y2 for b in parts)


def _usual(boxes: Mapping[str, Box], w: int, h: int) -> list[str]:
    """The cards (in deck order) whose index box has the deck's typical place and size."""
    if not boxes:
        return []
    typical = _typical(boxes.values())
    return [c for c in CLASS_NAMES if c in boxes and _is_usual(boxes[c], typical, w, h)]


def _typical(boxes: Iterable[Box]) -> tuple[float, float, float, float]:
    """Median left, top, width and height of index boxes."""
    a = np.array(list(boxes), np.float32)
    return tuple(float(v) for v in np.median(np.c_[a[:, :2], a[:, 2:] - a[:, :2]], axis=0))


def _is_usual(b: Box, typical: tuple[float, float, float, float], w: int, h: int) -> bool:
    """Same place (within 5% of the card), height (30%) and about the width (0.5-1.7x) as ``typical``."""
    x, y, bw, bh = typical
    return (
        abs(b[0] - x) <= 0.05 * w
        and abs(b[1] - y) <= 0.05 * h
        and abs((b[3] - b[1]) - bh) <= 0.3 * bh
        and 0.5 * bw <= b[2] - b[0] <= 1.7 * bw
    )


def _match(ink: np.ndarray, donor_ink: np.ndarray, part: _Blob, reach: int) -> _Blob | None:
    """Where ``part`` of a donor card's ink (a rank or pip glyph) lies in ``ink``, near the same place."""
    template = donor_ink[part.y1 : part.y2, part.x1 : part.x2].astype(np.float32)
    x0, y0 = max(0, part.x1 - reach), max(0, part.y1 - reach)
    region = ink[y0 : part.y2 + reach, x0 : part.x2 + reach].astype(np.float32)
    if region.shape[0] < template.shape[0] or region.shape[1] < template.shape[1] or template.sum() == 0:
        return None
    near = cv2.dilate(template, np.ones((5, 5), np.uint8))  # judge only the glyph and a thin ring round it
    misfit, _, (dx, dy), _ = cv2.minMaxLoc(cv2.matchTemplate(region, template, cv2.TM_SQDIFF, mask=near))
    if misfit > 0.2 * template.sum():
        return None
    return _Blob(x0 + dx, y0 + dy, x0 + dx + part.w, y0 + dy + part.h, part.area)


def find_corner_boxes(
    images: Mapping[str, np.ndarray], threshold: float = 80.0, window: float = 0.5
) -> dict[str, dict[str, list[Box]]]:
    """For each card and each of the four corners, candidate index boxes (card pixels, x1 y1 x2 y2).

    Ink that is the same on most cards of the deck (borders, frames, corner ornaments) is ignored.
    Candidates, best first: the ink as it is; the ink with lines under 3 px erased (glyphs touching
    a frame line); and the rank glyph of a same-rank card plus the pip of a same-suit card, found
    by template matching near their usual place (glyphs touching a picture or a big pip).
    """
    h, w = next(iter(images.values())).shape[:2]
    win = (round(w * window), round(h * window))
    thin = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    out: dict[str, dict[str, list[Box]]] = {c: {} for c in images}
    for corner in _VIEWS:
        papers = {c: _window_paper(_view(im, corner), win) for c, im in images.items()}
        usual_paper = np.median(np.stack(list(papers.values())), axis=0)
        for c, paper in papers.items():  # a court card's picture can outnumber its paper
            if np.linalg.norm(paper - usual_paper) > 40:
                papers[c] = usual_paper
        inks = {c: _ink(_view(im, corner), win, threshold, papers[c]) for c, im in images.items()}
        colours = np.stack([_view(im, corner)[: win[1], : win[0], :3] for im in images.values()])
        steady = colours.astype(np.float32).std(axis=0).max(axis=-1) < 20
        common = (np.mean(np.stack(list(inks.values())), axis=0) >= 0.9) & steady
        common = cv2.dilate(common.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
        inks = {c: ink & ~common for c, ink in inks.items()}
        found: dict[str, list[Box]] = {c: [] for c in images}
        parts = {}
        for card, ink in inks.items():
            first = _find_parts(ink, w, h)
            if first is not None:
                parts[card] = first
                found[card].append(_union(*first))
            opened = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_OPEN, thin).astype(bool)
            second = _find_parts(opened, w, h)
            if second is not None:
                x1, y1, x2, y2 = _union(*second)
                found[card].append((max(0, x1 - 1), max(0, y1 - 1), x2 + 1, y2 + 1))
        donors = _usual({c: _union(*p) for c, p in parts.items() if p[1] is not None}, w, h)
        reach = round(0.04 * h)
        for card in images:
            by_rank = sorted(
                (d for d in donors if d[:-1] == card[:-1] and d != card),
                key=lambda d: (d[-1] in "HD") != (card[-1] in "HD"),
            )
            by_suit = [d for d in donors if d[-1] == card[-1] and d != card]
            if card in donors or not by_rank or not by_suit:
                continue
            rank = next((m for d in by_rank if (m := _match(inks[card], inks[d], parts[d][0], reach))), None)
            pip = next((m for d in by_suit if (m := _match(inks[card], inks[d], parts[d][1], reach))), None)
            if rank is not None and pip is not None:
                found[card].append(_union(rank, pip))
        for card in images:
            out[card][corner] = [_unview_box(b, corner, w, h) for b in found[card]]
    return out


MARGIN = 2  # px added around the ink of rank + pip


def _grey(image: np.ndarray) -> np.ndarray:
    rgb = image[..., :3].astype(np.float32)
    alpha = image[..., 3:4].astype(np.float32) / 255
    return cv2.cvtColor((rgb * alpha + 255 * (1 - alpha)).astype(np.uint8), cv2.COLOR_RGB2GRAY)


def _likeness(grey: np.ndarray, a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, bool]:
    """How alike the ink in boxes ``a`` and ``b`` is (normalised correlation), and whether b is turned 180°."""
    (ax1, ay1, ax2, ay2), (bx1, by1, bx2, by2) = (map(int, a), map(int, b))
    aw, ah, bw, bh = ax2 - ax1, ay2 - ay1, bx2 - bx1, by2 - by1
    if abs(aw - bw) > max(4, 0.12 * aw) or abs(ah - bh) > max(4, 0.12 * ah):
        return 0.0, False
    pa = grey[ay1:ay2, ax1:ax2].astype(np.float32)
    pb = cv2.resize(grey[by1:by2, bx1:bx2], (ax2 - ax1, ay2 - ay1)).astype(np.float32)
    upright = float(cv2.matchTemplate(pa, pb, cv2.TM_CCOEFF_NORMED)[0, 0])
    turned = float(cv2.matchTemplate(pa, pb[::-1, ::-1].copy(), cv2.TM_CCOEFF_NORMED)[0, 0])
    return max(upright, turned), turned > upright


def _quad(box: tuple[float, ...], turned: bool, w: int, h: int) -> list[list[float]]:
    """Four points clockwise from the index's own top-left (its bottom-right on the card if turned)."""
    x1, y1, x2, y2 = box
    x1, y1 = max(0.0, x1 - MARGIN), max(0.0, y1 - MARGIN)
    x2, y2 = min(float(w), x2 + MARGIN), min(float(h), y2 + MARGIN)
    pts = [[x1, y1], [x2, y1], [x2, y2], [x1, y2]]
    return pts[2:] + pts[:2] if turned else pts


def locate_corners(images: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Corner-index quadrilaterals (k x 4 x 2 float32, same k for every card) for a deck's 52 images.

    The top-left index is the rank blob nearest the corner plus the pip under (or beside) it, the
    same size and place on every card; the other corners are searched the same way on the turned
    or mirrored card and kept where they match the top-left index (same size, same ink up to a 180°
    turn) on every card. Raises ``DeckError`` with the reason when they cannot be located exactly.
    """
    check_deck("being located", images)
    boxes = find_corner_boxes(images)
    h, w = next(iter(images.values())).shape[:2]
    firsts = {c: boxes[c]["tl"][0] for c in CLASS_NAMES if boxes[c]["tl"]}
    if len(firsts) < 26:
        raise DeckError(f"no corner index found at the top-left of {52 - len(firsts)} cards")
    typical = _typical(firsts.values())

    def usual(b: Box) -> bool:
        return _is_usual(b, typical, w, h)

    greys = {c: _grey(im) for c, im in images.items()}
    kept: dict[str, list[tuple[Box, bool]]] = {}
    odd = []
    for c in CLASS_NAMES:
        tl = next((b for b in boxes[c]["tl"] if usual(b)), None)
        if tl is None:
            odd.append(c)
        else:
            kept[c] = [(tl, False)]
    if odd:
        raise DeckError(f"no top-left index like the others' on {', '.join(odd[:5])}")
    for corner in ("br", "tr", "bl"):
        found = {}
        for c in CLASS_NAMES:
            for box in boxes[c][corner]:
                score, turned = _likeness(greys[c], kept[c][0][0], box)
                if score >= 0.6:
                    found[c] = (box, turned)
                    break
        bad = [c for c in CLASS_NAMES if c not in found]
        if corner == "br" and bad:
            raise DeckError(f"bottom-right index of {', '.join(bad[:5])} does not match the top-left one")
        if not bad:
            for c in CLASS_NAMES:
                kept[c].append(found[c])
        elif len(found) >= 40:
            raise DeckError(f"{corner} index found on most cards but not on {', '.join(bad[:5])}")
    return {c: np.array([_quad(b, turned, w, h) for b, turned in kept[c]], np.float32) for c in CLASS_NAMES}


# --------------------------------------------------------------------------------------------------
# The cache: render, locate, index


JUMBO_RATIO = 0.28  # index height / card height above which a deck counts as jumbo-index


def load_specs(path: Path = SPECS_FILE) -> dict:
    """The hand-made deck decisions: ``{"drop": {deck: reason}, "family": {deck: family}}``."""
    return json.loads(path.read_text())


def _fit_back(back: np.ndarray, face: np.ndarray) -> np.ndarray:
    """The back at the face's size; a back that is only a pattern tile is tiled into the face's outline."""
    h, w = face.shape[:2]
    bh, bw = back.shape[:2]
    if abs(bw / bh - w / h) < 0.08 * w / h:
        return cv2.resize(back, (w, h), interpolation=cv2.INTER_AREA)
    reps = (h // bh + 1, w // bw + 1, 1)
    tiled = np.tile(back, reps)[:h, :w].copy()
    tiled[..., 3] = face[..., 3]
    return tiled


def _read_rgba(path: Path) -> np.ndarray:
    bgra = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if bgra is None:
        raise DeckError(f"cannot read {path}")
    return cv2.cvtColor(bgra, cv2.COLOR_BGRA2RGBA)


def build_deck(src: DeckSource, cache_dir: Path, force: bool = False) -> dict:
    """Render ``src`` into ``cache_dir/<name>`` (unless already there) and locate its indices.

    Returns the deck's index.json entry; raises ``DeckError`` with the reason if the deck is unusable.
    """
    out = cache_dir / src.name
    done = all((out / f"{c}.png").is_file() for c in CLASS_NAMES)
    if force or not done:
        if out.exists():
            shutil.rmtree(out)
        render_source(src, out)
    images = {c: _read_rgba(out / f"{c}.png") for c in CLASS_NAMES}
    sizes = {im.shape[:2] for im in images.values()}
    if len(sizes) != 1:
        raise DeckError(f"cards of {src.name} differ in size: {sorted(sizes)}")
    corners = locate_corners(images)
    h, w = next(iter(sizes))
    back = None
    if (out / "back.png").is_file():
        fitted = _fit_back(_read_rgba(out / "back.png"), images[CLASS_NAMES[0]])
        _write_png(out / "back.png", fitted)
        back = f"{src.name}/back.png"
    index_h = float(np.median([q[0, :, 1].max() - q[0, :, 1].min() for q in corners.values()]))
    return {
        "name": src.name,
        "source": src.source,
        "licence": src.licence,
        "family": load_specs()["family"].get(src.name, src.name),
        "four_colour": src.four_colour,
        "jumbo": src.jumbo or index_h / h > JUMBO_RATIO,
        "size": [w, h],
        "corners_per_card": int(corners[CLASS_NAMES[0]].shape[0]),
        "back": back,
        "cards": {c: {"file": f"{src.name}/{c}.png", "corners": np.round(corners[c], 1).tolist()} for c in CLASS_NAMES},
    }


def _build_or_reason(src: DeckSource, cache_dir: Path, force: bool) -> dict | str:
    try:
        return build_deck(src, cache_dir, force)
    except DeckError as error:
        return str(error)


def render_all(
    cache_dir: Path = DEFAULT_CACHE, force: bool = False, workers: int = 2, only: Iterable[str] | None = None
) -> list[Deck]:
    """Render every usable deck (or those named in ``only``) into ``cache_dir``, write ``index.json``.

    Cards already in the cache are not rendered again unless ``force``. Returns the usable decks.
    """
    cache_dir = Path(cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    sources, dropped = find_sources()
    if only is not None:
        wanted = set(only)
        sources = [s for s in sources if s.name in wanted]
        dropped = {k: v for k, v in dropped.items() if k in wanted}
    drops = load_specs()["drop"]
    todo = []
    for src in sources:
        if src.name in drops:
            dropped[src.name] = drops[src.name]
        else:
            todo.append(src)
    entries = []
    with ProcessPoolExecutor(workers) as pool:
        results = pool.map(_build_or_reason, todo, [cache_dir] * len(todo), [force] * len(todo))
        for src, result in zip(todo, results, strict=True):
            if isinstance(result, str):
                dropped[src.name] = result
            else:
                entries.append(result)
    index = {
        "version": INDEX_VERSION,
        "card_height": CARD_HEIGHT,
        "decks": entries,
        "dropped": dict(sorted(dropped.items())),
    }
    tmp = cache_dir / "index.json.tmp"
    tmp.write_text(json.dumps(index, indent=1))
    tmp.replace(cache_dir / "index.json")
    return load_decks(cache_dir)


def read_index(cache_dir: Path = DEFAULT_CACHE) -> dict:
    """The parsed ``index.json`` of ``cache_dir`` (raises ``FileNotFoundError`` if not rendered yet)."""
    return json.loads((Path(cache_dir) / "index.json").read_text())


def load_decks(cache_dir: Path = DEFAULT_CACHE) -> list[Deck]:
    """The usable decks in ``cache_dir``, rendering them first if the cache has no index."""
    cache_dir = Path(cache_dir)
    if not (cache_dir / "index.json").is_file():
        return render_all(cache_dir)
    decks = []
    for entry in read_index(cache_dir)["decks"]:
        cards = {
            c: CardArt(cache_dir / v["file"], np.asarray(v["corners"], np.float32)) for c, v in entry["cards"].items()
        }
        decks.append(
            Deck(
                name=entry["name"],
                source=entry["source"],
                licence=entry["licence"],
                four_colour=entry["four_colour"],
                jumbo=entry["jumbo"],
                back=cache_dir / entry["back"] if entry["back"] else None,
                cards=cards,
                family=entry.get("family", entry["name"]),
            )
        )
    return decks


SHEET_CARDS = ("AS", "10H", "QD", "KC")


def draw_corners(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """RGB copy of a card on grey with its index quadrilaterals drawn (first point marked)."""
    alpha = image[..., 3:4].astype(np.float32) / 255
    rgb = (image[..., :3] * alpha + 128 * (1 - alpha)).astype(np.uint8)
    for quad in corners:
        pts = np.round(quad).astype(np.int32)
        cv2.polylines(rgb, [pts], True, (255, 0, 255), 1, cv2.LINE_AA)
        cv2.circle(rgb, tuple(int(v) for v in pts[0]), 3, (0, 160, 255), -1)
    return rgb


def deck_sheet(
    decks: Iterable[Deck], cards: Iterable[str] = SHEET_CARDS, cell_h: int = 180, columns: int = 1
) -> np.ndarray:
    """A contact sheet (RGB): per deck, the chosen cards with index boxes drawn, and its back.

    Decks run down ``columns`` side-by-side columns.
    """
    cards = tuple(cards)
    rows, labels = [], []
    for deck in decks:
        row = []
        for c in cards:
            art = deck.cards[c]
            drawn = draw_corners(art.image(), art.corners)
            row.append(np.dstack([drawn, np.full(drawn.shape[:2], 255, np.uint8)]))
        if deck.back:
            row.append(_read_rgba(deck.back))
        rows.append(row)
        flags = [f for f, on in (("4-colour", deck.four_colour), ("jumbo", deck.jumbo)) if on]
        labels.append(f"{deck.name} ({deck.licence[:24]}) {' '.join(flags)}")
    per = -(-len(rows) // columns)
    parts = [contact_sheet(rows[i : i + per], labels[i : i + per], cell_h) for i in range(0, len(rows), per)]
    height = max(p.shape[0] for p in parts)
    parts = [np.pad(p, ((0, height - p.shape[0]), (0, 8), (0, 0)), constant_values=255) for p in parts]
    return np.concatenate(parts, axis=1)
