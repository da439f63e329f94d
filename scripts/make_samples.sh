#!/usr/bin/env bash
# Fresh samples of the three sets candidates are judged on: held-out decks, unseen designs and four-colour twins
# at 1280 px, 300 photos each, made as scripts/eval_all.sh makes the first sample but with other seeds, and the
# twins' scenes again as a backlit webcam's frames (as webcam1280 is made of twins1280), and 300 photos of tables
# with clutter and print and no cards (as negatives1280 is made; since stop 40), for the judge's false cards:
#   bash scripts/make_samples.sh [NAME...]     (default: b c d e; a name is a letter b-z, or two letters aa-zz)
# Sample b (the 2nd) has seeds 108 / 107 / 114114, c 208 / 207 / 214214, and so on: data/heldout1280<letter>,
# data/unseen1280<letter>, data/twins1280<letter>, data/webcam1280<letter> (since stop 33), data/negatives1280<letter>
# (seed 113 for b, 213 for c, ...), and since stop 57 data/webcamsingles1280<letter>: one to three loose four-colour
# twins a photo, corners aimed at 40-240 px, as backlit webcam frames (seed 116116 for b, 216216 for c, ...), the
# shape of the issue's four-colour webcam set. A set already there is kept. The model card ("Stop 27", "Stop 28",
# "Stop 40") says which candidate each sample judged; a sample used to pick a candidate cannot confirm it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/decks.sh
dry=0
[ "${1:-}" = --dry-seeds ] && { dry=1; shift; }  # print each name's sample number (its seeds' hundreds), make nothing
letters=("$@")
[ ${#letters[@]} -eq 0 ] && letters=(b c d e)
for letter in "${letters[@]}"; do
  if [[ ! "$letter" =~ ^([b-z]|[a-z][a-z])$ ]]; then
    echo "A sample is named by one letter from b to z, or two from aa to zz (got '$letter')." >&2
    exit 2
  fi
  n=0
  for ((i = 0; i < ${#letter}; i++)); do  # b = 1 ... z = 25, then aa = 26 ... zz = 701: every name its own seeds
    n=$((n * 26 + $(printf '%d' "'${letter:i:1}") - $(printf '%d' "'a") + (i < ${#letter} - 1)))
  done
  [ $dry = 1 ] && { echo "$n"; continue; }
  make_set "data/heldout1280$letter" $((100 * n + 8)) 1280 24 240 "${VAL[@]}"
  make_set "data/unseen1280$letter" $((100 * n + 7)) 1280 24 240 "${UNSEEN[@]}"
  make_twins "data/twins1280$letter" "$((100 * n + 14))$((100 * n + 14))"
  make_twins "data/webcam1280$letter" "$((100 * n + 14))$((100 * n + 14))" --webcam 1.0
  TWINS_INDEX_PX="40 240" make_twins "data/webcamsingles1280$letter" "$((100 * n + 16))$((100 * n + 16))" --webcam 1.0 \
    --layout singles
  EXTRA="--empty 1.0" make_set "data/negatives1280$letter" $((100 * n + 13)) 1280 24 240 "${VAL[@]}"
done
