"""Write a synthetic ultralytics dataset: images, YOLO labels, per-image card records, preview, stats.

>>> generate("data/synth", n=20000, seed=0, workers=2)  # doctest: +SKIP

Layout of ``out``: ``images/{train,val}/NNNNNN.jpg``, ``labels/{train,val}/NNNNNN.txt`` (``class cx cy w h``,
normalised), ``cards/{train,val}/NNNNNN.json`` (each card's outline, corner quads and visibility),
``data.yaml``, ``preview.png`` and ``stats.json``. A cards record names its ``image`` and ``size`` (the image's
[width, height]) and lists the face-up cards bottom to top, each with ``polygon`` (the card image's four corners
in photo pixels), and per corner index its ``quad``, ``visible_fraction``, ``visible`` and ``box`` (the YOLO box
in pixels, or null).

Train and val never share a deck design: ``held_out_decks`` picks whole families of decks (by the SHA-1
of the family name, with a four-colour family among them) up to ``VAL_DECK_FRACTION`` of the decks, and
only val uses them. Images ``0 .. n - n_val - 1`` are train, the rest val. Image ``i`` is drawn from a
generator seeded by ``(seed, i)`` alone, so the worker count does not change a byte of the output.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import shutil
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from scorer.cards import CLASS_NAMES
from vision.training.synth.layouts import LAYOUTS
from vision.training.synth.scene import INDEX_PX, DeckArt, render_empty, render_scene
from vision.training.synth.webcam import backlit_webcam

VAL_DECK_FRACTION = 0.2
MIXED_DECK_P = 0.05  # share of scenes with cards from a second deck (of the same split)
SPLITS = ("train", "val")
HARD_STREAM = 104729  # third seed word of the hard negatives' own generator
WEBCAM_STREAM = 130363  # third seed word of the webcam frames' own generator
_PREVIEW_TILES = 16


def _family(deck: Any) -> str:
    return getattr(deck, "family", "") or deck.name


def held_out_decks(decks: Sequence[Any], fraction: float = VAL_DECK_FRACTION) -> list[str]:
    """Names of the decks kept for val: whole design families, about ``fraction`` of the decks.

    Families (a deck with its four-colour, bitmap or jumbo variants) are taken in order of the SHA-1
    of their names until ``fraction`` of the decks is reached, so no variant of a val design is ever
    trained on. If none of them has a four-colour deck but at least two families do, the first
    four-colour family (by hash) replaces the last pick, so val also measures an unusual colouring.
    """
    families: dict[str, list[Any]] = {}
    for deck in decks:
        families.setdefault(_family(deck), []).append(deck)
    if len(families) < 2:
        return []

    def key(name: str) -> str:
        return hashlib.sha1(name.encode()).hexdigest()

    ranked = sorted(families, key=key)
    target = max(1, round(fraction * len(decks)))
    picked: list[str] = []
    for family in ranked[:-1]:
        if sum(len(families[f]) for f in picked) >= target:
            break
        picked.append(family)
    four = [f for f in ranked if any(getattr(d, "four_colour", False) for d in families[f])]
    if len(four) >= 2 and not set(four) & set(picked):
        picked[-1] = four[0]
    return sorted(d.name for f in picked for d in families[f])


class _Job:
    """What every worker needs; decks are turned into ``DeckArt`` lazily, once per worker."""

    def __init__(
        self,
        out: Path,
        decks: dict[str, Any],
        split_decks: dict[str, list[str]],
        n_train: int,
        seed: int,
        imgsz: int,
        index_px: tuple[float, float] = INDEX_PX,
        hard: float = 0.0,
        empty: float = 0.0,
        webcam: float = 0.0,
        layout: str | None = None,
    ):
        self.out, self.decks, self.split_decks = out, decks, split_decks
        self.layout = layout
        self.n_train, self.seed, self.imgsz, self.index_px = n_train, seed, imgsz, index_px
        self.hard, self.empty, self.webcam = hard, empty, webcam
        self.arts: dict[str, DeckArt] = {}

    def art(self, name: str) -> DeckArt:
        if name not in self.arts:
            self.arts[name] = DeckArt(self.decks[name])
        return self.arts[name]

    def split_of(self, i: int) -> str:
        return "train" if i < self.n_train else "val"

    def render(self, i: int) -> dict[str, Any]:
        cpu = time.process_time()
        rng = np.random.default_rng([self.seed, i])
        split = self.split_of(i)
        names = self.split_decks[split]
        art = self.art(names[int(rng.integers(len(names)))])
        second = None
        if len(names) > 1 and rng.random() < MIXED_DECK_P:
            second = self.art(names[int(rng.integers(len(names)))])
        hard = None
        if self.hard > 0 or self.empty > 0:  # a generator of its own: the scene itself is drawn the same
            hard = np.random.default_rng([self.seed, i, HARD_STREAM])
        if hard is not None and hard.random() < self.empty:
            shot = render_empty(rng, self.imgsz, hard)
        else:
            hard = hard if hard is not None and hard.random() < self.hard else None
            other = second if second is not art else None
            shot = render_scene(
                rng, art, self.imgsz, layout_name=self.layout, second=other, index_px=self.index_px, hard=hard
            )
        image = shot.image
        if self.webcam > 0:  # its own generator too: the scene under it is the same
            webcam = np.random.default_rng([self.seed, i, WEBCAM_STREAM])
            if webcam.random() < self.webcam:
                image = backlit_webcam(webcam, image)
        stem = f"{i:06d}"
        quality = int(rng.integers(70, 96))
        bgr = cv2.cvtColor(image, cv2.COLOR_RGB2BGR)
        ok, buf = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
        if not ok:
            raise OSError(f"could not encode image {stem}")
        (self.out / "images" / split / f"{stem}.jpg").write_bytes(buf.tobytes())
        s = float(self.imgsz)
        lines = [
            f"{c} {(x1 + x2) / 2 / s:.6f} {(y1 + y2) / 2 / s:.6f} {(x2 - x1) / s:.6f} {(y2 - y1) / s:.6f}"
            for c, x1, y1, x2, y2 in shot.labels
        ]
        (self.out / "labels" / split / f"{stem}.txt").write_text("".join(line + "\n" for line in lines))
        record = {"image": f"images/{split}/{stem}.jpg", "size": [self.imgsz, self.imgsz], **shot.record}
        (self.out / "cards" / split / f"{stem}.json").write_text(json.dumps(record, separators=(",", ":")))
        return {
            "split": split,
            "deck": art.name,
            "layout": shot.record["layout"],
            "boxes": [(c, x2 - x1, y2 - y1) for c, x1, y1, x2, y2 in shot.labels],
            "cpu": time.process_time() - cpu,
        }


_JOB: _Job | None = None


def _init_worker(job: _Job, single_thread: bool = True) -> None:
    global _JOB
    _JOB = job
    if single_thread:  # one process per core; OpenCV's own threads would only compete
        cv2.setNumThreads(1)


def _render(i: int) -> dict[str, Any]:
    assert _JOB is not None
    return _JOB.render(i)


def write_data_yaml(out: Path) -> Path:
    """``data.yaml`` for ultralytics: absolute ``path``, the two splits and the 52 class names."""
    lines = [f"path: {out.resolve()}", "train: images/train", "val: images/val", f"nc: {len(CLASS_NAMES)}", "names:"]
    lines += [f"  {i}: '{name}'" for i, name in enumerate(CLASS_NAMES)]
    path = out / "data.yaml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _progress(done: int, total: int, start: float) -> None:
    elapsed = time.monotonic() - start
    rate = done / elapsed if elapsed > 0 else 0.0
    eta = (total - done) / rate if rate > 0 else 0.0
    print(f"\rsynth {done}/{total} images  {rate:.1f} img/s  eta {eta:.0f}s ", end="", file=sys.stderr, flush=True)


def generate(
    out: str | Path,
    n: int,
    seed: int = 0,
    imgsz: int = 640,
    workers: int = 2,
    val_fraction: float = 0.1,
    decks: Sequence[Any] | None = None,
    val_decks: Sequence[str] | None = None,
    progress: bool = True,
    overwrite: bool = False,
    index_px: tuple[float, float] = INDEX_PX,
    hard: float = 0.0,
    empty: float = 0.0,
    webcam: float = 0.0,
    layout: str | None = None,
) -> dict[str, Any]:
    """Write ``n`` images to ``out`` (``val_fraction`` of them from held-out decks); returns the stats.

    ``decks`` defaults to every deck from ``vision.training.cardart.load_decks()``; ``val_decks`` (names) to
    ``held_out_decks(decks)``. ``index_px`` is the range of corner-index heights scenes aim for: scaled
    with ``imgsz`` it frames the same scenes at more pixels. ``empty`` is the share of images with no
    cards at all, ``hard`` the share of the others with print that is not a card (``synth.printed``);
    both come from a generator of their own, so at 0 the output is the same as without them; so does
    ``webcam``, the share of photos remade as a backlit webcam's frame (``synth.webcam``). ``layout`` names
    the one kind of scene to draw (``synth.layouts.LAYOUTS``: "singles" is one to three loose cards); by
    default each scene's kind is drawn by ``LAYOUT_WEIGHTS``.
    """
    if decks is None:
        from vision.training.cardart import load_decks

        decks = load_decks()
    if not decks:
        raise ValueError("No card art found; install it with scripts/install_card_art.sh and try again.")
    if n < 1:
        raise ValueError(f"Asked for {n} images; ask for at least one.")
    if not all(0 <= share <= 1 for share in (hard, empty, webcam)):
        raise ValueError(f"The hard, empty and webcam shares must lie between 0 and 1 (got {hard}, {empty}, {webcam}).")
    if layout is not None and layout not in LAYOUTS:
        raise ValueError(f"Unknown layout {layout!r}; choose from {', '.join(LAYOUTS)}.")
    by_name = {d.name: d for d in sorted(decks, key=lambda d: d.name)}
    held = sorted(val_decks) if val_decks is not None else held_out_decks(list(by_name.values()))
    unknown = [name for name in held if name not in by_name]
    if unknown:
        raise ValueError(f"Unknown val deck {unknown[0]}; choose from {', '.join(by_name)}.")
    train_names = [name for name in by_name if name not in held] or list(by_name)
    val_names = held or train_names
    n_val = min(n - 1, max(1, round(n * val_fraction))) if n > 1 and val_fraction > 0 else 0
    out = Path(out)
    _prepare(out, overwrite)
    splits = {"train": train_names, "val": val_names}
    job = _Job(out, by_name, splits, n - n_val, seed, imgsz, tuple(index_px), hard, empty, webcam, layout)
    start = time.monotonic()
    results: list[dict[str, Any]] = []
    if workers <= 1:
        _init_worker(job, single_thread=False)
        for i in range(n):
            results.append(_render(i))
            if progress and (i % 20 == 0 or i == n - 1):
                _progress(i + 1, n, start)
    else:
        ctx = multiprocessing.get_context("spawn")  # a forked OpenCV thread pool can deadlock
        with ctx.Pool(workers, initializer=_init_worker, initargs=(job,)) as pool:
            for r in pool.imap(_render, range(n), chunksize=4):
                results.append(r)
                if progress and (len(results) % 20 == 0 or len(results) == n):
                    _progress(len(results), n, start)
    elapsed = time.monotonic() - start
    if progress:
        print(file=sys.stderr)
    write_data_yaml(out)
    stats = _stats(results, train_names, val_names, seed, imgsz, elapsed, workers)
    stats["index_px"] = list(index_px)
    if hard or empty:
        stats["hard"], stats["empty"] = hard, empty
    if webcam:
        stats["webcam"] = webcam
    (out / "stats.json").write_text(json.dumps(stats, indent=2) + "\n")
    write_preview(out, out / "preview.png")
    return stats


def _prepare(out: Path, overwrite: bool) -> None:
    if (out / "images").exists() or (out / "labels").exists():
        if not overwrite:
            raise ValueError(f"{out} already holds a dataset; pass --overwrite to replace it.")
        for sub in ("images", "labels", "cards"):
            shutil.rmtree(out / sub, ignore_errors=True)
    for sub in ("images", "labels", "cards"):
        for split in SPLITS:
            (out / sub / split).mkdir(parents=True, exist_ok=True)


def _percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    p = np.percentile(np.asarray(values, np.float64), [1, 5, 25, 50, 75, 95, 99])
    return {f"p{q}": round(float(v), 2) for q, v in zip((1, 5, 25, 50, 75, 95, 99), p, strict=True)}


def _stats(
    results: list[dict[str, Any]],
    train_names: list[str],
    val_names: list[str],
    seed: int,
    imgsz: int,
    elapsed: float,
    workers: int,
) -> dict[str, Any]:
    classes = Counter(c for r in results for c, _, _ in r["boxes"])
    per_image = [len(r["boxes"]) for r in results]
    return {
        "images": {split: sum(1 for r in results if r["split"] == split) for split in SPLITS},
        "seed": seed,
        "imgsz": imgsz,
        "decks": {"train": train_names, "val": val_names},
        "images_per_deck": dict(sorted(Counter(r["deck"] for r in results).items())),
        "layouts": dict(sorted(Counter(r["layout"] for r in results).items())),
        "boxes": sum(per_image),
        "boxes_per_image": {
            "mean": round(float(np.mean(per_image)), 2),
            "max": max(per_image),
            "empty": sum(1 for k in per_image if k == 0),
            **_percentiles(per_image),
        },
        "box_height_px": _percentiles([h for r in results for _, _, h in r["boxes"]]),
        "box_width_px": _percentiles([w for r in results for _, w, _ in r["boxes"]]),
        "class_counts": {name: classes.get(i, 0) for i, name in enumerate(CLASS_NAMES)},
        "seconds": round(elapsed, 1),
        "images_per_second": round(len(results) / elapsed, 2) if elapsed > 0 else None,
        "workers": workers,
        "cpu_seconds_per_image": round(float(np.mean([r["cpu"] for r in results])), 4),
    }


def read_labels(path: Path, size: tuple[int, int]) -> list[tuple[int, float, float, float, float]]:
    """YOLO label lines as (class, x1, y1, x2, y2) pixels for an image ``size`` (width, height)."""
    w, h = size
    boxes = []
    for line in path.read_text().splitlines():
        c, cx, cy, bw, bh = line.split()
        x, y, ww, hh = float(cx) * w, float(cy) * h, float(bw) * w, float(bh) * h
        boxes.append((int(c), x - ww / 2, y - hh / 2, x + ww / 2, y + hh / 2))
    return boxes


def draw_labels(image: np.ndarray, boxes: list[tuple[int, float, float, float, float]]) -> np.ndarray:
    """A copy of a BGR image with each box and its card name drawn."""
    out = image.copy()
    for c, x1, y1, x2, y2 in boxes:
        cv2.rectangle(out, (round(x1), round(y1)), (round(x2), round(y2)), (0, 255, 0), 1)
        cv2.putText(
            out,
            CLASS_NAMES[c],
            (round(x1), max(8, round(y1) - 2)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.35,
            (0, 0, 255),
            1,
            cv2.LINE_AA,
        )
    return out


def write_preview(
    out: Path, path: Path, tiles: int = _PREVIEW_TILES, tile: int = 320, cols: int = 4, palette: bool = False
) -> Path:
    """A mosaic of the first images of each split (3/4 train, 1/4 val) with their labels drawn.

    ``palette`` saves a 256-colour PNG, a quarter of the size (for docs/).
    """
    images = sorted((out / "images" / "train").glob("*.jpg"))[: tiles - tiles // 4]
    images += sorted((out / "images" / "val").glob("*.jpg"))[: tiles - len(images)]
    cells = []
    for p in images:
        img = cv2.imread(str(p))
        label = out / "labels" / p.parent.name / f"{p.stem}.txt"
        small = cv2.resize(img, (tile, tile), interpolation=cv2.INTER_AREA)
        cells.append(draw_labels(small, read_labels(label, (tile, tile))))
    while len(cells) % cols:
        cells.append(np.zeros((tile, tile, 3), np.uint8))
    mosaic = np.vstack([np.hstack(cells[i : i + cols]) for i in range(0, len(cells), cols)])
    if palette:
        from PIL import Image

        rgb = Image.fromarray(cv2.cvtColor(mosaic, cv2.COLOR_BGR2RGB))
        rgb.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(path, optimize=True)
    else:
        cv2.imwrite(str(path), mosaic)
    return path
