"""This checkout's code and models against an earlier revision's, on the same photos: ms per photo and the ratio.

    python bench/bench_revisions.py BASE_REV [--models models] [--rounds 3] [--repeats 3]

For a change in the reading code itself, which ``bench_models.py`` cannot show (it runs both folders through the
same code). The base revision is checked out in a temporary git worktree and reads with its own committed
``models/``; this checkout reads with ``--models``. Each round runs one process per side, base first then
candidate, and each process reads every photo ``--repeats`` times after a warm-up (the bidly photos, the 12 MP
phone-size copy and the sample hand, as ``bench_detector.py`` makes them); the figure is the median over rounds of
each process's median, so machine noise hits both alike.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.bench_detector import RATIO_HEADER, bench_photos, candidate_verdict, ratio_row  # noqa: E402

CHILD = """
import json, statistics, sys, time
sys.path.insert(0, ".")
from vision.detector import CardDetector
from vision.reading import read_photo
models, repeats, photos = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
detector = CardDetector(models)
medians = {}
for photo in photos:
    read_photo(photo, detector)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        read_photo(photo, detector)
        times.append((time.perf_counter() - start) * 1000)
    medians[photo] = statistics.median(times)
print(json.dumps(medians))
"""


def read_times(tree: Path, models: Path, repeats: int, photos: list[Path]) -> dict[str, float]:
    """Each photo's median ms, read ``repeats`` times by the code in ``tree`` with ``models``, in a new process."""
    command = [sys.executable, "-c", CHILD, str(models), str(repeats), *map(str, photos)]
    done = subprocess.run(command, cwd=tree, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"reading in {tree} failed: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="a git revision (commit, tag or branch) to compare with this checkout")
    parser.add_argument("--models", type=Path, default=REPO / "models", help="this checkout's models folder")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if args.rounds < 1 or args.repeats < 1:
        print("--rounds and --repeats are counts, at least 1.", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory() as scratch, bench_photos() as photos:
        if not photos:
            print("No bidly photos found (../shared/real_photos/bidly).", file=sys.stderr)
            return 2
        tree = Path(scratch) / "base"
        added = subprocess.run(
            ["git", "-C", str(REPO), "worktree", "add", "--detach", str(tree), args.base],
            capture_output=True,
            text=True,
            check=False,
        )
        if added.returncode != 0:
            print(f"Cannot check out {args.base}: {added.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
            return 2
        try:
            rounds: dict[str, list[dict[str, float]]] = {"base": [], "candidate": []}
            for _ in range(args.rounds):
                rounds["base"].append(read_times(tree, tree / "models", args.repeats, photos))
                rounds["candidate"].append(read_times(REPO, args.models.resolve(), args.repeats, photos))
        except RuntimeError as error:
            print(error, file=sys.stderr)
            return 2
        finally:
            subprocess.run(["git", "-C", str(REPO), "worktree", "remove", "--force", str(tree)], check=False)
    print(f"base: {args.base} (its models/)   candidate: this checkout ({args.models})   rounds: {args.rounds}")
    print(RATIO_HEADER)
    medians = {
        side: {photo.name: statistics.median(r[str(photo)] for r in rounds[side]) for photo in photos}
        for side in rounds
    }
    for photo in photos:
        print(ratio_row(photo.name, medians["base"][photo.name], medians["candidate"][photo.name]))
    if verdict := candidate_verdict(medians["candidate"]):
        print(verdict)
    return 0


if __name__ == "__main__":
    sys.exit(main())
