"""Photo to cards, both backends on the same photos in one run: milliseconds per photo and the ratio.

    python bench/bench_detector.py [--models models] [--repeats 5]

Photos: the real bidly photos (1200 x 1200), a 12 MP (4032 x 3024) JPEG made by upscaling one of
them, as a phone would give, and the app's sample hand (1600 x 1200, 4:3: the common case, a hand
in one pass). Each measurement is ``read_photo`` end to end (decode, detect, classify, merge, layout);
backends alternate photo by photo so machine noise hits both alike. The median of ``--repeats`` runs
after one warm-up is reported.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import cv2

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from vision.detector import BACKENDS, CardDetector  # noqa: E402
from vision.reading import read_photo  # noqa: E402
from vision.training.real_photos import find_root  # noqa: E402

TARGET_12MP_MS = 250
SAMPLE_HAND = REPO / "tests" / "data" / "sample_hand.jpg"
TWELVE_MP_NAME = "phone_12mp.jpg"
RATIO_HEADER = f"{'photo':<16} {'base ms':>8} {'cand. ms':>8} {'ratio':>6}"
"""The head of a base-against-candidate table (``ratio_row``)."""


def ratio_row(name: str, base: float, cand: float, extra: str = "") -> str:
    """One photo's line of a base-against-candidate table: both ms and the ratio."""
    return f"{name:<16} {base:>8.0f} {cand:>8.0f} {cand / base:>5.2f}x" + (f"   {extra}" if extra else "")


def verdict_12mp(ms: float) -> str:
    """Whether ``ms`` for the 12 MP photo meets the speed budget, in words."""
    return f"{ms:.0f} ms; {'meets' if ms < TARGET_12MP_MS else 'misses'} the {TARGET_12MP_MS} ms target"


def candidate_verdict(cand_ms: dict[str, float]) -> str | None:
    """The candidate's 12 MP line from its ms per photo name; None when the 12 MP photo was not read."""
    if TWELVE_MP_NAME not in cand_ms:
        return None
    return f"candidate 12 MP photo to cards: {verdict_12mp(cand_ms[TWELVE_MP_NAME])}"


def make_12mp(source: Path, out: Path) -> Path:
    """A 4032 x 3024 JPEG: the photo upscaled to 3024 px square, widened by mirroring its edges."""
    image = cv2.imread(str(source))
    big = cv2.resize(image, (3024, 3024), interpolation=cv2.INTER_CUBIC)
    big = cv2.copyMakeBorder(big, 0, 0, 504, 504, cv2.BORDER_REFLECT)
    cv2.imwrite(str(out), big, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return out


PHOTO_SUFFIXES = {".jpg", ".jpeg", ".png", ".heic", ".webp"}


@contextlib.contextmanager
def bench_photos(folder: Path | None = None) -> Iterator[list[Path]]:
    """The photos in ``folder`` (default: the bidly photos) and a 12 MP copy of the first, while open; with the
    default folder, the sample hand too.

    Empty when the folder holds no photos; the 12 MP copy is deleted on exit.
    """
    default = folder is None
    folder = folder or ((find_root() or REPO / "missing") / "images")
    photos = sorted(p for p in folder.glob("*") if p.suffix.lower() in PHOTO_SUFFIXES)
    with tempfile.TemporaryDirectory() as tmp:
        if photos:
            photos.append(make_12mp(photos[0], Path(tmp) / TWELVE_MP_NAME))
            if default and SAMPLE_HAND.is_file():
                photos.append(SAMPLE_HAND)
        yield photos


def time_reading(path: Path, detector: CardDetector) -> tuple[float, int, dict[str, float]]:
    start = time.perf_counter()
    reading = read_photo(path, detector)
    return (time.perf_counter() - start) * 1000, len(reading.cards), reading.timings_ms


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=str(REPO / "models"))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--photos", type=Path, help="folder of photos (default: the bidly photos)")
    parser.add_argument("--tiling", choices=("auto", "never", "always"), default="auto")
    args = parser.parse_args()

    with bench_photos(args.photos) as photos:
        if not photos:
            print(f"No photos in {args.photos or 'the bidly folder'}.", file=sys.stderr)
            return 2
        detectors = {name: CardDetector(args.models, backend=name, tiling=args.tiling) for name in BACKENDS}
        for detector in detectors.values():
            time_reading(photos[0], detector)  # warm-up: first-call allocations, lazy imports
        results: dict[str, dict[str, list[float]]] = {name: {} for name in BACKENDS}
        counts: dict[str, dict[str, int]] = {name: {} for name in BACKENDS}
        stages: dict[str, dict[str, float]] = {}
        for _ in range(args.repeats):
            for path in photos:
                for name, detector in detectors.items():
                    ms, n, timings = time_reading(path, detector)
                    results[name].setdefault(path.name, []).append(ms)
                    counts[name][path.name] = n
                    if path.name == TWELVE_MP_NAME:
                        stages[name] = timings
    print(f"models: {args.models}   tiling: {args.tiling}   repeats: {args.repeats} (median)   cores: {_cores()}")
    print(f"{'photo':<18} " + " ".join(f"{n + ' ms':>16} {'cards':>5}" for n in BACKENDS) + f" {'ratio':>7}")
    medians = {name: {p: statistics.median(v) for p, v in per.items()} for name, per in results.items()}
    for path in photos:
        cells = " ".join(f"{medians[n][path.name]:>16.0f} {counts[n][path.name]:>5}" for n in BACKENDS)
        ratio = medians["ultralytics"][path.name] / medians["onnx"][path.name]
        print(f"{path.name:<18} {cells} {ratio:>6.2f}x")
    totals = {n: sum(medians[n].values()) / len(photos) for n in BACKENDS}
    ratio = totals["ultralytics"] / totals["onnx"]
    print(f"{'mean':<18} " + " ".join(f"{totals[n]:>16.0f} {'':>5}" for n in BACKENDS) + f" {ratio:>6.2f}x")
    faster = min(totals, key=totals.get)
    print(f"faster backend: {faster} (ultralytics / onnx = {ratio:.2f})")
    for name, timings in stages.items():
        parts = ", ".join(f"{k} {v:.0f}" for k, v in timings.items())
        print(f"12 MP stages, {name} (ms): {parts}")
    best_12mp = medians[faster][TWELVE_MP_NAME]
    print(f"12 MP photo to cards with {faster}: {verdict_12mp(best_12mp)}")
    return 0


def _cores() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 0


if __name__ == "__main__":
    sys.exit(main())
