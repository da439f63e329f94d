#!/usr/bin/env bash
# Real pictures with no playing cards in them, for "no card reported from a photo with no cards":
#   .cache/negatives/real/  photographs from scikit-image's sample data (PyPI wheel: a page of print, text
#   on a sign, a clock, coins, a cat, a coffee cup, ...) and Debian's mate-backgrounds and
#   plasma-workspace-wallpapers (the JPEG photographs: nature, cups, water, ...). Downloaded from the
#   package registries only, never committed. Safe to run again. Then:
#   cribcam eval --negatives .cache/negatives/real
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$repo/.cache/negatives/real"
[ -f "$out/.done" ] && { echo "$out is there"; exit 0; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
pip download --no-deps --only-binary=:all: -q -d "$work" scikit-image==0.25.2
python3 - "$work"/scikit_image-*.whl "$out" <<'PY'
import sys, zipfile
photos = ("astronaut.png", "camera.png", "coffee.png", "chelsea.png", "coins.png", "rocket.jpg", "page.png",
          "text.png", "motorcycle_left.png", "motorcycle_right.png", "brick.png", "grass.png", "gravel.png",
          "clock_motion.png", "hubble_deep_field.jpg", "moon.png", "color.png", "retina.jpg", "ihc.png", "cell.png")
with zipfile.ZipFile(sys.argv[1]) as wheel:
    for name in photos:
        with open(f"{sys.argv[2]}/skimage_{name}", "wb") as f:
            f.write(wheel.read(f"skimage/data/{name}"))
PY
(cd "$work" && apt-get download mate-backgrounds plasma-workspace-wallpapers >/dev/null)
for deb in "$work"/*.deb; do dpkg-deb -x "$deb" "$work/x"; done
for f in "$work"/x/usr/share/backgrounds/mate/nature/*.jpg; do cp "$f" "$out/mate_$(basename "$f")"; done
for d in "$work"/x/usr/share/wallpapers/*/contents/images; do
  big="$(find "$d" -name '*.jpg' -size +10k -printf '%s %p\n' | sort -n | tail -1 | cut -d' ' -f2-)"
  [ -n "$big" ] && cp "$big" "$out/plasma_$(basename "$(dirname "$(dirname "$d")")").jpg"
done
touch "$out/.done"
echo "$(ls "$out" | wc -l) pictures in $out"
