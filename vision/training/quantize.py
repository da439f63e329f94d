"""An int8 copy of the corner detector for onnxruntime: a pass 1.5-1.7x faster on this CPU, the same cards.

Static quantisation (onnxruntime's QDQ format, int8 weights per channel, uint8 activations) with activation
ranges measured on training photos, letterboxed as the detector sees them. Every convolution runs in int8, the
detection head's too; the head's other nodes (its activations and the decoding of its maps into boxes) stay in
float. The decoding must: YOLO's output holds box coordinates (0-640) and scores (0-1) side by side, and one
8-bit scale for both rounds every score to zero. The head's activations in int8 as well read 0.0015 card F1
lower on average over eight synthetic sets, within the noise, for little speed (models/README.md, "Stop 34").

    cribcam quantize --models models --photos data/synth38/images/train

writes ``corner_detector_int8.onnx`` beside the float export and points the manifest at it; training runs
quantize their new export the same way (``export_models``). The ``.pt`` weights (``--backend ultralytics``)
stay float.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from vision.crops import CROP_SCALE

if TYPE_CHECKING:
    from collections.abc import Callable

    import onnx
    from onnxruntime.quantization import CalibrationDataReader

INT8_ONNX = "corner_detector_int8.onnx"
CLASSIFIER_INT8_ONNX = "corner_classifier_int8.onnx"
CLASSIFIER_CALIBRATION = {"images": 150, "crops": 1024, "seed": 3}
"""What the classifier's activation ranges are measured on: ``crops`` centre crops drawn from the corners and
"not a corner" patches of ``images`` training images (``classifier_crops``)."""
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png")


def float_nodes(model: onnx.ModelProto) -> list[str]:
    """Names of the nodes left in float: those of the module that makes the graph's output (the detection head)
    but the convolutions of its two branches (ultralytics names them ``cv2`` for boxes, ``cv3`` for scores)."""
    output = model.graph.output[0].name
    last = next(node for node in model.graph.node if output in node.output)
    module = last.name.rsplit("/", 1)[0] + "/"
    return [
        node.name
        for node in model.graph.node
        if node.name.startswith(module)
        and not (node.op_type == "Conv" and ("/cv2." in node.name or "/cv3." in node.name))
    ]


def calibration_photos(folders: list[Path], count: int, seed: int = 0) -> list[Path]:
    """``count`` photos drawn (seeded) from the image files in ``folders``."""
    paths = sorted(p for folder in folders for p in Path(folder).iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
    if not paths:
        raise ValueError(f"No photos to calibrate on in {', '.join(str(f) for f in folders)}.")
    random.Random(seed).shuffle(paths)
    return paths[:count]


def write_int8(
    float_onnx: Path,
    out: Path,
    reader: CalibrationDataReader,
    keep_float: Callable[[onnx.ModelProto], list[str]],
    skip_symbolic_shape: bool = False,
) -> int:
    """Quantize ``float_onnx`` statically to ``out`` (QDQ: int8 weights per channel, uint8 activations whose ranges
    ``reader`` measures), leaving in float the nodes ``keep_float`` names in the prepared graph; how many it named."""
    import onnx
    from onnxruntime.quantization import QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    with tempfile.TemporaryDirectory() as scratch:
        prepared = Path(scratch) / "prepared.onnx"
        quant_pre_process(str(float_onnx), str(prepared), skip_symbolic_shape=skip_symbolic_shape)
        left_float = keep_float(onnx.load(str(prepared)))
        quantize_static(
            str(prepared),
            str(out),
            reader,
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            nodes_to_exclude=left_float,
        )
    return len(left_float)


def quantize_detector(float_onnx: Path, out: Path, photos: list[Path], imgsz: int = 640) -> dict:
    """Write the int8 detector to ``out``; its record for the manifest (what it was calibrated on). A detector
    that takes any input size is calibrated on the photos letterboxed to ``imgsz`` square, as a first pass
    sees them."""
    import onnx
    from onnxruntime.quantization import CalibrationDataReader

    from vision.detector import letterbox, to_blob
    from vision.photo_io import load_photo

    model = onnx.load(str(float_onnx))
    input_name = model.graph.input[0].name
    size = tuple(d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim[2:])
    dynamic = not all(size)
    size = (imgsz, imgsz) if dynamic else size

    class Photos(CalibrationDataReader):
        def __init__(self) -> None:
            self.left = iter(photos)

        def get_next(self) -> dict | None:
            path = next(self.left, None)
            if path is None:
                return None
            padded, _, _ = letterbox(load_photo(path).rgb, size)
            return {input_name: to_blob(padded[None])}

    # symbolic shape inference cannot follow the anchor grid a dynamic export computes from its input's size
    left_float = write_int8(float_onnx, out, Photos(), float_nodes, skip_symbolic_shape=dynamic)
    return {"float_onnx": Path(float_onnx).name, "calibration_photos": len(photos), "float_nodes": left_float}


def quantize_models(models: Path, manifest: dict, folders: list[Path], count: int = 64) -> dict:
    """Quantize ``models``' float detector export and point ``manifest`` (changed in place) at the int8 copy."""
    detector = manifest["detector"]
    float_onnx = models / detector.get("int8", {}).get("float_onnx", detector["onnx"])
    if float_onnx.name == INT8_ONNX:
        raise ValueError(f"The manifest in {models} names {INT8_ONNX} but not the float export it was made from.")
    photos = calibration_photos(folders, count)
    record = quantize_detector(float_onnx, models / INT8_ONNX, photos, detector.get("imgsz", 640))
    record["calibrated_on"] = [str(f) for f in folders]
    detector["onnx"], detector["int8"] = INT8_ONNX, record
    return record


def classifier_crops(dataset: Path, images: int, crops: int, seed: int, crop_scale: float = CROP_SCALE) -> np.ndarray:
    """``crops`` crops (N x CROP_SIZE x CROP_SIZE x 3, uint8) as the classifier reads them (at ``crop_scale``),
    drawn (seeded) from the labelled corners and "not a corner" patches of ``images`` train images of a 'cribcam
    synth' ``dataset``."""
    from vision.crops import CROP_SIZE
    from vision.training.classifier_data import PATCH, samples_from_yolo

    patches, _ = samples_from_yolo(Path(dataset), "train", images, seed=seed, workers=1, crop_scale=crop_scale)
    if not len(patches):
        raise ValueError(f"No labelled corners to calibrate on in {dataset}/images/train.")
    off = (PATCH - CROP_SIZE) // 2
    order = np.random.default_rng(0).permutation(len(patches))[:crops]
    return np.ascontiguousarray(patches[order, off : off + CROP_SIZE, off : off + CROP_SIZE])


def quantize_classifier(float_onnx: Path, out: Path, crops: np.ndarray, batch: int = 64) -> dict:
    """Write the int8 classifier to ``out``, its activation ranges measured on ``crops``; its record for the
    manifest. The convolutions run in int8; the last layer and the softmax stay float, so the probabilities keep
    their resolution (8 bits would round a 0.004 to zero, which the pooled views and the calibration's logits
    cannot take)."""
    import onnx
    from onnxruntime.quantization import CalibrationDataReader

    from vision.detector import to_blob

    input_name = onnx.load(str(float_onnx)).graph.input[0].name

    class Crops(CalibrationDataReader):
        def __init__(self) -> None:
            self.left = iter(range(0, len(crops), batch))

        def get_next(self) -> dict | None:
            start = next(self.left, None)
            if start is None:
                return None
            return {input_name: to_blob(crops[start : start + batch])}

    def last_layer(model: onnx.ModelProto) -> list[str]:
        return [node.name for node in model.graph.node if node.op_type in ("Gemm", "Softmax")]

    left_float = write_int8(float_onnx, out, Crops(), last_layer)
    return {"float_onnx": Path(float_onnx).name, "calibration_crops": len(crops), "float_nodes": left_float}


def quantize_classifier_models(models: Path, manifest: dict, dataset: Path) -> dict:
    """Quantize ``models``' float classifier export, calibrated on crops of ``dataset`` (``CLASSIFIER_CALIBRATION``),
    and point ``manifest`` (changed in place) at the int8 copy."""
    classifier = manifest["classifier"]
    float_onnx = models / classifier.get("int8", {}).get("float_onnx", classifier["onnx"])
    if float_onnx.name == CLASSIFIER_INT8_ONNX:
        raise ValueError(
            f"The manifest in {models} names {CLASSIFIER_INT8_ONNX} but not the float export it came from."
        )
    scale = float(classifier.get("crop_scale", CROP_SCALE))
    record = quantize_classifier_on(float_onnx, models / CLASSIFIER_INT8_ONNX, dataset, scale)
    classifier["onnx"], classifier["int8"] = CLASSIFIER_INT8_ONNX, record
    return record


def quantize_classifier_on(float_onnx: Path, out: Path, dataset: Path, crop_scale: float = CROP_SCALE) -> dict:
    """``quantize_classifier`` calibrated on ``CLASSIFIER_CALIBRATION``'s crops of ``dataset`` cut at ``crop_scale``
    (the classifier's own); its record names the dataset (the first classifier's int8 copy and a second
    classifier's are made alike)."""
    crops = classifier_crops(dataset, **CLASSIFIER_CALIBRATION, crop_scale=crop_scale)
    record = quantize_classifier(float_onnx, out, crops)
    record["calibrated_on"] = str(dataset)
    return record


def synth_dataset(path: Path) -> Path:
    """``path`` if it is a dataset made by 'cribcam synth' (it has labels/train); else a ValueError saying so."""
    if not (Path(path) / "labels" / "train").is_dir():
        raise ValueError(f"{path} is not a dataset from 'cribcam synth' (no labels/train folder).")
    return Path(path)


def float_copy(models: Path, out: Path) -> Path:
    """A models folder at ``out`` that runs ``models``' float detector export instead of its int8 copy (the files
    linked, the manifest rewritten): the baseline to judge or time the int8 detector against."""
    from vision.training.run import MANIFEST, read_manifest, write_manifest

    manifest = read_manifest(models)
    detector = manifest["detector"]
    if "int8" not in detector:
        raise ValueError(f"The detector in {models} is not an int8 copy; it already runs in float.")
    detector["onnx"] = detector.pop("int8")["float_onnx"]
    out.mkdir(parents=True, exist_ok=True)
    for path in models.iterdir():
        if path.is_file() and path.name not in (MANIFEST, INT8_ONNX):
            target = out / path.name
            target.unlink(missing_ok=True)
            target.symlink_to(path.resolve())
    write_manifest(out, manifest)
    return out
