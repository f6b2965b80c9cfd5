#!/usr/bin/env bash
# The sandbox image (docker/Containerfile): Deckhand, its virtual desktop, the task suite's apps and the
# suite, from Debian packages only — no base image is pulled. docs/fleet.md says how to run it.
#
#   scripts/image.sh build [--tag TAG]   build it (default tag localhost/deckhand:latest) and print the figures
#   scripts/image.sh prepare             build only its packages stage (the base and the Debian packages), which
#                                        the next build takes from the engine's cache; needs no packaged app
#   scripts/image.sh engine ARGS...      run the container engine the build uses, with its configuration
#
# The engine is Docker when a Docker engine answers, else podman (DECKHAND_IMAGE_ENGINE=podman|docker
# chooses). The base is debootstrap (minbase) of the Debian release and mirror apt already uses here, read
# from /etc/apt/sources.list*, imported as localhost/deckhand-base:KEY; its tarball is kept in the cache
# ($DECKHAND_IMAGE_CACHE, default ~/.cache/deckhand-image), keyed by what it is made of, and the engine's
# own layer cache keeps the packages' layer while scripts/deps.sh is unchanged. Podman gets a
# containers.conf of its own in that cache (LINUX-DESKTOP.md: this host's ulimits, runc), never /etc.
# Needs root for debootstrap (once per key) and the packaged app (built here when missing).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="${DECKHAND_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/deckhand-image}"
SUITE=bookworm
log() { printf 'image: %s\n' "$*" >&2; }
die() { log "$*"; exit "${2:-1}"; }

engine_name() {
  case "${DECKHAND_IMAGE_ENGINE:-}" in
    podman|docker) echo "$DECKHAND_IMAGE_ENGINE"; return ;;
    "") ;;
    *) die "DECKHAND_IMAGE_ENGINE must be podman or docker, was '$DECKHAND_IMAGE_ENGINE'" 64 ;;
  esac
  if command -v docker >/dev/null && timeout 10 docker info >/dev/null 2>&1; then echo docker; else echo podman; fi
}

# Runs the engine; podman reads only the containers.conf written here.
engine() {
  local name; name=$(engine_name)
  if [ "$name" = podman ]; then
    command -v podman >/dev/null || die "podman is not installed: scripts/deps.sh container (as root)" 3
    mkdir -p "$cache"
    # This host's hard limits are below podman's default ulimits, and crun fails on its hybrid cgroups.
    printf '%s\n' '# Written by scripts/image.sh for its own podman runs (LINUX-DESKTOP.md).' '[containers]' \
      'default_ulimits = ["nofile=20000:20000", "nproc=32768:32768"]' '[engine]' 'runtime = "runc"' > "$cache/containers.conf"
    CONTAINERS_CONF="$cache/containers.conf" podman "$@"
  else
    docker "$@"
  fi
}

# "URI SUITE" for every Debian entry of this release in apt's sources (one-line and deb822 formats).
debian_sources() {
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk -v s="$SUITE" '$1 == "deb" { i = 2; if ($2 ~ /^\[/) { while (i < NF && $i !~ /\]$/) i++; i++ }
      main = 0; for (j = i + 2; j <= NF; j++) if ($j == "main") main = 1
      if (main && $(i + 1) ~ ("^" s "(-updates|-security)?$")) print $i, $(i + 1) }' "$f"
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v s="$SUITE" 'function flush() { if (deb && main && enabled) { n = split(uris, u, " "); m = split(suites, x, " ");
          for (a = 1; a <= n; a++) for (b = 1; b <= m; b++) if (x[b] ~ ("^" s "(-updates|-security)?$")) print u[a], x[b] }
        deb = 0; main = 0; enabled = 1; uris = ""; suites = "" }
      BEGIN { enabled = 1 }
      /^[ \t]*$/ { flush(); next }
      /^#/ { next }
      tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
      tolower($1) == "uris:" { uris = substr($0, index($0, ":") + 1) }
      tolower($1) == "suites:" { suites = substr($0, index($0, ":") + 1) }
      tolower($1) == "components:" { for (i = 2; i <= NF; i++) if ($i == "main") main = 1 }
      tolower($1) == "enabled:" { enabled = (tolower($2) != "no") }
      END { flush() }' "$f"
  done
}

# Makes sure localhost/deckhand-base:KEY exists in the engine; prints its name.
base_image() {
  local sources mirror key name tarball
  sources=$(debian_sources | awk '!seen[$0]++')
  mirror=$(awk -v s="$SUITE" '$2 == s { print $1; exit }' <<<"$sources")
  [ -n "$mirror" ] || die "no Debian $SUITE mirror in /etc/apt/sources.list*: apt needs one for the image" 3
  command -v debootstrap >/dev/null || die "debootstrap is not installed: scripts/deps.sh container (as root)" 3
  key=$(printf '%s\n' "$SUITE minbase $(dpkg-query -W -f='${Version}' debootstrap 2>/dev/null)" "$sources" | sha256sum | cut -c1-16)
  name="localhost/deckhand-base:$key"
  if engine image inspect "$name" >/dev/null 2>&1; then log "base $name (cached in the engine)"; echo "$name"; return; fi
  tarball="$cache/base-$key.tar"
  if [ ! -f "$tarball" ]; then
    [ "$(id -u)" = 0 ] || die "debootstrap needs root (once, then $tarball is reused)" 3
    local rootfs; rootfs=$(mktemp -d /var/tmp/deckhand-rootfs.XXXXXX)
    # shellcheck disable=SC2064
    trap "rm -rf '$rootfs'" EXIT
    log "debootstrap --variant=minbase $SUITE from apt's mirror (once per key $key)"
    debootstrap --variant=minbase "$SUITE" "$rootfs" "$mirror" > "$rootfs.log" 2>&1 \
      || { tail -5 "$rootfs.log" >&2; rm -f "$rootfs.log"; die "debootstrap failed"; }
    rm -f "$rootfs.log"
    # The image's apt uses the same entries as this host's: the release, its updates and security.
    awk '{ print "deb", $1, $2, "main" }' <<<"$sources" > "$rootfs/etc/apt/sources.list"
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
    mkdir -p "$cache"
    tar --numeric-owner -C "$rootfs" -cf "$tarball.part" . && mv "$tarball.part" "$tarball"
    rm -rf "$rootfs"
    trap - EXIT
  fi
  engine import "$tarball" "$name" >/dev/null
  log "base $name imported from $tarball"
  echo "$name"
}

build() {
  local tag=localhost/deckhand:latest
  while [ $# -gt 0 ]; do
    case "$1" in
      --tag) tag=${2:?--tag needs a value}; shift 2 ;;
      *) die "unknown option $1 (usage: scripts/image.sh build [--tag TAG])" 64 ;;
    esac
  done
  local t0; t0=$(date +%s)
  if [ ! -f "$root/src/target/quarkus-app/quarkus-run.jar" ]; then
    log "packaging the app first (mvn -DskipTests package)"
    (cd "$root" && mvn -B -q -DskipTests package)
  fi
  local base; base=$(base_image)
  local previous; previous=$(engine image inspect --format '{{.Id}}' "$tag" 2>/dev/null || true)
  local args=(build --build-arg "BASE=$base" -t "$tag" -f "$root/docker/Containerfile")
  # Podman writes OCI images by default, which have no HEALTHCHECK.
  [ "$(engine_name)" = podman ] && args+=(--format docker)
  engine "${args[@]}" "$root" >&2
  # The image this tag named before is left without a name: remove it (its layers stay cached while used).
  if [ -n "$previous" ] && [ "$previous" != "$(engine image inspect --format '{{.Id}}' "$tag")" ]; then
    engine rmi "$previous" >/dev/null 2>&1 || true
  fi
  local size; size=$(engine image inspect --format '{{.Size}}' "$tag")
  log "built $tag with $(engine_name) in $(( $(date +%s) - t0 )) s; size $(( size / 1000000 )) MB"
}

# The packages stage alone (the slow part on a fresh machine: debootstrap and apt), tagged
# localhost/deckhand-packages:latest so the engine keeps its layers for the build.
prepare() {
  [ $# -eq 0 ] || die "usage: scripts/image.sh prepare" 64
  local t0; t0=$(date +%s)
  local base; base=$(base_image)
  local args=(build --build-arg "BASE=$base" --target packages -t localhost/deckhand-packages:latest -f "$root/docker/Containerfile")
  [ "$(engine_name)" = podman ] && args+=(--format docker)
  engine "${args[@]}" "$root" >&2
  log "prepared the packages stage with $(engine_name) in $(( $(date +%s) - t0 )) s"
}

case "${1:-}" in
  build) shift; build "$@" ;;
  prepare) shift; prepare "$@" ;;
  engine) shift; engine "$@" ;;
  *) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 64 ;;
esac
