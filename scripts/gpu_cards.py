"""Card art for a GPU machine that reaches no registry: ``pack`` writes the rendered art as lossless WebP (about a
third of the PNGs' size, every pixel kept, the colour under transparent pixels too), ``unpack`` writes the PNGs back.

    python scripts/gpu_cards.py pack .cache/cards .gpu/cards --skip gnome-bellot ...
    python scripts/gpu_cards.py unpack .gpu/cards .cache/cards
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Collection
from pathlib import Path

from PIL import Image


def convert(src: Path, dst: Path, suffix: str, skip: Collection[str] = (), **save: object) -> int:
    """Each deck folder's images of ``src`` (not in ``skip``) saved in ``dst`` as ``suffix`` files with ``save``'s
    options; the index is copied as it is. Returns the number of images written."""
    found = {".webp": ".png", ".png": ".webp"}[suffix]
    count = 0
    for image_path in sorted(src.glob(f"*/*{found}")):
        if image_path.parent.name in skip:
            continue
        out = dst / image_path.parent.name / (image_path.stem + suffix)
        out.parent.mkdir(parents=True, exist_ok=True)
        with Image.open(image_path) as image:
            image.save(out, **save)
        count += 1
    dst.mkdir(parents=True, exist_ok=True)
    shutil.copy2(src / "index.json", dst / "index.json")
    return count


def pack(src: Path, dst: Path, skip: set[str]) -> int:
    """Each deck folder of ``src`` not in ``skip`` as lossless WebP files in ``dst`` (``exact``: the colour under
    transparent pixels kept too)."""
    return convert(src, dst, ".webp", skip, format="WEBP", lossless=True, quality=100, method=6, exact=True)


def unpack(src: Path, dst: Path) -> int:
    """The WebP files of ``src`` back as PNG files in ``dst``, with the index."""
    return convert(src, dst, ".png", format="PNG")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("verb", choices=("pack", "unpack"))
    p.add_argument("src", type=Path)
    p.add_argument("dst", type=Path)
    p.add_argument("--skip", nargs="*", default=[], metavar="DECK", help="deck folders left out (pack)")
    args = p.parse_args(argv)
    if not (args.src / "index.json").is_file():
        print(f"{args.src} holds no card art index (index.json).", file=sys.stderr)
        return 2
    n = pack(args.src, args.dst, set(args.skip)) if args.verb == "pack" else unpack(args.src, args.dst)
    print(f"{args.verb}ed {n} card images into {args.dst}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
