#!/usr/bin/env bash
# Liveness, inside the container: Deckhand answers GET /health (public, a constant; it needs no token and
# tells nothing). Exit 0 when it answers 200 within 5 s.
set -euo pipefail
port="${QUARKUS_HTTP_PORT:-8377}"
exec 3<>"/dev/tcp/127.0.0.1/$port"
printf 'GET /health HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n' "$port" >&3
IFS= read -r -t 5 status <&3
[[ "$status" == "HTTP/1.1 200 "* ]]
