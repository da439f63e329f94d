"""Two model folders on the same photos in one run: ms per photo end to end and the ratio.

    python bench/bench_models.py CANDIDATE [--models models] [--repeats 7]
    python bench/bench_models.py models --float-base   # the int8 detector against its float export
    python bench/bench_models.py models --base-tile-readers 1   # tiles one at a time against two at once

For deciding whether a candidate (say a wider classifier trained into a copy of ``models/``) still fits
the speed budget: the bidly photos, the 12 MP phone-size copy ``bench_detector.py`` makes and the sample hand, each read
with ``read_photo`` (onnx) by both folders alternately, so machine noise hits both alike.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.bench_detector import RATIO_HEADER, bench_photos, candidate_verdict, ratio_row  # noqa: E402
from vision.detector import TILE_READERS, CardDetector, ModelManifest, OnnxBackend  # noqa: E402
from vision.reading import read_photo  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("candidate", help="a models folder to compare with --models")
    parser.add_argument("--models", default=str(REPO / "models"))
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument(
        "--float-base", action="store_true", help="the base is CANDIDATE with its float detector (not --models)"
    )
    parser.add_argument(
        "--base-tile-readers",
        type=int,
        default=TILE_READERS,
        help=f"tiles the base reads at once (default {TILE_READERS}, as the app does)",
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch, bench_photos() as photos:
        if args.float_base:
            from vision.training.quantize import float_copy

            try:
                args.models = str(float_copy(Path(args.candidate), Path(scratch) / "float"))
            except (OSError, ValueError) as error:
                print(error, file=sys.stderr)
                return 2
        base = OnnxBackend(ModelManifest.load(args.models), tile_readers=args.base_tile_readers)
        detectors = {"base": CardDetector(args.models, backend=base), "candidate": CardDetector(args.candidate)}
        if not photos:
            print("No bidly photos found (../shared/real_photos/bidly).", file=sys.stderr)
            return 2
        print(
            f"base: {args.models} ({args.base_tile_readers} tile readers)   candidate: {args.candidate} "
            f"({TILE_READERS})   repeats: {args.repeats} (median)"
        )
        print(f"{RATIO_HEADER}   candidate stages (ms)")
        cand_ms: dict[str, float] = {}
        for path in photos:
            times: dict[str, list[float]] = {name: [] for name in detectors}
            for _ in range(args.repeats + 1):  # the first round warms up
                for name, detector in detectors.items():
                    start = time.perf_counter()
                    reading = read_photo(path, detector)
                    times[name].append((time.perf_counter() - start) * 1000)
            base, cand = (statistics.median(times[name][1:]) for name in detectors)
            parts = ", ".join(f"{k} {v:.0f}" for k, v in reading.timings_ms.items())  # the candidate read last
            print(ratio_row(path.name, base, cand, parts))
            cand_ms[path.name] = cand
    if verdict := candidate_verdict(cand_ms):
        print(verdict)
    return 0


if __name__ == "__main__":
    sys.exit(main())
