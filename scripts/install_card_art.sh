#!/usr/bin/env bash
# Installs the card art that the synthetic-photo generator renders (Debian + npm decks).
#   Debian: gnome-cards-data, kdegames-card-data-kf5 (SVG decks), librsvg2-bin (rsvg-convert), and the
#   DejaVu fonts (core and extra: the 20 faces the print decoys and styled decks draw with, so training data
#   made on a fresh machine matches the shipped runs' where no other fonts are installed).
#   npm, into .cache/npm of the repo (git-ignored): three packages of SVG decks, versions pinned.
# Safe to run again: it does nothing when everything is there. Then `cribcam cards` renders them.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

debs=(gnome-cards-data kdegames-card-data-kf5 librsvg2-bin fonts-dejavu-core fonts-dejavu-extra)
if ! dpkg -s "${debs[@]}" >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${debs[@]}" >/dev/null
fi

npm_dir="$repo/.cache/npm"
npm_pkgs=(
  "@younestouati/playing-cards-standard-deck@3.0.0"
  "svg-cards@4.0.2"
  "@heruka_urgyen/react-playing-cards@0.5.0"
)
have_all=1
for spec in "${npm_pkgs[@]}"; do
  name="${spec%@*}"
  version="${spec##*@}"
  pkg_json="$npm_dir/node_modules/$name/package.json"
  if [ ! -f "$pkg_json" ] || ! grep -q "\"version\": *\"$version\"" "$pkg_json"; then
    have_all=0
  fi
done
if [ "$have_all" -eq 0 ]; then
  command -v npm >/dev/null || { echo "install_card_art: npm is needed for the npm decks (apt-get install npm)" >&2; exit 1; }
  mkdir -p "$npm_dir"
  npm install --prefix "$npm_dir" --no-audit --no-fund --ignore-scripts --legacy-peer-deps \
    --loglevel=error --no-save "${npm_pkgs[@]}" >/dev/null
fi

for path in /usr/share/aisleriot/cards/anglo.svgz /usr/share/carddecks/svg-standard/standard.svgz \
  "$npm_dir/node_modules/@heruka_urgyen/react-playing-cards/src/images/2color-bf/AS.svg"; do
  [ -f "$path" ] || { echo "install_card_art: $path is missing after the install" >&2; exit 1; }
done
