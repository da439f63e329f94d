#!/usr/bin/env bash
# Every figure in the model card's accuracy table, in one command:
#   bash scripts/eval_all.sh [MODELS] [OUT]
# Makes the synthetic test sets below (fixed seeds, so the same bytes every time; a set already there is
# kept) and measures MODELS (default models/) on them and on the real held-out photos. Needs the card
# art: bash scripts/install_card_art.sh && cribcam cards.
#   held-out decks: the three val decks, which no training set draws from
#   unseen designs: five decks whose design families no training set draws from
#   *640:  scenes with corner indices 12-120 px high at 640 px (the training framing; many corners tiny)
#   *1280: the same scenes at twice the pixels, near the real photos' 1200 px (corners 24-240 px)
#   heldout1280print: the heldout1280 scenes with print that is not a card on the table (calendars, labels,
#     newsprint, screens, other games' cards) and now and then a burnt-in timestamp
#   fourcolour1280: the held-out four-colour deck alone (its own colours: yellow diamonds, blue spades)
#   negatives1280: tables with clutter and print and no cards at all (every card read is false)
#   twins1280: four-colour twins (blue diamonds, green clubs) of the held-out and unseen decks;
#     webcam1280: the same scenes as a backlit webcam's frames (dark, washed out, soft, noisy)
#   webcamsingles1280: one to three loose four-colour twins a photo, corners aimed at 40-240 px, as backlit webcam
#     frames: the shape of the issue's four-colour webcam set (single-card shots; since stop 57)
#   negatives_real and negatives_print: real pictures with no cards, the second about half print and text
#     (scripts/get_negative_photos.sh), and edje: a second real deck
set -euo pipefail
cd "$(dirname "$0")/.."
MODELS=${1:-models}
OUT=${2:-docs/eval}
source scripts/decks.sh

make_set data/heldout640 8 640 12 120 "${VAL[@]}"
make_set data/heldout1280 8 1280 24 240 "${VAL[@]}"
make_set data/unseen 7 640 12 120 "${UNSEEN[@]}"
make_set data/unseen1280 7 1280 24 240 "${UNSEEN[@]}"
EXTRA="--hard 1.0" make_set data/heldout1280print 8 1280 24 240 "${VAL[@]}"
make_set data/fourcolour1280 12 1280 24 240 gnome-anglo-modern-4-color
EXTRA="--empty 1.0" make_set data/negatives1280 13 1280 24 240 "${VAL[@]}"
make_twins data/twins1280 14
make_twins data/webcam1280 14 --webcam 1.0
TWINS_INDEX_PX="40 240" make_twins data/webcamsingles1280 16 --webcam 1.0 --layout singles
bash scripts/get_negative_photos.sh
cribcam eval --models "$MODELS" --split heldout --limit 300 --out "$OUT" --edje test \
  --synthetic data/heldout640 data/heldout1280 data/unseen data/unseen1280 data/heldout1280print data/fourcolour1280 \
  data/twins1280 data/webcam1280 data/webcamsingles1280 \
  --negatives data/negatives1280/images/val .cache/negatives/real .cache/negatives/print
