"""``cribcam train --data DIR``: train the detector and classifier, continuing from models/."""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("train", help="train the corner detector and classifier (continues from models/)")
    p.add_argument("--data", type=Path, required=True, help="a dataset written by 'cribcam synth'")
    p.add_argument("--models", type=Path, default=Path("models"))
    p.add_argument("--runs", type=Path, default=Path("runs"))
    p.add_argument("--device", default="cpu", help="cpu, or a CUDA device number such as 0")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--epochs", type=int, default=10, help="detector epochs")
    p.add_argument("--imgsz", type=int, default=640)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--hours", type=float, help="wall-time cap for the detector")
    p.add_argument("--crop", type=int, help="train the detector on square crops this big, cut at reading scale")
    p.add_argument("--crops-per-image", type=int, default=2, help="crops cut from each training image")
    p.add_argument("--classifier-epochs", type=float, default=6)
    p.add_argument("--classifier-batch", type=int, default=256)
    p.add_argument(
        "--classifier-width",
        type=int,
        default=16,
        help="channels of the first stage; a narrower classifier in --models is widened to it",
    )
    p.add_argument("--classifier-images", type=int, help="use at most this many training images for crops")
    p.add_argument("--classifier-seconds", type=float, help="wall-time cap for the classifier")
    p.add_argument(
        "--classifier-lr",
        type=float,
        default=2e-3,
        help="peak learning rate of the classifier's cosine schedule (a lower one fine-tunes a continued run)",
    )
    p.add_argument(
        "--classifier-lowres",
        type=float,
        default=0.0,
        help="share of the classifier's training crops shrunk 1.5-3x and enlarged back, as small corners look",
    )
    p.add_argument(
        "--classifier-washout",
        type=float,
        default=0.0,
        help="share of the classifier's training crops with their colours faded, as a backlit webcam fades them",
    )
    p.add_argument(
        "--classifier-anchor",
        type=float,
        default=0.0,
        help="weight of a continued classifier's pull toward its start's read of each batch (distillation; 0: off)",
    )
    p.add_argument(
        "--classifier-anchor-unwashed",
        action="store_true",
        help="the start reads each washed-out crop as it was before its washout (needs an anchor and a washout)",
    )
    p.add_argument(
        "--classifier-crop-scale",
        type=float,
        help="the classifier's crop side over a corner box's longer side (default: the --models manifest's, 1.3)",
    )
    p.add_argument(
        "--classifier-mined",
        action="store_true",
        help="train the classifier on the boxes 'cribcam mine' kept for the train split too",
    )
    p.add_argument(
        "--detector-lr",
        type=float,
        help="starting rate of a detector continued from --models (AdamW, no warmup, falling linearly; 0.0005)",
    )
    p.add_argument(
        "--detector-freeze",
        type=int,
        default=0,
        help="keep the detector's first N layers as they are (10: yolo11n's backbone; default 0, none)",
    )
    p.add_argument(
        "--detector-keep-statistics",
        action="store_true",
        help="every batch-norm layer of the detector keeps its running statistics (they drift on a continued run)",
    )
    p.add_argument(
        "--detector-degrees",
        type=float,
        help="the detector's rotation augmentation, degrees either way (default 10; rotation loosens its boxes)",
    )
    p.add_argument("--detector-mosaic", type=float, default=1.0, help="share of mosaic batches (default 1)")
    p.add_argument(
        "--detector-fraction", type=float, default=1.0, help="share of the training images the detector sees (1)"
    )
    p.add_argument("--real-repeats", type=int, default=20, help="copies of each real fine-tuning photo")
    p.add_argument("--no-real", action="store_true", help="train on synthetic data only")
    p.add_argument("--only", choices=("detector", "classifier"), help="train one model only")
    p.add_argument("--cache", choices=("ram", "disk"), help="let ultralytics cache decoded images")
    p.add_argument("--no-export", action="store_true", help="skip the ONNX export")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cribcam.cli import print_json
    from vision.crops import CROP_SCALES
    from vision.training.mined_boxes import mined_detectors
    from vision.training.run import TrainOptions, run_training
    from vision.training.train_detector import CONTINUE_LR, MAX_FROZEN_LAYERS, ROTATION_DEGREES

    if not (args.data / "images" / "train").is_dir():
        raise ValueError(f"{args.data} is not a dataset from 'cribcam synth' (no images/train folder).")
    for flag, rate in (("--classifier-lr", args.classifier_lr), ("--detector-lr", args.detector_lr)):
        if rate is not None and not 0 < rate < 1:
            raise ValueError(f"{flag} must lie between 0 and 1 (got {rate}).")
    shares = (("--classifier-lowres", args.classifier_lowres), ("--classifier-washout", args.classifier_washout))
    for flag, share in shares:
        if not 0 <= share <= 1:
            raise ValueError(f"{flag} is a share from 0 to 1 (got {share}).")
    if not (math.isfinite(args.classifier_anchor) and args.classifier_anchor >= 0):
        raise ValueError(f"--classifier-anchor is a weight of 0 or more (got {args.classifier_anchor}).")
    if args.classifier_anchor_unwashed and not (args.classifier_anchor > 0 and args.classifier_washout > 0):
        raise ValueError("--classifier-anchor-unwashed needs a --classifier-anchor and a --classifier-washout over 0.")
    if not 0 <= args.detector_freeze <= MAX_FROZEN_LAYERS:
        count = args.detector_freeze
        raise ValueError(f"--detector-freeze is a count of layers from 0 to {MAX_FROZEN_LAYERS} (got {count}).")
    degrees = ROTATION_DEGREES if args.detector_degrees is None else args.detector_degrees
    if not 0 <= degrees <= 45:
        raise ValueError(f"--detector-degrees lies from 0 to 45 (got {degrees:g}).")
    if not 0 <= args.detector_mosaic <= 1:
        raise ValueError(f"--detector-mosaic is a share from 0 to 1 (got {args.detector_mosaic:g}).")
    if not 0 < args.detector_fraction <= 1:
        raise ValueError(f"--detector-fraction is a share over 0, up to 1 (got {args.detector_fraction:g}).")
    low, high = CROP_SCALES
    if args.classifier_crop_scale is not None and not low <= args.classifier_crop_scale <= high:
        raise ValueError(f"--classifier-crop-scale lies from {low:g} to {high:g} (got {args.classifier_crop_scale}).")
    if args.classifier_mined and not mined_detectors(args.data):
        raise ValueError(f"{args.data} has no mined boxes: run 'cribcam mine --data {args.data}' first.")
    options = TrainOptions(
        data=args.data,
        models=args.models,
        runs=args.runs,
        device=args.device,
        workers=args.workers,
        epochs=args.epochs,
        imgsz=args.imgsz,
        batch=args.batch,
        hours=args.hours,
        crop=args.crop,
        crops_per_image=args.crops_per_image,
        classifier_epochs=args.classifier_epochs,
        classifier_batch=args.classifier_batch,
        classifier_width=args.classifier_width,
        classifier_images=args.classifier_images,
        classifier_seconds=args.classifier_seconds,
        classifier_lr=args.classifier_lr,
        classifier_lowres=args.classifier_lowres,
        classifier_washout=args.classifier_washout,
        classifier_anchor=args.classifier_anchor,
        classifier_anchor_unwashed=args.classifier_anchor_unwashed,
        classifier_crop_scale=args.classifier_crop_scale,
        classifier_mined=args.classifier_mined,
        detector_lr=args.detector_lr or CONTINUE_LR,
        detector_freeze=args.detector_freeze,
        detector_keep_statistics=args.detector_keep_statistics,
        detector_degrees=degrees,
        detector_mosaic=args.detector_mosaic,
        detector_fraction=args.detector_fraction,
        real_repeats=args.real_repeats,
        use_real=not args.no_real,
        detector=args.only != "classifier",
        classifier=args.only != "detector",
        export=not args.no_export,
        cache=args.cache or False,
    )
    with contextlib.redirect_stdout(sys.stderr):  # training logs go to stderr; stdout is the JSON record
        record = run_training(options)
    print_json(record)
    return 0
