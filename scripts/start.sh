#!/usr/bin/env bash
# The main job (README, first command): install what is missing, build, and start Deckhand — on the
# person's X11 display when there is one, else on its own virtual desktop with a sample app open.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/deps.sh main
echo "start: building (mvn -DskipTests package)…" >&2
mvn -B -q -DskipTests install
if [ -n "${DISPLAY:-}" ] && xdpyinfo >/dev/null 2>&1; then
  echo "start: using your display $DISPLAY" >&2
  exec scripts/deckhand "$@"
fi
echo "start: no usable X11 display; starting a private virtual desktop with mousepad open" >&2
exec scripts/desktop.sh run --sample-app -- scripts/deckhand "$@"
