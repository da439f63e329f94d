"""Peak memory of decoding hostile and biggest-allowed uploads, each in a fresh process.

The files are made here (a few KB to a few MB each): decompression bombs (refused from their headers) and
the largest file of each format that ``vision.photo_io`` still decodes. Each is loaded by ``load_photo`` in
its own Python process; the script prints that process's peak RSS (VmHWM), the peak of the same process loading a
small phone JPEG (the baseline, measured in the same run) and what the decode added.

    python bench/bench_decode.py
"""

from __future__ import annotations

import io
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.test_photo_budget import palette_png_bomb, webp_bomb  # noqa: E402

PROBE = """
import re, sys, time
from vision.photo_io import PhotoError, load_photo
start = time.perf_counter()
try:
    what = "decoded to %s" % (load_photo(sys.argv[1]).rgb.shape,)
except PhotoError as error:
    what = "refused: " + str(error)[:70]
hwm = int(re.search(r"VmHWM:\\s+(\\d+)", open("/proc/self/status").read()).group(1)) // 1024
print(hwm, round(time.perf_counter() - start, 2), what)
"""


def _encoded(image: Image.Image, fmt: str, **kwargs) -> bytes:
    out = io.BytesIO()
    image.save(out, fmt, **kwargs)
    return out.getvalue()


def files(folder: Path) -> dict[str, Path]:
    """name -> file: the baseline photo, the bombs, and the biggest of each format still decoded."""
    made: dict[str, bytes] = {
        "baseline: 12 MP phone JPEG": _encoded(Image.new("RGB", (4000, 3000), (40, 110, 60)), "JPEG", quality=90),
        "bomb: 120 MP 1-bit palette PNG": palette_png_bomb(10954),
        "bomb: 120 MP lossless RGBA WebP": webp_bomb(10954),
        "bomb: 120 MP progressive JPEG": _encoded(
            Image.new("RGB", (10954, 10954), (200, 10, 10)), "JPEG", progressive=True, quality=50, subsampling=0
        ),
        "biggest: 49 MP 1-bit palette PNG": palette_png_bomb(7000),
        "biggest: 120 MP baseline JPEG 4:4:4": _encoded(
            Image.new("RGB", (10954, 10954), (200, 10, 10)), "JPEG", quality=50, subsampling=0
        ),
        "biggest: 49 MP progressive JPEG 4:4:4": _encoded(
            Image.new("RGB", (7000, 7000), (200, 10, 10)), "JPEG", progressive=True, quality=50, subsampling=0
        ),
    }
    rgba = np.zeros((7000, 7000, 4), np.uint8)
    rgba[::7, ::5] = 255
    made["biggest: 49 MP RGBA PNG"] = _encoded(Image.fromarray(rgba), "PNG", compress_level=1)
    made["biggest: 25 MP lossless RGBA WebP"] = _encoded(Image.fromarray(rgba[:5000, :5000]), "WEBP", lossless=True)
    paths = {}
    for number, (name, data) in enumerate(made.items()):
        paths[name] = folder / f"{number}.bin"
        paths[name].write_bytes(data)
    return paths


def peak(path: Path) -> tuple[int, float, str]:
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(path)], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split(maxsplit=2)
    return int(out[0]), float(out[1]), out[2].strip()


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        paths = files(Path(tmp))
        base = None
        print(f"{'file':<40} {'size':>9} {'peak MB':>8} {'added':>6} {'s':>5}  result")
        for name, path in paths.items():
            mb, seconds, what = peak(path)
            base = mb if base is None else base
            size = path.stat().st_size
            print(f"{name:<40} {size / 1e3:>7.0f}KB {mb:>8} {mb - base:>6} {seconds:>5.2f}  {what}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
