"""The corner-index crop that the classifier reads, defined once for training and inference.

A detected corner box (rank + suit pip, any rotation) becomes a square crop centred on
the box, ``CROP_SCALE`` times its longer side, resized to ``CROP_SIZE`` pixels.
"""

from __future__ import annotations

import cv2
import numpy as np

CROP_SIZE = 40
CROP_SCALE = 1.3
CROP_SCALES = (1.0, 4.0)
"""The crop scales a classifier may be trained at and read at (least, most)."""


def crop_boxes(image: np.ndarray, boxes: np.ndarray, size: int = CROP_SIZE, scale: float = CROP_SCALE) -> np.ndarray:
    """Square crops (N x size x size x 3, uint8) around ``boxes`` (N x 4 xyxy pixels) of an RGB image.

    Parts of a crop outside the image are filled by replicating the border.
    """
    boxes = np.asarray(boxes, dtype=np.float32).reshape(-1, 4)
    out = np.empty((len(boxes), size, size, 3), dtype=np.uint8)
    for i, (x1, y1, x2, y2) in enumerate(boxes):
        side = max(x2 - x1, y2 - y1, 2.0) * scale
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        k = size / side
        affine = np.array([[k, 0, size / 2 - k * cx], [0, k, size / 2 - k * cy]], dtype=np.float32)
        interp = cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR
        out[i] = cv2.warpAffine(image, affine, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    return out


class BoxCrops:
    """Crops of ``boxes`` cut only when indexed (``crops[rows]``, as ``crop_boxes`` would cut them): a reader that
    needs a few of the corners pays for those alone."""

    def __init__(self, image: np.ndarray, boxes: np.ndarray, size: int = CROP_SIZE, scale: float = CROP_SCALE):
        self.image, self.size, self.scale = image, size, scale
        self.boxes = np.asarray(boxes, dtype=np.float32).reshape(-1, 4)

    def __len__(self) -> int:
        return len(self.boxes)

    def __getitem__(self, rows: np.ndarray | slice) -> np.ndarray:
        return crop_boxes(self.image, self.boxes[rows], size=self.size, scale=self.scale)
