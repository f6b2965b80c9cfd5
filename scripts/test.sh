#!/usr/bin/env bash
# The tests (README, second command): install what they need, then `mvn verify` inside a private
# virtual desktop (Xvfb, D-Bus, AT-SPI, openbox) that is stopped afterwards, by PID.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/deps.sh test
( cd src/test/mcp-client && npm ci --no-audit --no-fund --loglevel=error )
exec scripts/desktop.sh run -- mvn -B verify "$@"
