"""cribcam's eyes: photos in, ``Card``s with boxes and confidences out.

>>> from vision import CardDetector, read_photo  # doctest: +SKIP
>>> read_photo("hand.jpg", CardDetector()).card_list  # doctest: +SKIP
[Card('5H'), Card('5C'), Card('5S'), Card('JD'), Card('5D')]

Names are imported on first use, so ``import vision`` stays light (no onnxruntime, no torch).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "CardDetector": "vision.detector",
    "ModelNotFoundError": "vision.detector",
    "Detections": "vision.detections",
    "Photo": "vision.photo_io",
    "PhotoError": "vision.photo_io",
    "load_photo": "vision.photo_io",
    "PhotoReading": "vision.reading",
    "read_photo": "vision.reading",
    "annotate": "vision.annotate",
}

__all__ = [
    "CardDetector",
    "Detections",
    "ModelNotFoundError",
    "Photo",
    "PhotoError",
    "PhotoReading",
    "annotate",
    "load_photo",
    "read_photo",
]

if TYPE_CHECKING:
    from vision.annotate import annotate
    from vision.detections import Detections
    from vision.detector import CardDetector, ModelNotFoundError
    from vision.photo_io import Photo, PhotoError, load_photo
    from vision.reading import PhotoReading, read_photo


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'vision' has no attribute {name!r}")
    return getattr(importlib.import_module(_EXPORTS[name]), name)
