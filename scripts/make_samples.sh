#!/usr/bin/env bash
# Fresh samples of the three sets candidates are judged on: held-out decks, unseen designs and four-colour twins
# at 1280 px, 300 photos each, made as scripts/eval_all.sh makes the first sample but with other seeds, and the
# twins' scenes again as a backlit webcam's frames (as webcam1280 is made of twins1280), and 300 photos of tables
# with clutter and print and no cards (as negatives1280 is made; since stop 40), for the judge's false cards:
#   bash scripts/make_samples.sh [LETTER...]     (default: b c d e)
# Sample b (the 2nd) has seeds 108 / 107 / 114114, c 208 / 207 / 214214, and so on: data/heldout1280<letter>,
# data/unseen1280<letter>, data/twins1280<letter>, data/webcam1280<letter> (since stop 33), data/negatives1280<letter>
# (seed 113 for b, 213 for c, ...). A set already there is
# kept. The model card ("Stop 27", "Stop 28") says which candidate each sample judged; a sample used to pick a
# candidate cannot confirm it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/decks.sh
letters=("$@")
[ ${#letters[@]} -eq 0 ] && letters=(b c d e)
for letter in "${letters[@]}"; do
  if [[ ! "$letter" =~ ^[b-z]$ ]]; then
    echo "A sample is named by one letter from b to z (got '$letter')." >&2
    exit 2
  fi
  n=$(($(printf '%d' "'$letter") - $(printf '%d' "'a")))
  make_set "data/heldout1280$letter" $((100 * n + 8)) 1280 24 240 "${VAL[@]}"
  make_set "data/unseen1280$letter" $((100 * n + 7)) 1280 24 240 "${UNSEEN[@]}"
  make_twins "data/twins1280$letter" "$((100 * n + 14))$((100 * n + 14))"
  make_twins "data/webcam1280$letter" "$((100 * n + 14))$((100 * n + 14))" --webcam 1.0
  EXTRA="--empty 1.0" make_set "data/negatives1280$letter" $((100 * n + 13)) 1280 24 240 "${VAL[@]}"
done
