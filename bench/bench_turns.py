"""Reading corners with every crop turned four ways against turning only the unsure ones, in one run.

    python bench/bench_turns.py [--models models] [--repeats 5] [--sure 0.9]

The corners are found once per photo (the real bidly photos and the 12 MP phone-size copy that
``bench_detector.py`` makes); then the classify stage alone is timed both ways, alternating so machine
noise hits both alike. Prints ms per photo, the ratio, the share of corners turned, and whether both
ways name the same cards.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.bench_detector import bench_photos  # noqa: E402
from vision.detector import CardDetector  # noqa: E402
from vision.photo_io import load_photo  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=str(REPO / "models"))
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--sure", type=float, help="default: the manifest's, else 0.9")
    args = parser.parse_args()

    every = CardDetector(args.models)
    sure = args.sure or every.manifest.sure or 0.9
    every.manifest = replace(every.manifest, sure=None)
    adaptive = CardDetector(args.models)
    adaptive.manifest = replace(adaptive.manifest, sure=sure)
    print(f"models: {args.models}   turns: {every.manifest.rotations}   sure: {sure}   repeats: {args.repeats}")
    print(f"{'photo':<16} {'corners':>7} {'every ms':>9} {'unsure ms':>9} {'ratio':>6} {'same cards':>10}")
    with bench_photos() as photos:
        if not photos:
            print("No bidly photos found (../shared/real_photos/bidly).", file=sys.stderr)
            return 2
        totals = {"every": 0.0, "unsure": 0.0}
        for path in photos:
            rgb = load_photo(path).rgb
            corners = every.find_corners(rgb)
            times: dict[str, list[float]] = {"every": [], "unsure": []}
            reads = {}
            for _ in range(args.repeats + 1):  # the first round warms up
                for name, detector in (("every", every), ("unsure", adaptive)):
                    start = time.perf_counter()
                    reads[name] = detector.classify(rgb, corners)
                    times[name].append((time.perf_counter() - start) * 1000)
            ms = {name: statistics.median(t[1:]) for name, t in times.items()}
            same = sorted(map(str, reads["every"].cards)) == sorted(map(str, reads["unsure"].cards))
            totals = {name: totals[name] + ms[name] for name in totals}
            print(
                f"{path.name:<16} {len(corners):>7} {ms['every']:>9.1f} {ms['unsure']:>9.1f} "
                f"{ms['every'] / ms['unsure']:>5.2f}x {'yes' if same else 'NO':>10}"
            )
    ratio = totals["every"] / totals["unsure"]
    print(f"{'all':<16} {'':>7} {totals['every']:>9.1f} {totals['unsure']:>9.1f} {ratio:>5.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
