"""``cribcam calibrate --synthetic data/synth6``: fit the card confidence (``vision.confidence``) on synthetic
photos of held-out decks and write it into the models manifest.

Fit on a set the test figures do not use (the val split of a training set); then ``cribcam eval`` reports
each set's calibration error and precision/recall by calibrated confidence.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("calibrate", help="fit the card confidence on synthetic held-out photos (models manifest)")
    p.add_argument(
        "--models", type=Path, help="folder with cribcam.json (default: CRIBCAM_MODELS, else the shipped models)"
    )
    p.add_argument(
        "--synthetic", type=Path, nargs="+", required=True, metavar="DATASET", help="'cribcam synth' datasets (val)"
    )
    p.add_argument("--limit", type=int, default=300, help="photos to use from each dataset (default 300)")
    p.add_argument(
        "--check-below", type=float, default=0.9, help="flag cards less likely right than this (default 0.9)"
    )
    p.add_argument(
        "--drop-below",
        type=_floor,
        help="leave out cards less likely right than this (default: as the manifest has it, else 0: none); "
        f"'{SAME_COUNT}': the floor that leaves out as many of these photos' cards as the manifest's calibration does",
    )
    p.add_argument(
        "--features",
        type=int,
        metavar="N",
        help="fit on the first N features (default all four; 3: without the corner's size, as the shipped manifest "
        "and those before stop 56 are)",
    )
    p.add_argument("--dry-run", action="store_true", help="print the fit, write nothing")
    p.set_defaults(func=run)


SAME_COUNT = "same-count"


def _floor(text: str) -> float | str:
    """``--drop-below``: a probability, or ``SAME_COUNT``."""
    if text == SAME_COUNT:
        return text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a probability or '{SAME_COUNT}', not {text!r}") from None


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from vision.card_faces import drop_face_patterns
    from vision.confidence import FEATURES, LEAST_WEIGHTS, Calibration, expected_calibration_error, fit, matched_floor
    from vision.detector import CardDetector
    from vision.model_location import MANIFEST
    from vision.training.evaluate import evaluate_photos, synthetic_photos

    used = len(FEATURES) if args.features is None else args.features
    if not LEAST_WEIGHTS <= used <= len(FEATURES):
        print(f"--features takes {LEAST_WEIGHTS} to {len(FEATURES)}, not {used}.", file=sys.stderr)
        return 2
    if not 0 < args.check_below < 1:
        print(f"--check-below is a probability between 0 and 1, not {args.check_below}.", file=sys.stderr)
        return 2
    if isinstance(args.drop_below, float) and not 0 <= args.drop_below < args.check_below:
        print(f"--drop-below is a probability from 0 to under --check-below, not {args.drop_below}.", file=sys.stderr)
        return 2
    detector = CardDetector(args.models)
    old = detector.manifest.calibration
    if args.drop_below == SAME_COUNT and old is None:
        print(f"--drop-below {SAME_COUNT} needs a calibration in the manifest to match.", file=sys.stderr)
        return 2
    photos = []
    for dataset in args.synthetic:
        if not (dataset / "images" / "val").is_dir():
            print(f"{dataset} is not a 'cribcam synth' dataset (no images/val folder).", file=sys.stderr)
            return 2
        photos += synthetic_photos(dataset, "val", args.limit)
    total, _ = evaluate_photos(detector, photos, corner_filter=drop_face_patterns, calibrated=False)
    features = np.array(total.card_features).reshape(-1, len(FEATURES))
    scored = np.array(total.cards_scored, np.float64).reshape(-1, 3)
    right = scored[:, 1]
    try:
        fitted = fit(features, right, used=used)
    except ValueError as error:
        print(str(error), file=sys.stderr)
        return 2
    calibrated = fitted.probability(features)  # the weights do not depend on the floors
    was = old.probability(features) if old is not None else None
    if args.drop_below == SAME_COUNT:
        drop_below = matched_floor(calibrated, was, old.drop_below)
        print(f"the floor that leaves out as many cards as {old.drop_below} did before: {drop_below}")
    else:
        drop_below = args.drop_below if args.drop_below is not None else (old.drop_below if old else 0.0)
    if not drop_below < args.check_below:
        print(f"The floor {drop_below} is not under --check-below {args.check_below}.", file=sys.stderr)
        return 2
    calibration = Calibration(fitted.weights, fitted.bias, args.check_below, drop_below)
    before = expected_calibration_error(scored[:, 0], right)
    after = expected_calibration_error(calibrated, right)
    flagged = calibrated < args.check_below
    print(f"{len(photos)} photos, {len(right)} cards read, {int(len(right) - right.sum())} of them wrong")
    manifest_error = "" if was is None else f", the manifest's calibration {expected_calibration_error(was, right):.4f}"
    print(f"calibration error: raw confidence {before:.4f}, calibrated {after:.4f}{manifest_error}")
    if was is not None:
        print(f"the manifest's calibration {left_out(was, old.drop_below, right)}")
    print(
        f"flagged to check (under {args.check_below}): {int(flagged.sum())} cards, "
        f"{int((flagged & (right == 0)).sum())} of the {int((right == 0).sum())} wrong ones"
    )
    print(left_out(calibrated, drop_below, right))
    print(f"weights {[round(w, 3) for w in calibration.weights]}, bias {calibration.bias:.3f}")
    if args.dry_run:
        return 0
    path = detector.manifest.directory / MANIFEST
    manifest = json.loads(path.read_text())
    manifest["calibration"] = {
        **calibration.to_json(),
        "fitted_on": [str(d) for d in args.synthetic],
        "photos": len(photos),
        "cards": len(right),
        "error_before": round(before, 4),
        "error_after": round(after, 4),
    }
    path.write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"written: {path}")
    return 0


def left_out(confidence: np.ndarray, floor: float, right: np.ndarray) -> str:
    """What a floor under these card confidences leaves out, and how many of those cards are wrong, in words."""
    dropped = confidence < floor
    return f"left out (under {floor}): {int(dropped.sum())} cards, {int((dropped & (right == 0)).sum())} of them wrong"
