"""One saved epoch of a detector run as a models folder, to judge it like any candidate:

    python -m vision.training.epoch_models runs/d45/detector/weights/epoch1.pt runs/d45e2/models \\
        --photos data/synth38/images/train

ultralytics keeps every epoch's weights (``save_period=1``) but ``cribcam train`` ships only its best one. This
copies ``--models`` (default ``models/``) to OUT, puts the epoch's weights in as the detector (optimizer state
stripped), exports them to ONNX and, when the manifest runs an int8 detector, quantizes the export again on
``--photos`` (the stop-34 recipe: 64 photos drawn with a fixed seed; without ``--photos`` the folder runs the
float export). The classifier, its calibration and the reading settings are the source folder's.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from vision.training.run import DETECTOR_PT, export_models, read_manifest, write_manifest


def models_from_epoch(epoch: Path, out: Path, models: Path, photos: Path | None = None) -> Path:
    """``models`` copied to ``out`` (which must not exist) with ``epoch``'s weights as its detector, exported."""
    from ultralytics.utils.torch_utils import strip_optimizer

    if out.exists():
        raise ValueError(f"{out} is already there; give a new folder.")
    if not epoch.is_file():
        raise ValueError(f"{epoch} is not a file of detector weights.")
    if not (models / "cribcam.json").is_file():
        raise ValueError(f"{models} is not a models folder.")
    if photos is not None and not photos.is_dir():
        raise ValueError(f"{photos} is not a folder of training photos.")
    shutil.copytree(models, out)
    shutil.copyfile(epoch, out / DETECTOR_PT)
    strip_optimizer(str(out / DETECTOR_PT))
    manifest = read_manifest(out)
    export_models(out, manifest, photos)
    write_manifest(out, manifest)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.training.epoch_models", description=__doc__.split("\n")[0])
    parser.add_argument("epoch", type=Path, help="an epoch's weights, such as runs/d45/detector/weights/epoch1.pt")
    parser.add_argument("out", type=Path, help="the new models folder")
    parser.add_argument("--models", type=Path, default=Path("models"), help="the folder to copy (default: models)")
    parser.add_argument("--photos", type=Path, help="training photos to quantize on (default: run in float)")
    args = parser.parse_args(argv)
    try:
        folder = models_from_epoch(args.epoch, args.out, args.models, args.photos)
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    print(f"written: {folder} ({read_manifest(folder)['detector']['onnx']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
