"""Load a photo the way phones make them: upright, RGB, and no bigger than the detector needs.

JPEG, PNG, WebP and HEIC/HEIF (iPhone) files, bytes or arrays; nothing else is decoded (the format is
checked from the first bytes, and only that format's Pillow plugin may open it). The EXIF orientation is
applied, big photos (12-48 MP) are shrunk while decoding (JPEG ``draft``) or right after it, in their own
mode, to ``WORKING_MAX_SIDE``; pixel caps per format and one decode at a time keep peak memory well under
1 GB for any file up to 50 MB. ``Photo.to_original`` maps boxes back to the original pixels. Every failure
is a ``PhotoError`` naming the file.

>>> photo = load_photo("hand.jpg")  # doctest: +SKIP
>>> photo.rgb.shape, photo.original_size  # doctest: +SKIP
((1512, 2016, 3), (4032, 3024))
"""

from __future__ import annotations

import io
import struct
import sys
import threading
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
"""Baseline JPEGs bigger than this are refused (they decode reduced, in strips: little memory at any size)."""
MAX_PIXELS_WHOLE = 50_000_000
"""PNG, HEIC and progressive JPEG decode whole, so they are refused above this (a 48 MP phone HEIC reads)."""
MAX_PIXELS_WEBP = 25_000_000
"""WebP decodes whole into two RGBA buffers, so its cap is half as big."""
MIN_SIDE = 32
"""An image with a side shorter than this cannot show a card's corner."""
FORMATS = {"JPEG": ("JPEG", "MPO"), "PNG": ("PNG",), "WebP": ("WEBP",), "HEIC": ("HEIF",)}
"""What a phone makes, by the name people know, and the Pillow plugins allowed to open it; no other plugin runs."""
_ROTATED_ORIENTATIONS = {5, 6, 7, 8}
_TRANSPOSE = {
    2: (Image.Transpose.FLIP_LEFT_RIGHT,),
    3: (Image.Transpose.ROTATE_180,),
    4: (Image.Transpose.FLIP_TOP_BOTTOM,),
    5: (Image.Transpose.TRANSPOSE,),
    6: (Image.Transpose.ROTATE_270,),
    7: (Image.Transpose.TRANSVERSE,),
    8: (Image.Transpose.ROTATE_90,),
}
_DECODING = threading.BoundedSemaphore(1)
"""One decode at a time, so several uploads at once do not multiply the peak memory."""
_DECODE_ERRORS = (OSError, SyntaxError, ValueError, EOFError, IndexError, KeyError, TypeError, struct.error)
"""What Pillow and its plugins raise for damaged files (besides ``MemoryError``)."""
ONE_OF = "use a JPEG, PNG, WebP or HEIC photo"

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
        _check_size(source.size, "The photo", MAX_PIXELS_WHOLE)
        return _photo_from_pil(ImageOps.exif_transpose(source), source.size, max_side, "The photo")
    name, data = _read_bytes(source)
    kind = sniff_format(data)
    if kind is None:
        raise PhotoError(f"{name} is not a JPEG, PNG, WebP or HEIC image; {ONE_OF}.")
    with _DECODING:
        try:
            return _decode(data, kind, name, max_side)
        except PhotoError:
            raise
        except MemoryError:
            raise PhotoError(f"{name} needs more memory to decode than this server allows; {ONE_OF}.") from None
        except (*_DECODE_ERRORS, Image.DecompressionBombError) as error:
            raise PhotoError(
                f"{name} is damaged or truncated ({_short(error)}); take or copy the photo again."
            ) from None


def sniff_format(data: bytes) -> str | None:
    """The phone format ``data`` starts like (a key of ``FORMATS``), or ``None``: checked before any decoder runs."""
    if data.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP"
    if data[4:8] == b"ftyp" and data[8:12] in HEIF_BRANDS:
        return "HEIC" if pillow_heif is not None else None
    return None


HEIF_BRANDS = {b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm", b"hevs", b"mif1", b"msf1"}
"""The ISO-BMFF brands of HEIC/HEIF stills and bursts (what iPhones and Android phones write)."""


def _read_bytes(source: str | Path | bytes | BinaryIO) -> tuple[str, bytes]:
    if isinstance(source, bytes | bytearray | memoryview):
        data = bytes(source)
        if not data:
            raise PhotoError("The photo is empty (0 bytes); take or choose the photo again.")
        return "The photo", data
    if isinstance(source, str | Path):
        path = Path(source)
        try:
            if path.is_dir():
                raise PhotoError(f"{path} is a folder, not a photo; give the path of one image file.")
            if not path.exists():
                raise PhotoError(f"{path} does not exist; check the path of the photo.")
            size = path.stat().st_size
            if size == 0:
                raise PhotoError(f"{path} is empty (0 bytes); take or copy the photo again.")
            if size > MAX_FILE_BYTES:
                raise PhotoError(f"{path} is {size / 1e6:.0f} MB, bigger than a photo; {ONE_OF} of at most 50 MB.")
            return path.name, path.read_bytes()
        except OSError as error:
            raise PhotoError(f"{path} cannot be read ({_short(error)}); check the path and its permissions.") from None
    name = Path(str(getattr(source, "name", "The photo"))).name
    try:
        data = source.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise PhotoError(f"{name} cannot be read ({_short(error)}); take or choose the photo again.") from None
    if not data:
        raise PhotoError(f"{name} is empty (0 bytes); take or choose the photo again.")
    if len(data) > MAX_FILE_BYTES:
        raise PhotoError(f"{name} is bigger than a photo; {ONE_OF} of at most 50 MB.")
    return name, data


MAX_FILE_BYTES = 50 * 1024 * 1024
"""The biggest photo file read (the app's upload limit too)."""


def _decode(data: bytes, kind: str, name: str, max_side: int) -> Photo:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            image = _pil_open(io.BytesIO(data), formats=FORMATS[kind])
        except UnidentifiedImageError:
            raise PhotoError(f"{name} is not a readable {kind} image; {ONE_OF}.") from None
    with image:
        _check_size(image.size, name, _pixel_cap(image, kind))
        orientation = _orientation(image, kind)
        width, height = image.size
        original = (height, width) if orientation in _ROTATED_ORIENTATIONS else (width, height)
        if kind == "JPEG":
            _draft(image, max_side)
        image.load()
        small = _shrink(image, max_side)
    for step in _TRANSPOSE.get(orientation, ()):
        small = small.transpose(step)
    return _photo_from_pil(small, original, max_side, name)


def _pixel_cap(image: Image.Image, kind: str) -> int:
    """The most pixels this file may have: peak memory stays under about 1 GB (figures in docs/RESULTS.md)."""
    if kind == "JPEG":
        return MAX_PIXELS_WHOLE if image.info.get("progressive") or image.info.get("progression") else MAX_PIXELS
    return MAX_PIXELS_WEBP if kind == "WebP" else MAX_PIXELS_WHOLE


def _check_size(size: tuple[int, int], name: str, max_pixels: int) -> None:
    width, height = size
    if width * height > max_pixels:
        raise PhotoError(
            f"{name} is {width} x {height} ({width * height / 1e6:.0f} MP), too big to read here; "
            f"use a photo of at most {max_pixels // 1_000_000} megapixels."
        )
    if min(width, height) < MIN_SIDE:
        raise PhotoError(
            f"{name} is {width} x {height} pixels, too small to show a card; use a photo at least {MIN_SIDE} px a side."
        )


def _orientation(image: Image.Image, kind: str) -> int:
    """The EXIF orientation (1 when absent or damaged); never decodes a PNG or WebP's pixels to find it."""
    try:
        if kind in ("PNG", "WebP"):
            raw = image.info.get("exif")
            if not raw:
                return 1
            exif = Image.Exif()
            exif.load(raw)
        else:
            exif = image.getexif()
        value = int(exif.get(0x0112, 1))
    except (*_DECODE_ERRORS, Image.DecompressionBombError):
        return 1
    return value if value in _TRANSPOSE else 1


def _shrink(image: Image.Image, max_side: int) -> Image.Image:
    """Reduce a decoded image in its own mode by a whole factor towards ``max_side`` before any conversion."""
    factor = max(image.size) // max_side
    if factor < 2:
        return image
    if image.mode in ("RGB", "RGBA", "L", "LA", "I", "F", "CMYK"):
        return image.reduce(factor)
    size = (max(1, image.size[0] // factor), max(1, image.size[1] // factor))
    return image.resize(size, Image.Resampling.NEAREST)


def _short(error: BaseException) -> str:
    """The error's own words, short; a parser's internal error (a key, an index) says only that it is broken."""
    if not isinstance(error, OSError | SyntaxError | ValueError):
        return "its data is broken"
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 80 else text[:77] + "..."


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
    _check_size((array.shape[1], array.shape[0]), "The image array", MAX_PIXELS_WHOLE)
    image = Image.fromarray(array)
    return _photo_from_pil(image, image.size, max_side, "The photo")
