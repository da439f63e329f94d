"""Training the one-class corner-index detector with ultralytics.

The synthetic labels carry 52 classes; the detector is trained ``single_cls`` (where is a
corner index?) and the classifier says which card it is. Runs continue from the committed
weights when they exist, so each run adds epochs or data.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

from vision.training.real_photos import LabelledPhoto

CONTINUE_LR = 0.0005
"""AdamW's starting rate for a detector continued from weights (``cribcam train --detector-lr``). At this rate one
epoch knocks a converged detector's boxes back (run 40, models/README.md "Stop 36"); 1e-4 does not."""

ROTATION_DEGREES = 10.0
"""The detector's rotation augmentation (degrees either way) unless a run says otherwise."""

MAX_FROZEN_LAYERS = 23
"""yolo11n's layers before its Detect head (layer 23): freezing more would leave nothing to train."""


def quiet_offline_ultralytics() -> None:
    """Keep ultralytics from reaching the network (settings sync, hub, font downloads)."""
    import os

    os.environ.setdefault("YOLO_OFFLINE", "1")
    from ultralytics import settings

    if settings.get("sync", False):
        settings.update({"sync": False})
    _read_results_without_polars()


def _read_results_without_polars() -> None:
    """ultralytics reads its results.csv with polars; where polars is absent, read it with csv."""
    import csv
    import importlib.util

    if importlib.util.find_spec("polars") is not None:
        return
    from ultralytics.engine.trainer import BaseTrainer

    def read_results_csv(self) -> dict:
        try:
            rows = list(csv.DictReader(self.csv.read_text().splitlines()))
        except OSError:
            return {}
        return {key.strip(): [float(r[key]) for r in rows] for key in (rows[0] if rows else {})}

    BaseTrainer.read_results_csv = read_results_csv


def write_real_split(photos: list[LabelledPhoto], out: Path, repeats: int) -> Path:
    """YOLO images/labels for real fine-tuning photos, listed ``repeats`` times in a train list file."""
    import cv2

    images, labels = out / "images", out / "labels"
    images.mkdir(parents=True, exist_ok=True)
    labels.mkdir(parents=True, exist_ok=True)
    lines = []
    for photo in photos:
        h, w = cv2.imread(str(photo.path)).shape[:2]
        target = images / photo.path.name
        shutil.copyfile(photo.path, target)
        b = photo.boxes
        rows = np.stack(
            [
                np.zeros(len(b)),
                (b[:, 0] + b[:, 2]) / 2 / w,
                (b[:, 1] + b[:, 3]) / 2 / h,
                (b[:, 2] - b[:, 0]) / w,
                (b[:, 3] - b[:, 1]) / h,
            ],
            axis=1,
        )
        np.savetxt(labels / f"{photo.path.stem}.txt", rows, fmt=["%d", "%.6f", "%.6f", "%.6f", "%.6f"])
        lines += [str(target.resolve())] * repeats
    listing = out / "train.txt"
    listing.write_text("\n".join(lines) + "\n")
    return listing


def dataset_yaml(synthetic: Path, out: Path, extra_train: list[Path] = ()) -> Path:
    """A data.yaml training on the synthetic train split (plus extra list files), validating on its val split."""
    import yaml

    synthetic = Path(synthetic).resolve()
    train = [str(synthetic / "images" / "train"), *(str(Path(p).resolve()) for p in extra_train)]
    data = {
        "path": str(synthetic),
        "train": train,
        "val": str(synthetic / "images" / "val"),
        "names": {0: "corner"},
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(yaml.safe_dump(data))
    return out


def train_detector(
    data: Path,
    project: Path,
    *,
    start: Path | None = None,
    epochs: int = 10,
    imgsz: int = 640,
    batch: int = 16,
    device: str = "cpu",
    workers: int = 2,
    hours: float | None = None,
    model_yaml: str = "yolo11n.yaml",
    name: str = "detector",
    resume: bool = False,
    cache: str | bool = False,
    continue_lr: float = CONTINUE_LR,
    freeze: int = 0,
    keep_statistics: bool = False,
    degrees: float = ROTATION_DEGREES,
    mosaic: float = 1.0,
    fraction: float = 1.0,
) -> Path:
    """Train and return the path of the best weights. ``hours`` caps wall time (ultralytics ``time``);
    ``continue_lr`` is the starting rate when continuing from ``start`` (AdamW, no warmup, falling linearly);
    ``freeze`` keeps the first that many layers as they are, their batch-norm statistics too (10: yolo11n's
    backbone up to its SPPF); ``keep_statistics`` keeps every batch-norm layer's running statistics as they are
    (each layer still learns its scale and shift); ``degrees`` is the rotation augmentation's range (ultralytics
    boxes a rotated box by its corners, so rotation teaches looser boxes), ``mosaic`` the share of mosaic batches
    (off for the last epoch or two regardless) and ``fraction`` the share of the training images used."""
    quiet_offline_ultralytics()
    from ultralytics import YOLO

    last = Path(project) / name / "weights" / "last.pt"
    if resume and last.exists():
        model = YOLO(str(last))
        model.train(resume=True)
        return Path(model.trainer.best)
    if device != "cpu":
        import ultralytics.engine.trainer as trainer

        trainer.check_amp = lambda model: True  # the check downloads a model; CUDA AMP is known good
    model = YOLO(str(start)) if start and Path(start).exists() else YOLO(model_yaml)
    args = dict(
        data=str(data),
        epochs=epochs,
        imgsz=imgsz,
        batch=batch,
        device=device,
        workers=workers,
        project=str(Path(project).resolve()),
        name=name,
        exist_ok=True,
        single_cls=True,
        pretrained=bool(start and Path(start).exists()),  # False would drop the weights
        amp=device != "cpu",
        plots=False,
        fliplr=0.0,
        degrees=degrees,
        mosaic=mosaic,
        fraction=fraction,
        close_mosaic=1 if epochs <= 10 else 2,
        warmup_epochs=min(3.0, max(0.3, epochs / 10)),
        scale=0.5,
        hsv_h=0.02,
        hsv_s=0.6,
        hsv_v=0.4,
        translate=0.1,
        patience=100,
        cache=cache,
        verbose=False,
        save_period=1,
        seed=0,
        deterministic=False,
        freeze=freeze or None,
    )
    if keep_statistics:
        model.add_callback("on_train_batch_start", keep_batch_norm_statistics)
    if start and Path(start).exists():  # continuing: no warmup (its bias rate starts at 0.1); see CONTINUE_LR
        args.update(optimizer="AdamW", lr0=continue_lr, warmup_epochs=0.0)
    if hours:
        args["time"] = hours
    model.train(**args)
    return Path(model.trainer.best)


def keep_batch_norm_statistics(trainer) -> None:
    """Put every batch-norm layer of the model being trained back in eval mode, so its running statistics stay
    the start's. Continuing a converged detector on a CPU, the statistics alone drift toward the training batches'
    and cost its boxes: the shipped detector, 10% of an epoch at a rate of 1e-9, val mAP50-95 0.582 -> 0.563; 0.582
    with them kept (models/README.md, "Stop 63")."""
    import torch.nn as nn

    for module in trainer.model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.eval()


def export_detector_onnx(pt: Path, imgsz: int) -> Path:
    """ONNX export of the detector (no NMS inside; input ``images`` 1x3xHxW of any size, multiples of 32: a photo
    is read whole at the magnification it needs, not in ``imgsz`` tiles)."""
    quiet_offline_ultralytics()
    from ultralytics import YOLO

    return Path(YOLO(str(pt)).export(format="onnx", imgsz=imgsz, simplify=True, dynamic=True, opset=17))
