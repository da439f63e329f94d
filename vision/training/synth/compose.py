"""Pasting warped sprites onto a canvas, and the corner-visibility rule that makes the labels.

Every pasted pixel (alpha > 0.5) writes its layer id into ``Canvas.ids``; a corner index is
labelled when at least ``VISIBLE_FRACTION`` of its quadrilateral still shows its own card's id.

>>> canvas = Canvas(np.zeros((64, 64, 3), np.float32))
>>> sprite = premultiply(np.full((10, 10, 4), 255, np.uint8))
>>> canvas.paste(sprite, translation(5, 5), layer=0)
True
>>> corner_label(canvas.ids, np.array([[5, 5], [10, 5], [10, 10], [5, 10]], np.float32), 0)
(1.0, (5.0, 5.0, 10.0, 10.0))
"""

from __future__ import annotations

import cv2
import numpy as np

VISIBLE_FRACTION = 0.6  # a corner index is labelled if at least this share of its area shows
BACKGROUND = -1  # id of pixels no sprite covers
OCCLUDER = -2  # id of pixels covered by a thumb, a peg, strong glare, ...
_SHIFT = 4  # sub-pixel bits for polygon rasterisation


def translation(dx: float, dy: float) -> np.ndarray:
    """A 3x3 homography that moves points by (dx, dy)."""
    return np.array([[1, 0, dx], [0, 1, dy], [0, 0, 1]], np.float64)


def premultiply(rgba: np.ndarray) -> np.ndarray:
    """RGBA uint8 with colour multiplied by alpha, so warps do not bleed transparent colour."""
    out = rgba.copy()
    out[..., :3] = (rgba[..., :3].astype(np.uint16) * rgba[..., 3:4] // 255).astype(np.uint8)
    return out


def transform_points(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a 3x3 homography to an (..., 2) array of points."""
    pts = np.asarray(points, np.float64)
    flat = pts.reshape(-1, 2)
    out = flat @ h[:2, :2].T + h[:2, 2]
    w = flat @ h[2, :2] + h[2, 2]
    return (out / w[:, None]).reshape(pts.shape)


class Canvas:
    """A float32 RGB image (0-255) plus the id of the top layer at every pixel."""

    def __init__(self, image: np.ndarray) -> None:
        self.image = image
        self.ids = np.full(image.shape[:2], BACKGROUND, np.int32)

    @property
    def size(self) -> tuple[int, int]:
        return self.image.shape[1], self.image.shape[0]

    def paste(
        self,
        sprite: np.ndarray,
        h: np.ndarray,
        layer: int,
        tint: float | np.ndarray = 1.0,
        shadow: float = 0.0,
        shadow_offset: tuple[int, int] = (0, 0),
        shadow_sigma: float = 1.5,
    ) -> bool:
        """Warp a premultiplied RGBA ``sprite`` by ``h`` (sprite px -> canvas px) and draw it on top.

        ``tint`` scales the sprite's colour (one factor or one per channel); ``shadow`` darkens a
        blurred, offset copy of its silhouette first (a card lying on the table). Returns False when
        nothing lands on the canvas.
        """
        sh, sw = sprite.shape[:2]
        quad = transform_points(h, np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float64))
        pad = int(np.ceil(3 * shadow_sigma + max(abs(shadow_offset[0]), abs(shadow_offset[1])))) if shadow else 0
        width, height = self.size
        x0 = max(int(np.floor(quad[:, 0].min())) - pad - 1, 0)
        y0 = max(int(np.floor(quad[:, 1].min())) - pad - 1, 0)
        x1 = min(int(np.ceil(quad[:, 0].max())) + pad + 2, width)
        y1 = min(int(np.ceil(quad[:, 1].max())) + pad + 2, height)
        if x1 <= x0 or y1 <= y0:
            return False
        local = translation(-x0, -y0) @ h
        warped = cv2.warpPerspective(
            sprite, local, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
        )
        alpha = warped[..., 3].astype(np.float32) * (1 / 255)
        keep = 1 - alpha
        if shadow:
            dark = _shifted(_soften(alpha, shadow_sigma), *shadow_offset)
            keep *= 1 - shadow * dark
        roi = self.image[y0:y1, x0:x1]
        roi *= keep[..., None]
        roi += warped[..., :3] * np.asarray(tint, np.float32)
        self.ids[y0:y1, x0:x1][alpha > 0.5] = layer
        return True


def _soften(mask: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur; a wide one is done at a lower resolution (a shadow's edge has no detail to lose)."""
    k = int(sigma / 2)
    h, w = mask.shape
    if k < 2 or min(h, w) < 4 * k:
        return cv2.GaussianBlur(mask, (0, 0), sigma)
    small = cv2.resize(mask, (w // k, h // k), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / k)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _shifted(image: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """``image`` moved by whole pixels (dx, dy), zeros coming in at the edges."""
    h, w = image.shape[:2]
    out = np.zeros_like(image)
    if abs(dx) < w and abs(dy) < h:
        out[max(dy, 0) : h + min(dy, 0), max(dx, 0) : w + min(dx, 0)] = image[
            max(-dy, 0) : h - max(dy, 0), max(-dx, 0) : w - max(dx, 0)
        ]
    return out


def corner_label(
    ids: np.ndarray, quad: np.ndarray, layer: int
) -> tuple[float, tuple[float, float, float, float] | None]:
    """The visible share of a corner quad (canvas px) and its box, or None when too little shows.

    A corner that shows whole gets the exact bounds of its quad; a partly covered one gets the
    bounds of its visible pixels (within the quad's bounds). Parts outside the image count as hidden.
    """
    quad = np.asarray(quad, np.float64)
    height, width = ids.shape
    qx0, qy0 = np.floor(quad.min(axis=0)).astype(int)
    qx1, qy1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    if qx1 <= 0 or qy1 <= 0 or qx0 >= width or qy0 >= height:
        return 0.0, None
    mask = np.zeros((qy1 - qy0, qx1 - qx0), np.uint8)
    pts = np.round((quad - (qx0, qy0)) * (1 << _SHIFT)).astype(np.int32)
    cv2.fillPoly(mask, [pts], 1, cv2.LINE_8, _SHIFT)
    total = int(mask.sum())
    if total == 0:
        return 0.0, None
    cx0, cy0, cx1, cy1 = max(qx0, 0), max(qy0, 0), min(qx1, width), min(qy1, height)
    inner = mask[cy0 - qy0 : cy1 - qy0, cx0 - qx0 : cx1 - qx0].astype(bool)
    shown = inner & (ids[cy0:cy1, cx0:cx1] == layer)
    fraction = float(shown.sum()) / total
    if fraction < VISIBLE_FRACTION:
        return fraction, None
    bx0, by0 = max(quad[:, 0].min(), 0.0), max(quad[:, 1].min(), 0.0)
    bx1, by1 = min(quad[:, 0].max(), float(width)), min(quad[:, 1].max(), float(height))
    if fraction < 0.999:
        ys, xs = np.nonzero(shown)
        bx0, bx1 = max(bx0, float(xs.min() + cx0)), min(bx1, float(xs.max() + cx0 + 1))
        by0, by1 = max(by0, float(ys.min() + cy0)), min(by1, float(ys.max() + cy0 + 1))
    return min(fraction, 1.0), (float(bx0), float(by0), float(bx1), float(by1))
