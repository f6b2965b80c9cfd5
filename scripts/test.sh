#!/usr/bin/env bash
# The tests (README, second command): install what they need, then `mvn verify` inside a private
# virtual desktop (Xvfb, D-Bus, AT-SPI, openbox) that is stopped afterwards, by PID; then the task
# suite (tasks/) with its oracle, each task in a virtual desktop of its own: every task must end as it
# expects, and the report is printed (docs/eval.md).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/deps.sh test
( cd src/test/mcp-client && npm ci --no-audit --no-fund --loglevel=error )
scripts/desktop.sh run -- mvn -B verify "$@"
# Reports stay in the build tree, not in the person's config directory.
DECKHAND_HOME="$root/src/target/eval-home" scripts/deckhand eval --tasks tasks --oracle --parallel 2 --out src/target/eval
