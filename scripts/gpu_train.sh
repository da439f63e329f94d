#!/usr/bin/env bash
# One training run on a lent GPU machine: generate data with every core, train the detector and two
# classifiers (synthetic-only from scratch, and with the real fine-tuning photos from models/) at once, leave weights and logs in $OUT.
# Needs: .whl (ultralytics wheels), .cache/cards (rendered card art), ../shared or CRIBCAM_REAL_PHOTOS.
# Knobs: N images, DET_HOURS detector wall time, CLS_SECONDS classifier wall time, DEVICE.
set -uo pipefail
export PYTHONUNBUFFERED=1 YOLO_OFFLINE=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
N=${N:-14000}; DET_HOURS=${DET_HOURS:-0.075}; CLS_SECONDS=${CLS_SECONDS:-150}; DEVICE=${DEVICE:-0}
WORKERS=${WORKERS:-$(nproc)}; BATCH=${BATCH:-64}; CLS_BATCH=${CLS_BATCH:-512}; DATA=${DATA:-/tmp/cribcam_data}
if [ -d .whl ] && ! python3 -c "import ultralytics" 2>/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
  export PYTHONPATH=/tmp/site
fi
export PYTHONPATH=${PYTHONPATH:+$PYTHONPATH:}$PWD
t0=$(date +%s)
python3 -m cribcam.cli synth --out "$DATA" --n "$N" --seed 1 --imgsz 640 --workers "$WORKERS" --overwrite --json \
  > "$OUT/synth.json" 2> /tmp/synth.log || { tail -20 /tmp/synth.log; exit 1; }
echo "synth done in $(( $(date +%s) - t0 )) s"; tail -c 600 "$OUT/synth.json"
rm -rf /tmp/m_det /tmp/m_cls && cp -r models /tmp/m_det && cp -r models /tmp/m_cls  # continue the committed weights
train() { python3 -m cribcam.cli train --data "$DATA" --device "$DEVICE" --no-export "$@"; }
train --only detector --workers $(( WORKERS * 3 / 4 )) --batch "$BATCH" --epochs 60 --hours "$DET_HOURS" \
  --real-repeats 60 --models /tmp/m_det --runs /tmp/r_det > "$OUT/detector.log" 2>&1 &
det=$!
train --only classifier --workers 2 --classifier-batch "$CLS_BATCH" --classifier-epochs 40 \
  --classifier-seconds "$CLS_SECONDS" --classifier-images 9000 --no-real --models /tmp/m_syn --runs /tmp/r_syn \
  > "$OUT/classifier_synthetic.log" 2>&1 &
syn=$!
train --only classifier --workers 2 --classifier-batch "$CLS_BATCH" --classifier-epochs 40 \
  --classifier-seconds "$CLS_SECONDS" --classifier-images 9000 --real-repeats 60 --models /tmp/m_cls --runs /tmp/r_cls \
  > "$OUT/classifier.log" 2>&1
wait $syn; wait $det
echo "all done in $(( $(date +%s) - t0 )) s"
cp /tmp/m_det/corner_detector.pt /tmp/m_cls/corner_classifier.pt "$OUT/" 2>/dev/null
cp /tmp/m_syn/corner_classifier.pt "$OUT/corner_classifier_synthetic_only.pt" 2>/dev/null
cp /tmp/r_det/detector/results.csv "$OUT/detector_results.csv" 2>/dev/null
tail -n 5 "$OUT/detector.log" "$OUT/classifier.log" "$OUT/classifier_synthetic.log"
ls -la "$OUT"
