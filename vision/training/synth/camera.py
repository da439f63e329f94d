"""What a phone camera does to a scene: tilt, light, shadow, glare, blur, noise, JPEG.

Each effect takes the random generator and a float32 RGB image (0-255) and changes it in place or
returns a new one; ``apply_camera`` runs them all with their probabilities.

>>> img = np.full((32, 32, 3), 128, np.float32)
>>> apply_camera(np.random.default_rng(0), img, np.full((32, 32), -1, np.int32)).dtype
dtype('uint8')
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from vision.training.synth.compose import OCCLUDER

GLARE_HIDES = 0.6  # glare stronger than this washes an index out: its pixels count as covered


def tilt_homography(rng: np.random.Generator, size: int, strength: float = 0.3) -> np.ndarray:
    """A homography that views the table plane (size x size) from an oblique phone camera."""
    c = size / 2
    t = rng.uniform(0, strength) if rng.random() < 0.8 else 0.0
    square = np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * c
    trapezoid = square.copy()
    trapezoid[:2, 0] *= 1 - t  # the far edge looks shorter ...
    trapezoid[:2, 1] *= 1 - t * 0.6  # ... and nearer the middle
    a = rng.uniform(0, 2 * np.pi)
    rot = np.float32([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    src = square @ rot.T + c
    dst = trapezoid @ rot.T + c + rng.normal(0, size * 0.015, (4, 2)).astype(np.float32)
    return cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32)).astype(np.float64)


def lighting(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """A light gradient or pool, vignetting, a colour cast, and sometimes a dim room (gain made at 64 px)."""
    size_y, size_x = img.shape[:2]
    yy, xx = np.mgrid[0:64, 0:64].astype(np.float32) / 63 - 0.5
    a = rng.uniform(0, 2 * np.pi)
    gain = 1 + (np.cos(a) * xx + np.sin(a) * yy) * rng.uniform(0, 0.6)
    if rng.random() < 0.4:
        cx, cy = rng.uniform(-0.5, 0.5, 2)
        r2 = ((xx - cx) ** 2 + (yy - cy) ** 2) / rng.uniform(0.3, 1.0) ** 2
        gain *= 1 - rng.uniform(0.1, 0.45) * (1 - np.exp(-r2))
    gain *= 1 - (xx**2 + yy**2) * rng.uniform(0, 0.8)
    level = rng.uniform(0.25, 0.6) if rng.random() < 0.15 else rng.uniform(0.8, 1.1)
    cast = np.exp(rng.normal(0, 0.08, 3)).astype(np.float32)
    if rng.random() < 0.3:  # tungsten or daylight white balance
        cast *= np.float32([1.12, 1.0, 0.8]) if rng.random() < 0.7 else np.float32([0.9, 1.0, 1.12])
    gain = cv2.resize((gain * level).astype(np.float32), (size_x, size_y), interpolation=cv2.INTER_LINEAR)
    return (img * cv2.merge([gain * cast[0], gain * cast[1], gain * cast[2]])).astype(np.float32, copy=False)


def gamma_lut(rng: np.random.Generator) -> np.ndarray:
    """A tone curve (uint8 lookup table): a random gamma, like a phone's tone mapping."""
    gamma = rng.uniform(0.8, 1.25)
    return np.clip(255 * (np.arange(256) / 255) ** gamma + 0.5, 0, 255).astype(np.uint8)


def cast_shadow(rng: np.random.Generator, img: np.ndarray) -> None:
    """A soft shadow of a hand or phone over part of the image (drawn at quarter size, then enlarged)."""
    size_y, size_x = img.shape[:2]
    qx, qy = max(8, size_x // 4), max(8, size_y // 4)
    mask = np.zeros((qy, qx), np.float32)
    centre = (float(rng.uniform(0, qx)), float(rng.uniform(0, qy)))
    if rng.random() < 0.5:  # phone: a rectangle
        box = cv2.boxPoints((centre, (rng.uniform(0.2, 0.6) * qx, rng.uniform(0.4, 1.0) * qy), rng.uniform(0, 180)))
        cv2.fillPoly(mask, [box.astype(np.int32)], 1.0)
    else:  # hand/arm: a few blobs
        for _ in range(int(rng.integers(2, 6))):
            c = (int(centre[0] + rng.normal(0, qx * 0.1)), int(centre[1] + rng.normal(0, qy * 0.1)))
            axes = (int(rng.uniform(0.05, 0.3) * qx), int(rng.uniform(0.03, 0.1) * qy))
            cv2.ellipse(mask, c, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(0.3, 6))  # hard (sunlight) to soft (lamp)
    mask = cv2.resize(mask, (size_x, size_y), interpolation=cv2.INTER_LINEAR)
    mask *= -rng.uniform(0.2, 0.55)
    mask += 1
    img *= cv2.merge([mask, mask, mask])


def glare(rng: np.random.Generator, img: np.ndarray, ids: np.ndarray, centres: np.ndarray) -> None:
    """Specular patches (washed-out ellipses) on glossy cards; very strong ones hide what is under them."""
    size_y, size_x = img.shape[:2]
    for _ in range(int(rng.integers(1, 3))):
        if len(centres):
            cx, cy = centres[int(rng.integers(len(centres)))] + rng.normal(0, 15, 2)
        else:
            cx, cy = rng.uniform(0, size_x), rng.uniform(0, size_y)
        axes = (int(rng.uniform(0.03, 0.25) * size_x), max(1, int(rng.uniform(0.01, 0.08) * size_y)))
        sigma = max(1.0, axes[1] * rng.uniform(0.3, 1.0))
        r = int(axes[0] + 3 * sigma + 1)
        x0, y0 = max(int(cx) - r, 0), max(int(cy) - r, 0)
        x1, y1 = min(int(cx) + r + 1, size_x), min(int(cy) + r + 1, size_y)
        if x1 <= x0 or y1 <= y0:
            continue
        mask = np.zeros((y1 - y0, x1 - x0), np.float32)
        cv2.ellipse(mask, (int(cx) - x0, int(cy) - y0), axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
        strength = cv2.GaussianBlur(mask, (0, 0), sigma) * rng.uniform(0.3, 0.95)
        strength *= ids[y0:y1, x0:x1] >= 0  # only the glossy cards shine
        roi = img[y0:y1, x0:x1]
        roi += (255 - roi) * strength[..., None]
        ids[y0:y1, x0:x1][strength > GLARE_HIDES] = OCCLUDER


def blur(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Motion blur (a short line kernel) or focus blur (a Gaussian)."""
    if rng.random() < 0.5:
        k = int(rng.integers(3, 10))
        kernel = np.zeros((k, k), np.float32)
        a = rng.uniform(0, np.pi)
        c = (k - 1) / 2
        p = (round(c + np.cos(a) * c), round(c + np.sin(a) * c))
        q = (round(c - np.cos(a) * c), round(c - np.sin(a) * c))
        cv2.line(kernel, p, q, 1.0, 1)
        return cv2.filter2D(img, -1, kernel / kernel.sum())
    return cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 1.8))


def depth_of_field(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Sharp across a band, blurrier towards one side (a tilted phone focused on the cards)."""
    h, w = img.shape[:2]
    blurred = cv2.GaussianBlur(img, (0, 0), rng.uniform(1.0, 3.0))
    a = rng.uniform(0, 2 * np.pi)
    yy, xx = np.mgrid[0:32, 0:32].astype(np.float32) / 31 - 0.5
    ramp = np.clip((np.cos(a) * xx + np.sin(a) * yy) * 2 + rng.uniform(-0.3, 0.3), 0, 1).astype(np.float32)
    m = cv2.resize(ramp, (w, h), interpolation=cv2.INTER_LINEAR)
    return img + (blurred - img) * cv2.merge([m, m, m])


def sharpen(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """A phone's unsharp mask, with its bright halos along edges."""
    blurred = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.8, 2.0))
    return img + (img - blurred) * rng.uniform(0.3, 1.2)


def soften(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Lose detail by going down to a lower resolution and back (a small sensor or digital zoom)."""
    h, w = img.shape[:2]
    k = rng.uniform(0.45, 0.85)
    small = cv2.resize(img, (max(8, int(w * k)), max(8, int(h * k))), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


@functools.lru_cache(maxsize=4)
def _noise_field(height: int, width: int) -> np.ndarray:
    """A fixed field of unit Gaussian noise, twice the image size; images take random windows of it."""
    return np.random.default_rng(0).standard_normal((2 * height, 2 * width), dtype=np.float32)


def _noise(rng: np.random.Generator, height: int, width: int) -> np.ndarray:
    """A (height, width) window of the noise field at a random place, randomly flipped."""
    field = _noise_field(height, width)
    y, x = int(rng.integers(0, height)), int(rng.integers(0, width))
    window = field[y : y + height, x : x + width]
    return window[:: rng.choice((-1, 1)), :: rng.choice((-1, 1))]


def sensor_noise(rng: np.random.Generator, img: np.ndarray, dim: bool) -> None:
    """Shot noise that grows with brightness plus read noise, more of it in a dim room."""
    h, w = img.shape[:2]
    sigma = rng.uniform(1, 5) + (rng.uniform(4, 10) if dim else 0)
    luma = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
    noise = _noise(rng, h, w) * np.sqrt(np.maximum(luma, 1) * (sigma * sigma / 128))
    img += cv2.merge([noise, noise, noise])
    if rng.random() < 0.5:  # chroma noise, blotchy
        planes = [_noise(rng, h // 2, w // 2) * (sigma * 0.5) for _ in range(3)]
        img += cv2.resize(cv2.merge(planes), (w, h), interpolation=cv2.INTER_LINEAR)


def saturation(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """A phone's colour processing: saturation up or down (uint8 RGB in and out)."""
    hsv = cv2.cvtColor(img, cv2.COLOR_RGB2HSV)
    lut = np.clip(np.arange(256) * rng.uniform(0.6, 1.4), 0, 255).astype(np.uint8)
    hsv[..., 1] = cv2.LUT(hsv[..., 1], lut)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)


def chromatic_aberration(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """Red and blue planes a pixel apart, as from a cheap lens (uint8 RGB in and out)."""
    h, w = img.shape[:2]
    out = img.copy()
    for ch, sign in ((0, 1), (2, -1)):
        d = sign * rng.uniform(0.5, 1.5)
        m = np.float32([[1 + d / w, 0, -d / 2], [0, 1 + d / h, -d / 2]])  # scaled about the centre
        out[..., ch] = cv2.warpAffine(img[..., ch], m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    return out


def jpeg_cycle(rng: np.random.Generator, img: np.ndarray, quality_range: tuple[int, int] = (35, 90)) -> np.ndarray:
    """Compress and decompress as JPEG (a photo that was shared or saved once already)."""
    quality = int(rng.integers(*quality_range))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_UNCHANGED) if ok else img


def apply_camera(
    rng: np.random.Generator, img: np.ndarray, ids: np.ndarray, card_centres: np.ndarray | None = None
) -> np.ndarray:
    """All effects with their probabilities; returns the finished uint8 RGB image (``ids`` may change)."""
    if rng.random() < 0.35:
        cast_shadow(rng, img)
    if rng.random() < 0.3:
        glare(rng, img, ids, np.zeros((0, 2)) if card_centres is None else card_centres)
    before = float(img.mean())
    img = lighting(rng, img)
    dim = float(img.mean()) < 0.6 * before
    if rng.random() < 0.25:
        img = soften(rng, img)
    if rng.random() < 0.35:
        img = blur(rng, img)
    elif rng.random() < 0.2:
        img = depth_of_field(rng, img)
    if rng.random() < 0.25:
        img = sharpen(rng, img)
    if rng.random() < 0.85:
        sensor_noise(rng, img, dim)
    out = cv2.LUT(np.clip(img + 0.5, 0, 255).astype(np.uint8), gamma_lut(rng))
    if rng.random() < 0.3:
        out = saturation(rng, out)
    if rng.random() < 0.15:
        out = chromatic_aberration(rng, out)
    if rng.random() < 0.3:
        out = jpeg_cycle(rng, out)
    return out
