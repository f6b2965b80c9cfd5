#!/usr/bin/env bash
# The tests (README, second command): install what they need, then `mvn verify` inside a private
# virtual desktop (Xvfb, D-Bus, AT-SPI, openbox) that is stopped afterwards, by PID; then the task
# suite (tasks/) with its oracle, each task in a virtual desktop of its own: every task must end as it
# expects, and the report is printed (docs/eval.md); then the sandbox image, built with podman from Debian
# packages, and FleetAcceptance inside containers of it (docs/fleet.md).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scripts/deps.sh test
( cd src/test/mcp-client && npm ci --no-audit --no-fund --loglevel=error )
scripts/desktop.sh run -- mvn -B verify "$@"
# Reports stay in the build tree, not in the person's config directory.
DECKHAND_HOME="$root/src/target/eval-home" scripts/deckhand eval --tasks tasks --oracle --parallel 2 --out src/target/eval
# The sandbox image, and the fleet acceptance (FleetAcceptance, which needs this report and the image, so
# mvn verify does not run it): the server, its liveness probe and an MCP tools/list through a port mapping,
# one oracle task per shard in containers and their merge, and this report split three ways and merged.
scripts/image.sh build --tag localhost/deckhand:ci
mvn -B -pl src -am test-compile surefire:test -Dtest=FleetAcceptance -Dsurefire.failIfNoSpecifiedTests=false \
  -Ddeckhand.fleet.image=localhost/deckhand:ci -Ddeckhand.fleet.report="$root/src/target/eval/report.json"
