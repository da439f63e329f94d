"""A second corner classifier in a models folder: another run's weights that read some of the views the first
would (``classifier.second`` in the manifest, ``vision.detector.ModelManifest.second_reads``), cut at the crop
scale it was trained at (its own ``crop_scale``: it may see more of the card around a corner than the first).

Two differently trained classifiers pooled outvote each other's mistakes; reading the views in turns costs no more
crops than one. The weights are copied in, exported to ONNX and, given a dataset, quantized to int8 as the first
classifier is (``vision.training.quantize``), so the folder stays self-contained.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from vision.detector import SECOND_READS

SECOND_PT = "corner_classifier_second.pt"
SECOND_ONNX = "corner_classifier_second.onnx"
SECOND_INT8_ONNX = "corner_classifier_second_int8.onnx"


def add_second_classifier(
    models: Path, manifest: dict, weights: Path, reads: str = "turns", dataset: Path | None = None
) -> dict:
    """Copy ``weights`` (a classifier ``.pt``) into ``models`` as the second classifier, export it, quantize it on
    crops of ``dataset`` when given, and point ``manifest`` (changed in place) at it; returns its manifest entry."""
    from vision.training.quantize import quantize_classifier_on
    from vision.training.train_classifier import checkpoint_crop_scale, export_classifier_onnx

    if reads not in SECOND_READS:
        raise ValueError(f"A second classifier reads one of {', '.join(SECOND_READS)}, not {reads!r}.")
    if not Path(weights).is_file():
        raise ValueError(f"{weights} is not a file of classifier weights.")
    models = Path(models)
    if Path(weights).resolve() != (models / SECOND_PT).resolve():
        shutil.copyfile(weights, models / SECOND_PT)
    export_classifier_onnx(models / SECOND_PT, models / SECOND_ONNX)
    scale = checkpoint_crop_scale(models / SECOND_PT)
    entry: dict = {"onnx": SECOND_ONNX, "pt": SECOND_PT, "reads": reads, "crop_scale": scale, "from": str(weights)}
    if dataset is not None:
        record = quantize_classifier_on(models / SECOND_ONNX, models / SECOND_INT8_ONNX, Path(dataset), scale)
        entry.update(onnx=SECOND_INT8_ONNX, int8=record)
    manifest["classifier"]["second"] = entry
    return entry


def remove_second_classifier(models: Path, manifest: dict) -> list[str]:
    """Drop the second classifier from ``manifest`` (changed in place) and delete its files; the names deleted."""
    entry = manifest["classifier"].pop("second", None) or {}
    names = {entry.get("pt"), entry.get("onnx"), entry.get("int8", {}).get("float_onnx")} - {None}
    removed = []
    for name in sorted(names):
        path = Path(models) / name
        if path.is_file() and path.parent.resolve() == Path(models).resolve():
            path.unlink()
            removed.append(name)
    return removed
