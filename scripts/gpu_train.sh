#!/usr/bin/env bash
# One training run on a lent GPU machine: make the CPU runs' training data (scripts/make_training_data.sh,
# data/synth67) with every core, then continue both committed models on it at once (the detector on 320 px crops
# at reading scale, as runs 18-19; the classifier with the real fine-tuning photos), plus a synthetic-only
# classifier from scratch for comparison; weights and logs land in $OUT.
# Needs: .whl (ultralytics wheels), .cache/cards (rendered card art), ../shared or CRIBCAM_REAL_PHOTOS.
# Knobs: DET_HOURS detector wall time, CLS_SECONDS classifier wall time, DEVICE.
# Back home: put the .pt files in a copy of models/, export them (vision.training.run.export_models with the
# training photos, which also makes the int8 detector again), judge, calibrate (see models/README.md).
set -uo pipefail
export PYTHONUNBUFFERED=1 YOLO_OFFLINE=1
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
DET_HOURS=${DET_HOURS:-0.075}; CLS_SECONDS=${CLS_SECONDS:-150}; DEVICE=${DEVICE:-0}
WORKERS=${WORKERS:-$(nproc)}; BATCH=${BATCH:-64}; CLS_BATCH=${CLS_BATCH:-512}; DATA=data/synth67
if [ -d .whl ] && ! python3 -c "import ultralytics" 2>/dev/null; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
  export PYTHONPATH=/tmp/site
fi
export PYTHONPATH=${PYTHONPATH:+$PYTHONPATH:}$PWD
t0=$(date +%s)
WORKERS=$WORKERS bash scripts/make_training_data.sh > /tmp/synth.log 2>&1 || { tail -20 /tmp/synth.log; exit 1; }
echo "data made in $(( $(date +%s) - t0 )) s"; tail -n 1 /tmp/synth.log
rm -rf /tmp/m_det /tmp/m_cls && cp -r models /tmp/m_det && cp -r models /tmp/m_cls  # continue the committed weights
train() { python3 -m cribcam.cli train --data "$DATA" --device "$DEVICE" --no-export "$@"; }
train --only detector --workers $(( WORKERS * 3 / 4 )) --batch "$BATCH" --crop 320 --crops-per-image 2 --imgsz 640 \
  --epochs 60 --hours "$DET_HOURS" --real-repeats 30 --models /tmp/m_det --runs /tmp/r_det > "$OUT/detector.log" 2>&1 &
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
