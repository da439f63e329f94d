"""``cribcam mine --data DIR``: keep the boxes a models folder's detector finds in a training split, so that
``cribcam train --classifier-mined`` teaches the classifier the detector's own false finds as "not a corner"
(``vision.training.mined_boxes``). A stopped run resumes where it was; another detector's boxes are kept beside
(each in its own folder) and training reads them all.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("mine", help="keep a detector's boxes in a training set's photos for the classifier")
    p.add_argument("--data", type=Path, required=True, help="a dataset written by 'cribcam synth'")
    p.add_argument("--models", type=Path, help="whose detector finds the boxes (default: the app's models)")
    p.add_argument("--split", choices=("train", "val"), default="train")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--limit", type=int, help="mine the first N images only")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cribcam.cli import print_json
    from vision.detector import ModelManifest
    from vision.training.mined_boxes import mine

    if not (args.data / "images" / args.split).is_dir():
        raise ValueError(f"{args.data} is not a dataset from 'cribcam synth' (no images/{args.split} folder).")
    if not 1 <= args.workers <= 64:
        raise ValueError(f"--workers lies from 1 to 64 (got {args.workers}).")
    if args.limit is not None and args.limit < 1:
        raise ValueError(f"--limit is a number of images, 1 or more (got {args.limit}).")
    models = ModelManifest.load(args.models).directory  # a missing or broken folder is told here, in one sentence
    print_json(mine(args.data, models, args.split, args.workers, args.limit))
    return 0
