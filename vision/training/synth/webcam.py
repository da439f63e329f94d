"""A webcam against the light: what a cheap camera facing a window does to a finished photo.

The auto-exposure meters the bright window, so the cards come out dark; veiling glare lifts the blacks and
washes the colours out; the sensor is small (soft, noisy, blotchy colour) and the stream is compressed hard.
A blue diamond then looks nearly black, which is how a four-colour deck's diamonds get read as spades.

>>> img = np.full((64, 96, 3), 200, np.uint8)
>>> out = backlit_webcam(np.random.default_rng(0), img)
>>> out.shape, out.dtype, bool(out.mean() < 200)
((64, 96, 3), dtype('uint8'), True)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.training.synth.camera import jpeg_cycle


def _window_glow(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """A light field (0-1, made at 32 px) brightest along one edge or in one corner: the window."""
    yy, xx = np.mgrid[0:32, 0:32].astype(np.float32) / 31
    a = rng.uniform(0, 2 * np.pi)
    ramp = np.clip(np.cos(a) * (xx - 0.5) + np.sin(a) * (yy - 0.5) + 0.5, 0, 1) ** rng.uniform(1.5, 4)
    return cv2.resize(ramp.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)


def backlit_webcam(rng: np.random.Generator, rgb: np.ndarray) -> np.ndarray:
    """``rgb`` (uint8) as a webcam facing the light would stream it: same size, uint8."""
    height, width = rgb.shape[:2]
    img = rgb.astype(np.float32)
    img *= rng.uniform(0.3, 0.65)  # exposed for the window
    glow = _window_glow(rng, height, width)
    veil = rng.uniform(0.05, 0.3) + glow * rng.uniform(0.2, 0.6)
    img += (255 - img) * veil[..., None] * rng.uniform(0.3, 0.8)  # veiling glare lifts the blacks
    grey = img.mean(axis=2, keepdims=True)
    img = grey + (img - grey) * rng.uniform(0.25, 0.7)  # colours washed out
    img *= np.exp(rng.normal(0, 0.1, 3)).astype(np.float32)  # a white balance that is off
    scale = rng.uniform(0.3, 0.6)  # a small sensor: soft
    small = cv2.resize(img, (max(8, int(width * scale)), max(8, int(height * scale))), interpolation=cv2.INTER_AREA)
    small += rng.normal(0, rng.uniform(3, 9), small.shape[:2])[..., None].astype(np.float32)
    chroma = rng.normal(0, rng.uniform(2, 6), (max(1, small.shape[0] // 4), max(1, small.shape[1] // 4), 3))
    small += cv2.resize(chroma.astype(np.float32), small.shape[1::-1], interpolation=cv2.INTER_LINEAR)
    small = jpeg_cycle(rng, np.clip(small + 0.5, 0, 255).astype(np.uint8), quality_range=(25, 60))  # a hard stream
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
