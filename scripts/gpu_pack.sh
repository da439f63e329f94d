#!/usr/bin/env bash
# What scripts/gpu_train.sh needs on a lent GPU machine, which reaches no registry, put in .gpu/ (kept out of git by
# .git/info/exclude; name .gpu in the run's carry). About 31 MB, so with the 24 MB repository it fits the 64 MiB
# a run may carry:
#   cards/     the rendered card art as lossless WebP, the five unseen families left out (24 MB against 78 MB of
#              PNG; every pixel kept; 13 min on 2 cores, once): scripts/gpu_cards.py
#   fonts.tar.xz  the system fonts the printed distractors are drawn in (a bare machine has none)
#   bidly/     the real fine-tuning photos
#   whl/       the ultralytics wheels of the version installed here (the machine has torch; polars, too big to
#              carry, is refused there by gpu_train.sh)
# Needs: bash scripts/install_card_art.sh && cribcam cards, and ../shared (or CRIBCAM_REAL_PHOTOS).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/decks.sh
grep -qx "/.gpu/" .git/info/exclude 2>/dev/null || echo "/.gpu/" >> .git/info/exclude
[ -f .gpu/cards/index.json ] || python3 scripts/gpu_cards.py pack .cache/cards .gpu/cards --skip "${UNSEEN[@]}"
[ -f .gpu/fonts.tar.xz ] || tar -cJf .gpu/fonts.tar.xz -C /usr/share fonts
mkdir -p .gpu/bidly && cp -r "${CRIBCAM_REAL_PHOTOS:-../shared/real_photos/bidly}/." .gpu/bidly/
version=$(python3 -c 'import ultralytics; print(ultralytics.__version__)')
ls .gpu/whl/ultralytics-"$version"-*.whl > /dev/null 2>&1 ||
  python3 -m pip download -q --no-deps --only-binary=:all: -d .gpu/whl "ultralytics==$version" ultralytics-thop
du -sh .gpu
