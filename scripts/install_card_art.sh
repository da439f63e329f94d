#!/usr/bin/env bash
# Installs the card art that the synthetic-photo generator renders (Debian + npm decks).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
if ! dpkg -s gnome-cards-data kdegames-card-data-kf5 librsvg2-bin >/dev/null 2>&1; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends gnome-cards-data kdegames-card-data-kf5 librsvg2-bin >/dev/null
fi
