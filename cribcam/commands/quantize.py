"""``cribcam quantize --photos data/synth38/images/train``: an int8 copy of the corner detector, calibrated on
training photos, which the models manifest then names (``vision.training.quantize``); ``--classifier-data
data/synth66`` makes the classifier's, calibrated on crops of that dataset's training corners.

Judge the copy against the float detector before shipping it (``python -m vision.training.judge``): the app
reads whatever detector the manifest names. ``--float-copy DIR`` quantizes nothing and writes the baseline for
that: a models folder at DIR that runs the float export.
"""

from __future__ import annotations

import argparse
from pathlib import Path

DEFAULT_COUNT = 64
"""Calibration photos the detector's activation ranges are measured on, unless ``--count`` says."""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("quantize", help="an int8 copy of the corner detector for onnxruntime (models manifest)")
    p.add_argument("--models", type=Path, default=Path("models"), help="folder with cribcam.json (default models)")
    p.add_argument("--photos", type=Path, nargs="+", metavar="FOLDER", help="folders of training photos")
    p.add_argument(
        "--classifier-data",
        type=Path,
        metavar="DATASET",
        help="quantize the classifier instead, calibrated on crops of this 'cribcam synth' dataset's train split",
    )
    p.add_argument("--float-copy", type=Path, metavar="DIR", help="write a models folder running the float export")
    p.add_argument("--count", type=int, help=f"photos to measure activation ranges on (default {DEFAULT_COUNT})")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from vision.training.quantize import float_copy, quantize_classifier_models, quantize_models, synth_dataset
    from vision.training.run import MANIFEST, read_manifest, write_manifest

    if not (args.models / MANIFEST).is_file():
        raise ValueError(f"{args.models} has no {MANIFEST}.")
    if args.float_copy and (args.photos or args.count is not None or args.classifier_data):
        raise ValueError("--float-copy quantizes nothing: give it without --photos, --count or --classifier-data.")
    if args.float_copy:
        print(f"written: {float_copy(args.models, args.float_copy)} (runs the float detector)")
        return 0
    if args.classifier_data and (args.photos or args.count is not None):
        raise ValueError(
            "--photos and --count pick the detector's calibration photos, and --classifier-data calibrates the "
            "classifier on that dataset's own crops: give one or the other."
        )
    if args.classifier_data:
        synth_dataset(args.classifier_data)
        manifest = read_manifest(args.models)
        record = quantize_classifier_models(args.models, manifest, args.classifier_data)
        write_manifest(args.models, manifest)
        print(
            f"written: {args.models / manifest['classifier']['onnx']} (from {record['float_onnx']}, "
            f"{record['calibration_crops']} crops)"
        )
        return 0
    if not args.photos:
        raise ValueError(
            "Give --photos (folders of training photos to calibrate on), --classifier-data DATASET or --float-copy DIR."
        )
    missing = [str(f) for f in args.photos if not f.is_dir()]
    if missing:
        raise ValueError(f"Not a folder: {', '.join(missing)}.")
    count = DEFAULT_COUNT if args.count is None else args.count
    if count < 1:
        raise ValueError(f"--count is a number of photos, at least 1, not {count}.")
    manifest = read_manifest(args.models)
    record = quantize_models(args.models, manifest, args.photos, count)
    write_manifest(args.models, manifest)
    print(
        f"written: {args.models / manifest['detector']['onnx']} (from {record['float_onnx']}, "
        f"{record['calibration_photos']} photos, {record['float_nodes']} nodes of the detection head left in float)"
    )
    return 0
