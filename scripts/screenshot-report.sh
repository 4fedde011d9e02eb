#!/usr/bin/env bash
# Renders a tailstream HTML report to a PNG with headless Chromium (Debian: apt-get install chromium).
# Usage: scripts/screenshot-report.sh REPORT.html [OUT.png] [WIDTHxHEIGHT]
# Offline by construction: the report inlines everything; background networking is disabled anyway.
set -euo pipefail
report=${1:?usage: $0 REPORT.html [OUT.png] [WIDTHxHEIGHT]}
out=${2:-${report%.html}.png}
size=${3:-1400x1000}
chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
if [[ -z "$chromium" ]]; then
  echo "needs chromium on the PATH (or CHROMIUM=/path/to/chromium)" >&2
  exit 2
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
"$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
  --disable-sync --no-first-run --hide-scrollbars --user-data-dir="$profile" --virtual-time-budget=5000 \
  --window-size="${size/x/,}" --screenshot="$(realpath -m "$out")" "file://$(realpath "$report")" 2>/dev/null
echo "$out"
