"""Load a photo the way phones make them: upright, RGB, and no bigger than the detector needs.

JPEG, PNG, WebP and HEIC/HEIF (iPhone) files, bytes or arrays. The EXIF orientation is applied,
and big photos (12-48 MP) are shrunk while decoding (JPEG ``draft``) and then to
``WORKING_MAX_SIDE``; ``Photo.to_original`` maps boxes back to the original pixels.

>>> photo = load_photo("hand.jpg")  # doctest: +SKIP
>>> photo.rgb.shape, photo.original_size  # doctest: +SKIP
((1512, 2016, 3), (4032, 3024))
"""

from __future__ import annotations

import io
import sys
import time
import warnings
from dataclasses import dataclass, replace
from pathlib import Path
from typing import BinaryIO

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

try:
    import pillow_heif

    pillow_heif.register_heif_opener()
except ImportError:  # pragma: no cover - pillow-heif is a dependency, but HEIC is optional
    pillow_heif = None


def _original_pil_open():
    """``PIL.Image.open`` itself, even after ultralytics has wrapped it (its wrapper pip-installs a HEIF
    plugin whenever a file is not an image)."""
    open_ = Image.open
    if getattr(open_, "__module__", "PIL.Image") == "PIL.Image":
        return open_
    return getattr(sys.modules.get(open_.__module__), "_image_open", open_)


_pil_open = _original_pil_open()

WORKING_MAX_SIDE = 2048
"""Longest side of the working image: corner indices stay 20+ px even in a whole-table 12 MP photo."""
MAX_PIXELS = 120_000_000
"""Bigger images are refused as likely decompression bombs (phones make at most ~50 MP by default)."""
_ROTATED_ORIENTATIONS = {5, 6, 7, 8}

PhotoSource = str | Path | bytes | BinaryIO | np.ndarray | Image.Image


class PhotoError(ValueError):
    """A file that cannot be used as a photo; the message says why in one sentence."""


@dataclass(frozen=True, slots=True)
class Photo:
    """An upright RGB working image and how it maps to the original photo's pixels."""

    rgb: np.ndarray
    """H x W x 3 uint8, upright, longest side at most the working size."""
    original_size: tuple[int, int]
    """(width, height) of the upright original photo."""
    name: str = "The photo"
    load_ms: float = 0.0
    """Milliseconds spent reading and decoding."""

    @property
    def scale(self) -> tuple[float, float]:
        """Original pixels per working pixel, (x, y)."""
        height, width = self.rgb.shape[:2]
        return self.original_size[0] / width, self.original_size[1] / height

    def to_original(self, xyxy: np.ndarray) -> np.ndarray:
        """Boxes (N x 4, working pixels) in original-photo pixels."""
        sx, sy = self.scale
        return np.asarray(xyxy, dtype=np.float32).reshape(-1, 4) * np.array([sx, sy, sx, sy], np.float32)


def load_photo(source: PhotoSource, max_side: int = WORKING_MAX_SIDE) -> Photo:
    """Read a photo from a path, bytes, a file object, a PIL image or an RGB array.

    Raises ``PhotoError`` (a ``ValueError``) for empty, truncated, non-image or oversized files.
    """
    start = time.perf_counter()
    photo = _load(source, max_side)
    return replace(photo, load_ms=(time.perf_counter() - start) * 1000)


def _load(source: PhotoSource, max_side: int) -> Photo:
    if isinstance(source, np.ndarray):
        return _photo_from_array(source, max_side)
    if isinstance(source, Image.Image):
        return _photo_from_pil(ImageOps.exif_transpose(source), source.size, max_side, "The photo")
    name, stream = _open_stream(source)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = _pil_open(stream)
    except Image.DecompressionBombError:
        raise PhotoError(f"{name} is too big to be a photo; use one of at most 120 megapixels.") from None
    except UnidentifiedImageError:
        raise PhotoError(f"{name} is not an image; use a JPEG, PNG, WebP or HEIC photo.") from None
    with image:
        return _decode(image, name, max_side)


def _open_stream(source: str | Path | bytes | BinaryIO) -> tuple[str, BinaryIO]:
    if isinstance(source, bytes | bytearray | memoryview):
        data = bytes(source)
        if not data:
            raise PhotoError("The photo is empty (0 bytes); take or choose the photo again.")
        return "The photo", io.BytesIO(data)
    if isinstance(source, str | Path):
        path = Path(source)
        if path.is_dir():
            raise PhotoError(f"{path} is a folder, not a photo; give the path of one image file.")
        if not path.exists():
            raise PhotoError(f"{path} does not exist; check the path of the photo.")
        if path.stat().st_size == 0:
            raise PhotoError(f"{path} is empty (0 bytes); take or copy the photo again.")
        return path.name, io.BytesIO(path.read_bytes())
    name = Path(str(getattr(source, "name", "The photo"))).name
    data = source.read()
    if not data:
        raise PhotoError(f"{name} is empty (0 bytes); take or choose the photo again.")
    return name, io.BytesIO(data)


def _decode(image: Image.Image, name: str, max_side: int) -> Photo:
    width, height = image.size
    if width * height > MAX_PIXELS:
        megapixels = width * height / 1e6
        raise PhotoError(
            f"{name} is {width} x {height} ({megapixels:.0f} MP), too big to be a photo; "
            "use one of at most 120 megapixels."
        )
    orientation = image.getexif().get(0x0112, 1)
    original = (height, width) if orientation in _ROTATED_ORIENTATIONS else (width, height)
    if image.format in ("JPEG", "MPO"):
        _draft(image, max_side)
    try:
        image.load()
    except (OSError, SyntaxError, ValueError) as error:
        raise PhotoError(f"{name} is damaged or truncated ({error}); take or copy the photo again.") from None
    return _photo_from_pil(ImageOps.exif_transpose(image), original, max_side, name)


def _draft(image: Image.Image, max_side: int) -> None:
    """Let the JPEG decoder scale by 1/2, 1/4 or 1/8 while keeping the long side near ``max_side``."""
    long_side = max(image.size)
    reduce = 1
    while reduce < 8 and long_side / (reduce * 2) >= 0.75 * max_side:
        reduce *= 2
    if reduce > 1:
        image.draft("RGB", (image.size[0] // reduce, image.size[1] // reduce))


def _photo_from_pil(image: Image.Image, original: tuple[int, int], max_side: int, name: str) -> Photo:
    image = _to_rgb(image)
    if max(image.size) > max_side:
        k = max_side / max(image.size)
        size = (max(1, round(image.size[0] * k)), max(1, round(image.size[1] * k)))
        image = image.resize(size, Image.Resampling.BILINEAR, reducing_gap=2.0)
    return Photo(np.asarray(image), original, name)


def _to_rgb(image: Image.Image) -> Image.Image:
    if image.mode == "RGB":
        return image
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(background, rgba).convert("RGB")
    if image.mode in ("I;16", "I;16B", "I;16L", "I"):
        array = np.asarray(image, dtype=np.float32)
        scaled = (array * (255.0 / max(float(array.max()), 1.0))).astype(np.uint8)
        return Image.fromarray(scaled).convert("RGB")
    return image.convert("RGB")


def _photo_from_array(array: np.ndarray, max_side: int) -> Photo:
    if array.dtype != np.uint8 or array.ndim not in (2, 3) or (array.ndim == 3 and array.shape[2] not in (3, 4)):
        raise PhotoError("An image array must be H x W x 3 RGB uint8 (or grey, or RGBA).")
    if array.size == 0:
        raise PhotoError("The image array is empty.")
    image = Image.fromarray(array)
    return _photo_from_pil(image, image.size, max_side, "The photo")
