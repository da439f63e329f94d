#!/usr/bin/env bash
# One training run on a lent GPU machine, which reaches no registry: unpack what scripts/gpu_pack.sh put in .gpu/
# (name .gpu in the run's carry), draw new training scenes with every core (scripts/make_training_data.sh
# fresh SEED6 SEED7, new scenes only), then continue both committed models on them at once until DEADLINE seconds
# after the start: the detector on 320 px crops at reading scale (as runs 18-19; ultralytics plans its epochs from
# the time left), the classifier with the real fine-tuning photos. Stripped weights, logs and results land in $OUT.
# Knobs: DEADLINE (s, default 470: fits a 540 s call), SEEDS ("48 49"), BATCH, DET_LR, CLS_SECONDS, DEVICE,
# START (the models folder to continue, default models; a carried one such as .gpu/start: the classifier needs only its
# corner_classifier.pt and cribcam.json), CLASSIFIER=0 (detector only), DETECTOR=0 (classifier only), CLS_WIDTH
# (the classifier's first-stage channels, default 16; a wider one starts as the narrow one widened, same outputs;
# a narrower value keeps the start's width), CLS_ARGS (more `cribcam train` flags for the classifier, such as
# "--classifier-lr 5e-4 --classifier-washout 0.6 --classifier-anchor 3 --classifier-anchor-unwashed"; only flags
# the script does not set itself, since the last of a repeated flag wins; split on spaces), DET_ARGS (more flags for
# the detector's `cribcam train`, given last, so they win over the script's own; default "--detector-degrees 0": stop 63
# found that ultralytics boxes a rotated label by its rotated corners, so rotating the scenes teaches boxes looser than
# the index; DET_ARGS= gives the old 10 degrees).
# The classifier's exact start comes back as corner_classifier_start.pt.
# Back home: python -m vision.training.epoch_models $OUT/detector_best.pt runs/gN/models --photos ... (export and
# int8 copy), then judge it against models/ (see models/README.md).
set -uo pipefail
export PYTHONUNBUFFERED=1 YOLO_OFFLINE=1
t0=$(date +%s)
# $OUT takes 8 files (this run brings back 8 at most): the logs come back as one tar, of this run's logs only
OUT=${OUT:-/tmp/out}; LOGS=/tmp/gpu_logs; rm -rf "$LOGS"; mkdir -p "$OUT" "$LOGS"
DEADLINE=${DEADLINE:-470}; SEEDS=${SEEDS:-48 49}; DEVICE=${DEVICE:-0}
WORKERS=${WORKERS:-$(nproc)}; BATCH=${BATCH:-32}; DET_LR=${DET_LR:-0.0005}; CLS_BATCH=${CLS_BATCH:-512}
left() { echo $(( DEADLINE - ($(date +%s) - t0) )); }
say() { echo "[$(( $(date +%s) - t0 )) s] $*"; }

# What the machine lacks, from .gpu/: packages, fonts for the printed distractors, card art, the real photos.
if ! python3 -c "import ultralytics" 2>/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .gpu/whl/*.whl || exit 1
  mkdir -p /tmp/site/polars  # ultralytics reads its results.csv with polars, which is too big to carry: refuse it
  printf 'def read_csv(*a, **k):\n    raise ValueError("polars is not installed here")\n' > /tmp/site/polars/__init__.py
  export PYTHONPATH=/tmp/site
fi
export PYTHONPATH=${PYTHONPATH:+$PYTHONPATH:}$PWD
[ -d /usr/share/fonts/truetype/dejavu ] || tar -xJf .gpu/fonts.tar.xz -C /usr/share || exit 1
[ -f .cache/cards/index.json ] || python3 scripts/gpu_cards.py unpack .gpu/cards .cache/cards || exit 1
export CRIBCAM_REAL_PHOTOS=$PWD/.gpu/bidly
say "unpacked; $(python3 -c 'import torch, ultralytics; print(torch.__version__, ultralytics.__version__, torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no GPU")')"

read -r s6 s7 <<< "$SEEDS"; DATA=data/synth$s6$s7
FRESH_ONLY=1 WORKERS=$WORKERS bash scripts/make_training_data.sh fresh "$s6" "$s7" > "$LOGS/synth.log" 2>&1 ||
  { tail -20 "$LOGS/synth.log"; exit 1; }
say "data made: $(ls $DATA/images/train | wc -l) train images; $(left) s left"

START=${START:-models}  # continue the committed weights, or a carried folder
rm -rf /tmp/m_det /tmp/m_cls /tmp/r_det /tmp/r_cls && cp -r "$START" /tmp/m_det && cp -r "$START" /tmp/m_cls
train() { exec python3 -m cribcam.cli train --data "$DATA" --device "$DEVICE" --no-export "$@"; }
# each train runs in the background (exec: its PID is the trainer's); the detector's cap leaves a minute for
# its final validation and the copies below
det=
[ "${DETECTOR:-1}" = 0 ] || { det_hours=$(python3 -c "print(max(0.01, ($(left) - 75) / 3600))")
  train --only detector --workers $(( WORKERS - 4 )) --batch "$BATCH" --crop 320 --crops-per-image 2 --imgsz 640 \
  --epochs 60 --hours "$det_hours" --real-repeats 30 --detector-lr "$DET_LR" --cache ram \
  --models /tmp/m_det --runs /tmp/r_det ${DET_ARGS---detector-degrees 0} > "$LOGS/detector.log" 2>&1 & det=$!; }
# the classifier stops 90 s before the deadline beside a detector (its final validation), 25 s when alone
reserve=25; [ -n "$det" ] && reserve=90
CLS_SECONDS=${CLS_SECONDS:-$(( $(left) - reserve ))}
[ "${CLASSIFIER:-1}" = 0 ] && CLS_SECONDS=0
cls=
if [ "$CLS_SECONDS" -gt 0 ]; then
  train --only classifier --workers $([ -n "$det" ] && echo 3 || echo "$WORKERS") --classifier-batch "$CLS_BATCH" --classifier-epochs 40 \
    --classifier-seconds "$CLS_SECONDS" --classifier-images 9000 --real-repeats 60 --classifier-width "${CLS_WIDTH:-16}" \
    --models /tmp/m_cls --runs /tmp/r_cls ${CLS_ARGS:-} \
    > "$LOGS/classifier.log" 2>&1 &
  cls=$!
fi
alive() { local p; for p in "$@"; do kill -0 "$p" 2>/dev/null && return 0; done; return 1; }
while alive $det $cls && [ "$(left)" -gt 0 ]; do sleep 5; done
kill $det $cls 2>/dev/null; wait $det $cls
say "training over"

w=/tmp/r_det/detector/weights
python3 - "$w" "$OUT" <<'EOF'  # a run cut short leaves its checkpoints unstripped: strip them so they come back
import sys
from pathlib import Path
from ultralytics.utils.torch_utils import strip_optimizer
w, out = Path(sys.argv[1]), Path(sys.argv[2])
epochs = sorted(w.glob("epoch*.pt"), key=lambda p: int(p.stem[5:]))
picks = {"detector_best.pt": w / "best.pt", "detector_last.pt": w / "last.pt"}
if len(epochs) > 2:
    picks["detector_mid.pt"] = epochs[len(epochs) // 2]
for name, src in picks.items():
    if src.exists():
        strip_optimizer(str(src), str(out / name))
EOF
if [ -n "$cls" ]; then  # a detector-only run trained no classifier: bring none back
  cp /tmp/m_cls/corner_classifier.pt "$OUT/corner_classifier.pt" 2>/dev/null
  cp /tmp/m_cls/cribcam.json "$OUT/classifier_cribcam.json" 2>/dev/null
  cp /tmp/r_cls/corner_classifier_start.pt "$OUT/corner_classifier_start.pt" 2>/dev/null  # to average back with
fi
cp /tmp/r_det/detector/results.csv "$OUT/detector_results.csv" 2>/dev/null
tail -n 4 "$LOGS"/*.log
tar -czf "$OUT/logs.tar.gz" -C "$LOGS" .
cat "$OUT/detector_results.csv" 2>/dev/null | cut -d, -f1-9
say "done"; ls -la "$OUT"
