# The decks that no training set draws from, and the test sets made of them; sourced by eval_all.sh,
# make_samples.sh and make_training_data.sh:
#   VAL: the three held-out val decks; UNSEEN: five decks whose design families are never trained on.
VAL=(gnome-anglo gnome-anglo-bitmap gnome-anglo-modern-4-color)
UNSEEN=(gnome-bellot gnome-paris kde-gm-paris kde-jolly-royal npm-svg-cards)
TWINS=(gnome-anglo gnome-anglo-bitmap "${UNSEEN[@]}")  # their four-colour twins (-4c) are the twins sets

make_set() {  # folder seed imgsz index_lo index_hi decks... (EXTRA="..." make_set ...: more synth flags)
  local out=$1 seed=$2 size=$3 lo=$4 hi=$5
  shift 5
  [ -d "$out/images/val" ] && return
  cribcam synth --out "$out" --n 301 --seed "$seed" --imgsz "$size" --index-px "$lo" "$hi" \
    --val-fraction 1.0 --decks "$@" --val-decks "$@" --workers 2 ${EXTRA:-}
}

make_twins() {  # folder seed [more synth flags]: the four-colour twins of TWINS at 1280 px
  # (TWINS_INDEX_PX="40 240" make_twins ...: other corner-index heights than 24-240 px)
  local out=$1 seed=$2 index=(${TWINS_INDEX_PX:-24 240})
  shift 2
  [ -d "$out/images/val" ] && return
  cribcam synth --out "$out" --n 301 --seed "$seed" --imgsz 1280 --index-px "${index[@]}" --val-fraction 1.0 \
    --decks "${TWINS[@]}" --val-decks "${TWINS[@]/%/-4c}" --four-colour-twins --workers 2 "$@"
}
