#!/usr/bin/env bash
# The image's entry point (docs/fleet.md).
#   (no arguments) | stdio    Deckhand in a virtual desktop of its own, with a sample app (mousepad), listening
#                             on the container's interface for a port mapping; the tokens are in $DECKHAND_HOME
#                             (/config: mount a directory there to keep them and the audit log)
#   eval ... | anything else  the launcher as is (deckhand eval starts a virtual desktop per task)
# A port mapping reaches the server only when DECKHAND_PUBLISHED_ORIGIN names the origin it publishes, e.g.
# http://127.0.0.1:18377 for `-p 127.0.0.1:18377:8377`: Host and Origin are checked against it exactly.
set -euo pipefail
deckhand=/opt/deckhand/scripts/deckhand
case "${1:-}" in
  "" | stdio)
    # The opt-in of README's "Local security": the container's own interface, for the port mapping.
    export QUARKUS_HTTP_HOST="${QUARKUS_HTTP_HOST:-0.0.0.0}"
    export DECKHAND_ALLOW_NON_LOOPBACK_BIND="${DECKHAND_ALLOW_NON_LOOPBACK_BIND:-true}"
    if [ -z "${DECKHAND_PUBLISHED_ORIGIN:-}" ]; then
      echo "deckhand image: DECKHAND_PUBLISHED_ORIGIN is not set: only requests naming 127.0.0.1:${QUARKUS_HTTP_PORT:-8377} are served" >&2
    fi
    exec /opt/deckhand/scripts/desktop.sh run --sample-app -- "$deckhand" "$@" ;;
  *) exec "$deckhand" "$@" ;;
esac
