"""Render Adrian Kennard's CC0 deck (npm @heruka_urgyen/react-playing-cards) into ``ui/assets/kennard_deck.jpg``.

One sheet, 13 ranks across (A..K) and four suits down (S H D C), each card ``CARD_HEIGHT`` px tall, on white:
the art ``ui.sample`` draws its sample photos with, so a bare install needs no card art. Needs
``rsvg-convert`` (librsvg2-bin) and the npm package (``bash scripts/install_card_art.sh``).

    python scripts/make_sample_deck.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from ui.sample import CARD_HEIGHT, CARD_WIDTH, RANKS, SHEET, SUITS  # noqa: E402

ART = REPO / ".cache" / "npm" / "node_modules" / "@heruka_urgyen" / "react-playing-cards" / "src" / "images" / "2color"


def render(svg: Path) -> np.ndarray:
    """One card as RGB on white, exactly CARD_WIDTH x CARD_HEIGHT."""
    with tempfile.TemporaryDirectory() as tmp:
        png = Path(tmp) / "card.png"
        subprocess.run(["rsvg-convert", "-h", str(CARD_HEIGHT), str(svg), "-o", str(png)], check=True)
        rgba = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
    rgba = cv2.resize(rgba, (CARD_WIDTH, CARD_HEIGHT), interpolation=cv2.INTER_AREA)
    alpha = rgba[:, :, 3:4].astype(np.float32) / 255
    return (rgba[:, :, :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)


def main() -> int:
    if not ART.is_dir():
        print(f"{ART} is missing: run bash scripts/install_card_art.sh first.", file=sys.stderr)
        return 2
    sheet = np.full((CARD_HEIGHT * len(SUITS), CARD_WIDTH * len(RANKS), 3), 255, np.uint8)
    for row, suit in enumerate(SUITS):
        for col, rank in enumerate(RANKS):
            card = render(ART / f"{rank.replace('10', 'T')}{suit}.svg")
            sheet[row * CARD_HEIGHT : (row + 1) * CARD_HEIGHT, col * CARD_WIDTH : (col + 1) * CARD_WIDTH] = card
    cv2.imwrite(str(SHEET), sheet, [cv2.IMWRITE_JPEG_QUALITY, 88])
    print(f"wrote {SHEET.relative_to(REPO)} ({SHEET.stat().st_size / 1024:.0f} KB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
