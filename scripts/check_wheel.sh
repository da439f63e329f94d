#!/usr/bin/env bash
# Builds the wheel, installs it alone into a fresh venv, and reads and counts a committed photo from a
# temporary folder: proves the models and the sample travel with the package. Used by .ci/run.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
pip wheel -q --no-deps -w "$work/dist" "$repo"
python -m venv "$work/venv"
"$work/venv/bin/pip" install -q "$work"/dist/cribcam-*.whl
cd "$work"
env -u CRIBCAM_MODELS "$work/venv/bin/cribcam" photo "$repo/tests/data/sample_hand.jpg" --starter 5D --json >"$work/count.json"
env -u CRIBCAM_MODELS "$work/venv/bin/python" - "$work/count.json" <<'PY'
import json
import os
import sys

from ui.sample import SAMPLE_HAND, SAMPLE_STARTER, sample_photo
from vision import CardDetector, read_photo

count = json.load(open(sys.argv[1]))
assert count["score"]["total"] == 29, count
cards = sorted(map(str, read_photo(sample_photo(), CardDetector()).card_list))
assert cards == sorted([*SAMPLE_HAND, SAMPLE_STARTER]), cards
loaded = [m for m in sys.modules if m.split(".")[0] in ("torch", "ultralytics", "cairosvg")]
assert not loaded, loaded
print(f"wheel, run from {os.getcwd()}: cribcam photo counted {count['score']['total']}; the sample read {cards}")
PY
