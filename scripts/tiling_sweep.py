"""Other tiling thresholds judged against the shipped ones on synthetic sets, boxes found afresh and cached.

Each setting (``MIN_CORNER_PX`` and the size tiles magnify the median corner toward, both detector-input px)
finds every photo's corners with the shipped models, reads and scores them as ``cribcam eval`` does, and is
compared with the shipped setting photo by photo (card F1 change, 95% paired bootstrap). Close-ups keep the
shipped zoom-out target. Boxes are cached per setting and detector under ``--cache``
(``tiling_<min>_<target>_<boxes_key>``), so another detector (the int8 copy, a new run) finds them afresh.

    python scripts/tiling_sweep.py 34:50 30:45 --sets data/heldout1280h data/unseen1280h --cache runs/boxes
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import vision.detector as detector_module  # noqa: E402
from vision.detector import CardDetector  # noqa: E402
from vision.training.judge import (  # noqa: E402
    boxes_key,
    card_f1,
    count_set,
    not_found,
    paired_interval,
    precision_recall,
)

SHIPPED_TILE_SIDE = detector_module.tile_side


def use_tiling(min_px: float, target_px: float) -> None:
    """Make ``CardDetector.find_corners`` tile below ``min_px``, toward ``target_px`` (close-ups unchanged)."""
    detector_module.tile_side = functools.partial(SHIPPED_TILE_SIDE, min_px=min_px, target_px=target_px)


def setting_key(min_px: float, target_px: float, models: Path) -> str:
    """The cache folder of one setting's boxes: the setting and the detector that found them."""
    return f"tiling_{min_px:g}_{target_px:g}_{boxes_key(models)}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("settings", nargs="+", help="MIN:TARGET pairs in detector-input px, e.g. 34:50")
    parser.add_argument("--sets", nargs="+", type=Path, required=True, help="'cribcam synth' folders (val split)")
    parser.add_argument("--models", type=Path, default=REPO / "models")
    parser.add_argument("--cache", type=Path, required=True, help="a folder for the found boxes")
    parser.add_argument("--limit", type=int, default=300, help="photos per set")
    args = parser.parse_args()
    try:
        settings = [tuple(float(v) for v in s.split(":")) for s in args.settings]
    except ValueError:
        settings = []
    if not settings or any(len(s) != 2 for s in settings):
        print("Each setting is MIN:TARGET, two numbers (e.g. 34:50).", file=sys.stderr)
        return 2
    missing = not_found([args.models], args.sets)
    if missing:
        print(missing, file=sys.stderr)
        return 2
    detector = CardDetector(args.models)
    shipped = (detector_module.MIN_CORNER_PX, detector_module.TARGET_CORNER_PX)
    for dataset in args.sets:
        use_tiling(*shipped)
        base = count_set(dataset, [(boxes_key(args.models), detector)], [detector], args.cache, args.limit)[0]
        p, r = precision_recall(base.sum(axis=0))
        print(f"{dataset.name} shipped {shipped[0]:g}:{shipped[1]:g}: card P / R {p:.4f} / {r:.4f}", flush=True)
        for min_px, target_px in settings:
            use_tiling(min_px, target_px)
            key = setting_key(min_px, target_px, args.models)
            counts = count_set(dataset, [(key, detector)], [detector], args.cache, args.limit)[0]
            p, r = precision_recall(counts.sum(axis=0))
            change, low, high = paired_interval(counts, base, 2000)
            print(
                f"  {min_px:g}:{target_px:g}  {p:.4f} / {r:.4f}  F1 {card_f1(counts.sum(axis=0)):.4f}  "
                f"{change:+.4f} [{low:+.4f}, {high:+.4f}]",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
