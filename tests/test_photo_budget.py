"""Hostile uploads: only phone formats are decoded, within a memory budget, and every failure is a PhotoError.

The bombs are made here, in the test (a few KB each), never committed.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from vision import photo_io
from vision.photo_io import PhotoError, load_photo

REPO = Path(__file__).resolve().parents[1]
POSTSCRIPT = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n0 0 moveto 10 10 lineto stroke\nshowpage\n"
PEAK_LIMIT_MB = 1000


def _encoded(image: Image.Image, fmt: str, **kwargs) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **kwargs)
    return out.getvalue()


def palette_png_bomb(side: int = 10954) -> bytes:
    """A 1-bit palette PNG with transparency, a few KB on disk, ``side`` x ``side`` pixels."""
    image = Image.new("P", (side, side), 0)
    image.putpalette([0, 0, 0, 255, 255, 255])
    return _encoded(image, "PNG", bits=1, transparency=0)


def webp_bomb(side: int = 10954) -> bytes:
    """A lossless RGBA WebP whose header says ``side`` x ``side`` (made from a 64 px one: nothing big is drawn)."""
    data = bytearray(_encoded(Image.new("RGBA", (64, 64), (0, 0, 0, 0)), "WEBP", lossless=True))
    at = data.index(b"VP8L") + 8
    bits = int.from_bytes(data[at + 1 : at + 5], "little") & ~((1 << 28) - 1)
    data[at + 1 : at + 5] = (bits | (side - 1) | ((side - 1) << 14)).to_bytes(4, "little")
    return bytes(data)


def test_a_postscript_file_named_jpg_is_refused_before_any_decoder_runs(tmp_path, monkeypatch):
    from PIL import EpsImagePlugin

    def never(*args, **kwargs):
        raise AssertionError("an external program or the EPS plugin ran on uploaded bytes")

    monkeypatch.setattr(subprocess, "Popen", never)
    monkeypatch.setattr(EpsImagePlugin.EpsImageFile, "_open", never)
    path = tmp_path / "hand.jpg"
    path.write_bytes(POSTSCRIPT)
    with pytest.raises(PhotoError, match=r"^hand\.jpg is not a JPEG, PNG, WebP or HEIC image"):
        load_photo(path)


@pytest.mark.parametrize("fmt", ["GIF", "BMP", "TIFF", "PPM", "ICO", "TGA"])
def test_formats_a_phone_does_not_make_are_refused(fmt):
    data = _encoded(Image.new("RGB", (64, 64), (200, 0, 0)), fmt)
    with pytest.raises(PhotoError, match="not a JPEG, PNG, WebP or HEIC image"):
        load_photo(data)


def test_postscript_behind_a_png_signature_is_opened_by_the_png_plugin_alone():
    with pytest.raises(PhotoError, match="not a readable PNG image"):
        load_photo(b"\x89PNG\r\n\x1a\n" + POSTSCRIPT)


@pytest.mark.parametrize(("make", "words"), [(palette_png_bomb, "at most 50 megapixels"), (webp_bomb, "at most 25")])
def test_a_decompression_bomb_is_refused_from_its_header(make, words):
    data = make()
    assert len(data) < 20_000
    start = time.perf_counter()
    with pytest.raises(PhotoError, match=f"10954 x 10954 \\(120 MP\\), too big to read here; .*{words}"):
        load_photo(data)
    assert time.perf_counter() - start < 1.0  # refused before decoding 120 MP


def test_a_progressive_jpeg_has_the_cap_of_a_whole_decode(monkeypatch):
    monkeypatch.setattr(photo_io, "MAX_PIXELS_WHOLE", 100 * 100)
    image = Image.new("RGB", (200, 200), (10, 20, 30))
    assert load_photo(_encoded(image, "JPEG")).rgb.shape == (200, 200, 3)  # baseline: decoded reduced, allowed
    with pytest.raises(PhotoError, match="too big"):
        load_photo(_encoded(image, "JPEG", progressive=True))


def test_the_biggest_allowed_files_decode_under_a_gigabyte_even_three_at_once(tmp_path):
    png = tmp_path / "big.png"
    png.write_bytes(palette_png_bomb(7000))  # 49 MP, expands to RGBA
    rgba = np.zeros((5000, 5000, 4), np.uint8)
    rgba[::7, ::5] = 255
    webp = tmp_path / "big.webp"
    webp.write_bytes(_encoded(Image.fromarray(rgba), "WEBP", lossless=True))  # 25 MP RGBA
    code = textwrap.dedent(
        f"""
        import re, threading
        from vision.photo_io import load_photo
        paths = [{str(png)!r}, {str(webp)!r}, {str(webp)!r}]
        shapes = []
        threads = [threading.Thread(target=lambda p=p: shapes.append(load_photo(p).rgb.shape)) for p in paths]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(shapes) == 3, shapes
        status = open("/proc/self/status").read()  # VmHWM: this process's own peak (ru_maxrss includes the parent's)
        print(int(re.search(r"VmHWM:\\s+(\\d+)", status).group(1)) // 1024)
        """
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert int(result.stdout.split()[-1]) < PEAK_LIMIT_MB


@pytest.mark.parametrize("size", [(1280, 1), (8000, 5), (31, 400)])
def test_an_image_too_thin_to_show_a_card_is_one_sentence(size):
    with pytest.raises(PhotoError, match=rf"{size[0]} x {size[1]} pixels, too small to show a card"):
        load_photo(_encoded(Image.new("RGB", size, (90, 90, 90)), "PNG"))


@pytest.mark.parametrize("fmt", ["PNG", "WEBP"])
def test_damaged_exif_in_a_png_or_webp_is_ignored(fmt):
    data = _encoded(Image.new("RGB", (120, 80), (90, 90, 90)), fmt, exif=b"Exif\x00\x00not a TIFF header at all")
    assert load_photo(data).rgb.shape == (80, 120, 3)


def test_a_damaged_file_names_itself(tmp_path):
    path = tmp_path / "table.png"
    path.write_bytes(_encoded(Image.new("RGB", (300, 200), (90, 90, 90)), "PNG")[:60])
    with pytest.raises(PhotoError, match=r"^table\.png is damaged or truncated"):
        load_photo(path)


def _seeds() -> list[bytes]:
    rng = np.random.default_rng(0)
    image = Image.fromarray(rng.integers(0, 255, (48, 64, 3), np.uint8))
    exif = Image.Exif()
    exif[0x0112] = 6
    return [
        _encoded(image, "JPEG", exif=exif),
        _encoded(image, "JPEG", progressive=True),
        _encoded(image.convert("RGBA"), "PNG"),
        _encoded(image, "WEBP"),
        _encoded(image.convert("RGBA"), "WEBP", lossless=True),
    ]


SEEDS = _seeds()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.sampled_from(SEEDS),
    cut=st.integers(0, 4000),
    flips=st.lists(st.tuples(st.integers(0, 4000), st.integers(0, 255)), max_size=6),
)
def test_any_truncated_or_mutated_photo_gives_a_photo_or_a_photo_error(seed, cut, flips):
    data = bytearray(seed[: max(1, len(seed) - cut)] if cut % 3 else seed)
    for at, value in flips:
        data[at % len(data)] = value
    try:
        photo = load_photo(bytes(data))
    except PhotoError as error:
        assert "\n" not in str(error) and str(error).startswith("The photo ")
    else:
        assert photo.rgb.ndim == 3 and photo.rgb.dtype == np.uint8


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_arbitrary_bytes_give_a_photo_error_and_nothing_else(data):
    with contextlib.suppress(PhotoError):
        load_photo(data)
