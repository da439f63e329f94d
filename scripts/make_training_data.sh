#!/usr/bin/env bash
# The training sets of the shipped models, rebuilt from the card art (fixed seeds: the same bytes every time;
# a set already in data/ is kept). 12 minutes on 2 cores shared with another job (stop 23).
# Needs: bash scripts/install_card_art.sh && cribcam cards. WORKERS (default 2) processes draw the scenes.
#   data/synth6:  5,000 scenes, 60% with print that is not a card, 8% with no cards (runs 15-16; in synth67 after)
#   data/synth7:  4,000 scenes of every train deck's four-colour twin, 30% backlit webcam frames (run 17 on)
#   data/synth67: both, as links named s6_* and s7_* (what runs 17-20 train on)
#     ("fresh 66 67" draws seed 67's scenes into data/synth67; link_sets.py then refuses to link there)
#   with the argument "fresh", also data/synth16 and data/synth17 (synth6's and synth7's recipes, seeds 26 and 27)
#   and data/synth1617 linking them: new scenes of the same kinds (stop 29)
#   with "fresh A B" (two seeds), data/synthA and data/synthB drawn the same way and data/synthAB linking them
#   (stop 30: fresh 36 37); FRESH_ONLY=1 draws those and not synth6/synth7 (a GPU run: new scenes only)
#   STYLED=N adds N styled decks (drawn from the fonts, train only) to the fresh draws' decks: a scene picks its
#   deck among all of them, so they get a share of each recipe's print, webcam frames and empty tables (stop 48)
# The five unseen design families and the three held-out val decks never reach a training split.
set -euo pipefail
if [ "${1:-}" = fresh ] && [ $# -ne 1 ] && [ $# -ne 3 ]; then  # refused before any set is drawn
  echo "fresh takes no seeds or two (fresh 36 37), not $(($# - 1))." >&2
  exit 2
fi
if [ -n "${STYLED:-}" ] && ! [[ $STYLED =~ ^[1-9][0-9]{0,2}$ ]]; then
  echo "STYLED takes a number of styled decks from 1 to 999, not '$STYLED'." >&2
  exit 2
fi
cd "$(dirname "$0")/.."
source scripts/decks.sh
SPLIT=(--val-fraction 0.06 --skip-decks "${UNSEEN[@]}" --val-decks "${VAL[@]}" --workers "${WORKERS:-2}")
if [ "${FRESH_ONLY:-0}" != 1 ] || [ "${1:-}" != fresh ]; then
  [ -d data/synth6/images/val ] || python3 -m cribcam.cli synth --out data/synth6 --n 5000 --seed 6 --hard 0.6 --empty 0.08 "${SPLIT[@]}"
  [ -d data/synth7/images/val ] ||
    python3 -m cribcam.cli synth --out data/synth7 --n 4000 --seed 17 --hard 0.4 --empty 0.05 --webcam 0.3 --four-colour-twins "${SPLIT[@]}"
  python3 scripts/link_sets.py data/synth67 data/synth6 data/synth7
fi
if [ "${1:-}" = fresh ]; then  # the same recipes with new seeds: new scenes for a run that has seen synth67 often
  seed6=${2:-26} seed7=${3:-27} set6=synth16 set7=synth17 both=synth1617
  if [ $# -eq 3 ]; then set6=synth$2 set7=synth$3 both=synth$2$3; fi
  styled=(${STYLED:+--styled "$STYLED"})
  [ -d data/$set6/images/val ] ||
    python3 -m cribcam.cli synth --out data/$set6 --n 5000 --seed "$seed6" --hard 0.6 --empty 0.08 "${SPLIT[@]}" "${styled[@]}"
  [ -d data/$set7/images/val ] ||
    python3 -m cribcam.cli synth --out data/$set7 --n 4000 --seed "$seed7" --hard 0.4 --empty 0.05 --webcam 0.3 --four-colour-twins \
      "${SPLIT[@]}" "${styled[@]}"
  python3 scripts/link_sets.py data/$both data/$set6 data/$set7
fi
