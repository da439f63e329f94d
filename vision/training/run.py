"""One training run of both models, continuing from ``models/``, recorded in the manifest.

>>> # cribcam train --data data/synth --epochs 10 --device cpu
"""

from __future__ import annotations

import datetime as dt
import json
import platform
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scorer.cards import CLASS_NAMES
from vision.crops import CROP_SCALE, CROP_SIZE
from vision.training.train_detector import CONTINUE_LR, ROTATION_DEGREES

MANIFEST = "cribcam.json"
DETECTOR_PT, DETECTOR_ONNX = "corner_detector.pt", "corner_detector.onnx"
CLASSIFIER_PT, CLASSIFIER_ONNX = "corner_classifier.pt", "corner_classifier.onnx"


@dataclass
class TrainOptions:
    """Knobs of one run; the defaults fit about two hours on a 2-core CPU."""

    data: Path
    models: Path = Path("models")
    runs: Path = Path("runs")
    device: str = "cpu"
    workers: int = 2
    epochs: int = 10
    imgsz: int = 640
    batch: int = 16
    hours: float | None = None
    crop: int | None = None
    crops_per_image: int = 2
    classifier_epochs: float = 6
    classifier_batch: int = 256
    classifier_width: int = 16
    classifier_images: int | None = None
    classifier_seconds: float | None = None
    classifier_lr: float = 2e-3
    classifier_lowres: float = 0.0
    classifier_washout: float = 0.0
    """Share of the classifier's training crops with their colours faded (``train_classifier.wash_out``)."""
    classifier_anchor: float = 0.0
    """Weight of a continued classifier's pull toward its start's read (``train_classifier.anchored_loss``; 0: off)."""
    classifier_anchor_unwashed: bool = False
    """The start reads each crop as it was before its washout (``train_classifier.augment_unwashed_too``)."""
    classifier_crop_scale: float | None = None
    """The classifier's crop side over a box's longer side; None: the models manifest's (``CROP_SCALE`` if new)."""
    classifier_mined: bool = False
    """Train the classifier on the train split's mined boxes too (``vision.training.mined_boxes``)."""
    detector_lr: float = CONTINUE_LR
    detector_freeze: int = 0
    """Layers of the detector kept as they are (0: none; 10: yolo11n's backbone)."""
    detector_keep_statistics: bool = False
    """Every batch-norm layer of the detector keeps its running statistics (``keep_batch_norm_statistics``)."""
    detector_degrees: float = ROTATION_DEGREES
    """The detector's rotation augmentation, degrees either way (rotation loosens its boxes)."""
    detector_mosaic: float = 1.0
    """Share of the detector's mosaic batches."""
    detector_fraction: float = 1.0
    """Share of the training images the detector sees (ultralytics takes the first by name)."""
    real_repeats: int = 20
    cache: str | bool = False
    use_real: bool = True
    detector: bool = True
    classifier: bool = True
    export: bool = True


def read_manifest(models: Path) -> dict:
    """The models manifest, or a fresh one when there is none yet."""
    path = Path(models) / MANIFEST
    if path.exists():
        return json.loads(path.read_text())
    return {
        "detector": {"onnx": DETECTOR_ONNX, "pt": DETECTOR_PT, "imgsz": 640, "conf": 0.25, "iou": 0.5},
        "classifier": {
            "onnx": CLASSIFIER_ONNX,
            "pt": CLASSIFIER_PT,
            "crop_size": CROP_SIZE,
            "crop_scale": CROP_SCALE,
            "rotations": 4,
            "sure": 0.9,
            "classes": [*CLASS_NAMES, "none"],
        },
        "runs": [],
    }


def write_manifest(models: Path, manifest: dict) -> None:
    Path(models).mkdir(parents=True, exist_ok=True)
    (Path(models) / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")


def run_training(opt: TrainOptions) -> dict:
    """Train the detector and/or the classifier, copy the weights into ``models/``, export ONNX."""
    from vision.training.real_photos import TRAIN_PHOTOS, find_root, load_photos

    models, runs = Path(opt.models), Path(opt.runs)
    runs.mkdir(parents=True, exist_ok=True)
    real = load_photos(names=TRAIN_PHOTOS) if opt.use_real and find_root() else []
    record: dict = {
        "date": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()} {platform.processor() or ''} device={opt.device}".strip(),
        "data": str(opt.data),
        "real_photos_trained": [p.path.name for p in real],
    }
    if opt.detector:
        record["detector"] = _train_detector(opt, real, models, runs)
    manifest = read_manifest(models)
    if opt.classifier:
        scale = opt.classifier_crop_scale or float(manifest["classifier"].get("crop_scale", CROP_SCALE))
        record["classifier"] = _train_classifier(opt, real, models, runs, scale)
        manifest["classifier"]["crop_scale"] = scale
    if opt.export:
        export_models(models, manifest, Path(opt.data) / "images" / "train")
    manifest["runs"].append(record)
    write_manifest(models, manifest)
    return record


def _train_detector(opt: TrainOptions, real: list, models: Path, runs: Path) -> dict:
    from vision.training.train_detector import dataset_yaml, train_detector, write_real_split

    started = time.perf_counter()
    if opt.crop:
        data = crop_dataset(opt, real, runs / f"crops{opt.crop}")
    else:
        extra = [write_real_split(real, runs / "real_train", opt.real_repeats)] if real else []
        data = dataset_yaml(Path(opt.data), runs / "detector_data.yaml", extra)
    start = models / DETECTOR_PT
    continued = start.exists()
    best = train_detector(
        data,
        runs,
        start=start if continued else None,
        epochs=opt.epochs,
        imgsz=opt.crop or opt.imgsz,
        batch=opt.batch,
        device=opt.device,
        workers=opt.workers,
        hours=opt.hours,
        cache=opt.cache,
        continue_lr=opt.detector_lr,
        freeze=opt.detector_freeze,
        keep_statistics=opt.detector_keep_statistics,
        degrees=opt.detector_degrees,
        mosaic=opt.detector_mosaic,
        fraction=opt.detector_fraction,
    )
    models.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(best, models / DETECTOR_PT)
    results = best.parent.parent / "results.csv"
    last = _last_row(results)
    kept = kept_metrics(best) or last  # the weights kept are ultralytics' best epoch, not always the last
    epochs_run = int(last.get("epoch", 0))
    return {
        "continued_from_models": continued,
        "epochs": epochs_run,
        "epochs_asked": opt.epochs,
        "imgsz": opt.crop or opt.imgsz,
        "crops": f"{opt.crops_per_image} x {opt.crop} px per image at {opt.imgsz} px" if opt.crop else None,
        "batch": opt.batch,
        "hours_cap": opt.hours,
        "lr0": opt.detector_lr if continued else None,
        "frozen_layers": opt.detector_freeze,
        "batch_norm_statistics_kept": opt.detector_keep_statistics,
        "rotation_degrees": opt.detector_degrees,
        "mosaic": opt.detector_mosaic,
        "fraction": opt.detector_fraction,
        "seconds": round(time.perf_counter() - started, 1),
        "synthetic_val_mAP50": kept.get("metrics/mAP50(B)"),
        "synthetic_val_mAP50_95": kept.get("metrics/mAP50-95(B)"),
        "last_epoch_mAP50": last.get("metrics/mAP50(B)"),
        "last_epoch_mAP50_95": last.get("metrics/mAP50-95(B)"),
    }


def kept_metrics(weights: Path) -> dict:
    """The validation figures ultralytics stored with ``weights`` (its ``train_metrics``), rounded; {} if none."""
    import pickle

    import torch

    try:
        checkpoint = torch.load(weights, map_location="cpu", weights_only=False)
    except (OSError, RuntimeError, ValueError, EOFError, pickle.UnpicklingError):
        return {}
    metrics = checkpoint.get("train_metrics") if isinstance(checkpoint, dict) else None
    return {k: round(float(v), 4) for k, v in (metrics or {}).items()}


def crop_dataset(opt: TrainOptions, real: list, out: Path) -> Path:
    """Scale-keeping crops of the synthetic splits and the real photos, and their data.yaml (made once)."""
    import yaml

    from vision.training.detector_crops import photo_sources, write_crops, yolo_sources

    splits = {"train": out / "train", "val": out / "val"}
    done = out / "done.json"
    spec = {
        "data": str(Path(opt.data).resolve()),
        "size": opt.crop,
        "per_image": opt.crops_per_image,
        "real": [p.path.name for p in real],
        "real_repeats": opt.real_repeats,
        "input": opt.imgsz,
    }
    if not done.exists() or json.loads(done.read_text()) != spec:
        shutil.rmtree(out, ignore_errors=True)
        write_crops(yolo_sources(opt.data, "train"), splits["train"], opt.crop, opt.crops_per_image, 0, opt.imgsz)
        write_crops(yolo_sources(opt.data, "val", 400), splits["val"], opt.crop, 1, 1, opt.imgsz)
        write_crops(photo_sources(real), splits["train"], opt.crop, 2 * opt.real_repeats, 2, opt.imgsz)
        done.write_text(json.dumps(spec))
    data = {
        "path": str(out.resolve()),
        "train": str(splits["train"].resolve() / "images"),
        "val": str(splits["val"].resolve() / "images"),
        "names": {0: "corner"},
    }
    (out / "data.yaml").write_text(yaml.safe_dump(data))
    return out / "data.yaml"


def _last_row(results_csv: Path) -> dict:
    import csv

    if not results_csv.exists():
        return {}
    rows = list(csv.DictReader(results_csv.read_text().splitlines()))
    return {k.strip(): round(float(v), 4) for k, v in rows[-1].items()} if rows else {}


def _train_classifier(opt: TrainOptions, real: list, models: Path, runs: Path, crop_scale: float) -> dict:
    from vision.training.classifier_data import samples_from_photos, samples_from_yolo
    from vision.training.mined_boxes import mined_detectors
    from vision.training.train_classifier import train_classifier

    started = time.perf_counter()
    data = Path(opt.data)
    x_syn, y_syn = samples_from_yolo(
        data, "train", opt.classifier_images, workers=opt.workers, crop_scale=crop_scale, mined=opt.classifier_mined
    )
    x_val, y_val = samples_from_yolo(data, "val", 2000, seed=1, workers=opt.workers, crop_scale=crop_scale)
    parts = [(x_syn, y_syn)]
    if real:
        parts.append(samples_from_photos(real, copies=max(1, opt.real_repeats), crop_scale=crop_scale))
    x = np.concatenate([p[0] for p in parts])
    y = np.concatenate([p[1] for p in parts])
    start = models / CLASSIFIER_PT
    continued = start.exists()
    anchor = opt.classifier_anchor if continued else 0.0
    if opt.classifier_anchor and not continued:
        flags = (
            "--classifier-anchor and --classifier-anchor-unwashed are"
            if opt.classifier_anchor_unwashed
            else "--classifier-anchor is"
        )
        print(f"No classifier to continue, so {flags} not applied.", file=sys.stderr)
    run = train_classifier(
        x,
        y,
        runs / CLASSIFIER_PT,
        epochs=opt.classifier_epochs,
        batch=opt.classifier_batch,
        device=opt.device if opt.device == "cpu" else f"cuda:{opt.device}" if opt.device.isdigit() else opt.device,
        start=start if continued else None,
        val={"synthetic_val": (x_val, y_val)},
        max_seconds=opt.classifier_seconds,
        width=opt.classifier_width,
        lr=opt.classifier_lr,
        lowres=opt.classifier_lowres,
        crop_scale=crop_scale,
        washout=opt.classifier_washout,
        anchor=anchor,
        anchor_unwashed=opt.classifier_anchor_unwashed,
    )
    models.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(runs / CLASSIFIER_PT, models / CLASSIFIER_PT)
    return {
        "continued_from_models": continued,
        "samples": len(y),
        "synthetic_samples": len(y_syn),
        "epochs": run.epochs,
        "lr": opt.classifier_lr,
        "lowres": opt.classifier_lowres,
        "washout": opt.classifier_washout,
        "anchor": anchor,
        "anchor_unwashed": bool(anchor) and opt.classifier_anchor_unwashed,
        "crop_scale": crop_scale,
        "mined": opt.classifier_mined,
        "mined_by": mined_detectors(data) if opt.classifier_mined else [],
        "seconds": round(time.perf_counter() - started, 1),
        "history": run.history,
        "kept": run.kept,
    }


def export_models(models: Path, manifest: dict, photos: Path | None = None) -> None:
    """ONNX exports of whichever ``.pt`` files are in ``models/``. A manifest that runs an int8 detector or
    classifier gets it quantized again from the new export, calibrated on ``photos`` (a dataset's
    ``images/train`` folder; the classifier on that dataset's corners); with no such folder it goes back to the
    float export, never to a stale int8 copy."""
    from vision.training.quantize import quantize_classifier_models, quantize_models
    from vision.training.train_classifier import export_classifier_onnx
    from vision.training.train_detector import export_detector_onnx

    det = models / DETECTOR_PT
    if det.exists():
        onnx = export_detector_onnx(det, manifest["detector"]["imgsz"])
        if onnx.resolve() != (models / DETECTOR_ONNX).resolve():
            shutil.move(onnx, models / DETECTOR_ONNX)
        detector = manifest["detector"]
        if "int8" in detector:
            if photos is not None and photos.is_dir():
                quantize_models(models, manifest, [photos], detector["int8"]["calibration_photos"])
            else:
                detector["onnx"] = detector.pop("int8")["float_onnx"]
    cls = models / CLASSIFIER_PT
    if cls.exists():
        export_classifier_onnx(cls, models / CLASSIFIER_ONNX)
        classifier = manifest["classifier"]
        if "int8" in classifier:
            dataset = photos.parent.parent if photos is not None else None
            if dataset is not None and (dataset / "labels" / "train").is_dir():
                quantize_classifier_models(models, manifest, dataset)
            else:
                classifier["onnx"] = classifier.pop("int8")["float_onnx"]
