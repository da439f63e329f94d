"""``cribcam second --weights runs/c67/corner_classifier.pt --classifier-data data/synth66``: another run's
classifier as the models folder's second classifier, reading the quarter-turned views (``--reads turns``) or the
second look's grown and shrunk ones (``--reads zoomed``); ``--remove`` takes it out again
(``vision.training.second_classifier``).

Judge the folder against the one without before shipping it (``python -m vision.training.judge``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from vision.detector import SECOND_READS


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("second", help="add (or remove) a second corner classifier in a models folder")
    p.add_argument("--models", type=Path, default=Path("models"), help="folder with cribcam.json (default models)")
    p.add_argument("--weights", type=Path, metavar="PT", help="the second classifier's weights (a classifier .pt)")
    p.add_argument("--reads", choices=SECOND_READS, default="turns", help="the views it reads (default turns)")
    p.add_argument(
        "--classifier-data",
        type=Path,
        metavar="DATASET",
        help="quantize it to int8 on crops of this 'cribcam synth' dataset's train split (else it runs in float)",
    )
    p.add_argument("--remove", action="store_true", help="remove the second classifier and its files")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.training.quantize import synth_dataset
    from vision.training.run import MANIFEST, read_manifest, write_manifest
    from vision.training.second_classifier import add_second_classifier, remove_second_classifier

    if not (args.models / MANIFEST).is_file():
        raise ValueError(f"{args.models} has no {MANIFEST}.")
    manifest = read_manifest(args.models)
    if args.remove:
        removed = remove_second_classifier(args.models, manifest)
        write_manifest(args.models, manifest)
        print(f"removed: {', '.join(removed) or 'no second classifier was there'}")
        return 0
    if args.weights is None:
        raise ValueError("Give --weights PT (the second classifier's weights) or --remove.")
    if args.classifier_data:
        synth_dataset(args.classifier_data)
    entry = add_second_classifier(args.models, manifest, args.weights, args.reads, args.classifier_data)
    write_manifest(args.models, manifest)
    views = {"turns": "quarter-turned", "zoomed": "grown and shrunk"}[args.reads]
    print(f"written: {args.models / entry['onnx']} (from {args.weights}; reads the {views} views)")
    return 0
