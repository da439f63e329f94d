#!/usr/bin/env bash
# The training sets of the shipped models, rebuilt from the card art (fixed seeds: the same bytes every time;
# a set already in data/ is kept). 12 minutes on 2 cores shared with another job (stop 23).
# Needs: bash scripts/install_card_art.sh && cribcam cards. WORKERS (default 2) processes draw the scenes.
#   data/synth6:  5,000 scenes, 60% with print that is not a card, 8% with no cards (runs 15-16; in synth67 after)
#   data/synth7:  4,000 scenes of every train deck's four-colour twin, 30% backlit webcam frames (run 17 on)
#   data/synth67: both, as links named s6_* and s7_* (what runs 17-20 train on)
# The five unseen design families and the three held-out val decks never reach a training split.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/decks.sh
SPLIT=(--val-fraction 0.06 --skip-decks "${UNSEEN[@]}" --val-decks "${VAL[@]}" --workers "${WORKERS:-2}")
[ -d data/synth6/images/val ] || python3 -m cribcam.cli synth --out data/synth6 --n 5000 --seed 6 --hard 0.6 --empty 0.08 "${SPLIT[@]}"
[ -d data/synth7/images/val ] ||
  python3 -m cribcam.cli synth --out data/synth7 --n 4000 --seed 17 --hard 0.4 --empty 0.05 --webcam 0.3 --four-colour-twins "${SPLIT[@]}"
python3 - <<'EOF'
"""data/synth67: links to every file of synth6 and synth7, prefixed so that their names cannot collide."""
from pathlib import Path

root = Path("data/synth67")
for part in ("cards", "images", "labels"):
    for split in ("train", "val"):
        folder = root / part / split
        folder.mkdir(parents=True, exist_ok=True)
        for source in ("6", "7"):
            for file in sorted(Path(f"data/synth{source}/{part}/{split}").iterdir()):
                link = folder / f"s{source}_{file.name}"
                if not link.is_symlink():
                    link.symlink_to(Path("../../..") / f"synth{source}" / part / split / file.name)
yaml = Path("data/synth6/data.yaml").read_text().replace("/synth6", "/synth67")
(root / "data.yaml").write_text(yaml)
print(f"{root}: {sum(1 for _ in (root / 'images' / 'train').iterdir())} train and "
      f"{sum(1 for _ in (root / 'images' / 'val').iterdir())} val images")
EOF
