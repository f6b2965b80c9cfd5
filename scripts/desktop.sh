#!/usr/bin/env bash
# A private virtual desktop: Xvfb on a free display, a D-Bus session bus, the AT-SPI bus and
# openbox. Tests, the main job and the docker image all start it through this script.
#
#   scripts/desktop.sh [--wayland] run [--sample-app] -- CMD [ARGS...]
#       start the desktop, run CMD with its environment exported, stop the desktop, exit with CMD's code.
#   scripts/desktop.sh [--wayland] start STATE_FILE   start it and write `export` lines (env, PIDs) to STATE_FILE
#   --wayland: a headless weston compositor instead of Xvfb and openbox (no X at all, no DISPLAY).
#   scripts/desktop.sh stop STATE_FILE      stop exactly the processes that STATE_FILE names, by PID
#
# Only processes this script started, or that carry its private XDG_RUNTIME_DIR in their environment
# (the AT-SPI registry is re-parented to PID 1, the a11y bus is the launcher's child), are ended.
set -euo pipefail

GEOMETRY="${DECKHAND_DESKTOP_GEOMETRY:-1280x800x24}"
log() { printf 'desktop: %s\n' "$*" >&2; }

need_wayland() {
  local missing=()
  for c in weston dbus-daemon dbus-send; do command -v "$c" >/dev/null || missing+=("$c"); done
  [ -x /usr/libexec/at-spi-bus-launcher ] || missing+=(at-spi-bus-launcher)
  if [ ${#missing[@]} -gt 0 ]; then
    log "missing ${missing[*]}; install: apt-get install --no-install-recommends weston at-spi2-core dbus-x11 libatspi2.0-0"
    exit 3
  fi
}

need() {
  local missing=()
  for c in Xvfb xdpyinfo xprop xmessage dbus-daemon dbus-send openbox; do command -v "$c" >/dev/null || missing+=("$c"); done
  [ -x /usr/libexec/at-spi-bus-launcher ] || missing+=(at-spi-bus-launcher)
  if [ ${#missing[@]} -gt 0 ]; then
    log "missing ${missing[*]}; install: apt-get install --no-install-recommends xvfb x11-utils at-spi2-core dbus-x11 libatspi2.0-0 openbox"
    exit 3
  fi
}

# takes N PID: within 10 s display :N answers and its lock file names PID (the Xvfb we started); fails as soon as
# that Xvfb has exited (another server holds :N).
takes() {
  local deadline=$(( $(date +%s%N) + 10000000000 ))
  while [ "$(date +%s%N)" -lt "$deadline" ] && kill -0 "$2" 2>/dev/null; do
    if xdpyinfo -display ":$1" >/dev/null 2>&1 && [ "$(tr -d ' \n' < "/tmp/.X$1-lock" 2>/dev/null)" = "$2" ]; then
      return 0
    fi
    sleep 0.05
  done
  return 1
}

wait_for() { # wait_for SECONDS DESCRIPTION CMD...
  local limit=$1 what=$2; shift 2
  local deadline=$(( $(date +%s%N) + limit * 1000000000 ))
  until "$@" >/dev/null 2>&1; do
    if [ "$(date +%s%N)" -gt "$deadline" ]; then log "timed out after ${limit}s waiting for $what"; return 1; fi
    sleep 0.05
  done
}

# openbox sets _NET_SUPPORTING_WM_CHECK before its startup is done, and a window mapped in between is never
# managed (docs/eval.md): ready means a probe window, mapped again every second while it is not on the
# client list, is listed; it is ended and gone from the list before the desktop is used.
wm_manages() { # wm_manages SECONDS
  local deadline=$(( $(date +%s%N) + $1 * 1000000000 )) probe tries managed
  while [ "$(date +%s%N)" -lt "$deadline" ]; do
    xmessage -name deckhand-wm-probe -timeout 30 "window manager probe" >/dev/null 2>&1 &
    probe=$!; tries=0; managed=0
    while [ "$tries" -lt 20 ]; do
      if xprop -root _NET_CLIENT_LIST 2>/dev/null | grep -q '# 0x'; then managed=1; break; fi
      tries=$((tries + 1)); sleep 0.05
    done
    kill "$probe" 2>/dev/null || true
    wait "$probe" 2>/dev/null || true
    if [ "$managed" = 1 ]; then
      wait_for 10 "openbox to let the probe window go" sh -c '! xprop -root _NET_CLIENT_LIST | grep -q "# 0x"'
      return
    fi
  done
  log "timed out after $1s waiting for openbox to manage a window"
  return 1
}

start() {
  local state=$1
  need
  local runtime; runtime=$(mktemp -d /tmp/deckhand-desktop.XXXXXX)
  chmod 700 "$runtime"
  mkdir -p "$runtime/config" "$runtime/data" "$runtime/cache"
  : > "$state"
  record() { printf 'export %s=%q\n' "$1" "$2" >> "$state"; }
  record DECKHAND_DESKTOP_RUNTIME "$runtime"

  # A display from :90 up, taken by Xvfb itself: it creates the display's lock file atomically (a stale one it
  # takes over) and exits when a live server holds it, so ours is the one whose pid the lock file names once the
  # display answers. Two desktops started at once never share one (checking for a free number, then starting,
  # could). Low numbers stay free for a person's own servers; on :0 one test failed that passes from :1 up
  # (BrowserHostTest: Chromium's element list never answered), not understood yet.
  local n pid=""
  for n in $(seq 90 199); do
    Xvfb ":$n" -screen 0 "$GEOMETRY" -nolisten tcp -noreset >"$runtime/xvfb.log" 2>&1 &
    pid=$!
    if takes "$n" "$pid"; then break; fi
    kill "$pid" 2>/dev/null || true
    pid=""
  done
  if [ -z "$pid" ]; then log "no display in :90..:199 could be taken"; stop "$state"; return 3; fi
  record DECKHAND_DESKTOP_XVFB_PID "$pid"
  export DISPLAY=":$n"
  record DISPLAY "$DISPLAY"

  export XDG_RUNTIME_DIR="$runtime"
  record XDG_RUNTIME_DIR "$runtime"
  local bus; bus=$(dbus-daemon --session --fork --print-address=1 --print-pid=1)
  export DBUS_SESSION_BUS_ADDRESS; DBUS_SESSION_BUS_ADDRESS=$(sed -n 1p <<<"$bus")
  record DBUS_SESSION_BUS_ADDRESS "$DBUS_SESSION_BUS_ADDRESS"
  record DECKHAND_DESKTOP_DBUS_PID "$(sed -n 2p <<<"$bus")"

  /usr/libexec/at-spi-bus-launcher --launch-immediately >"$runtime/atspi.log" 2>&1 &
  record DECKHAND_DESKTOP_ATSPI_PID $!
  # Without this property Qt 5.15 races its D-Bus lookup and never registers (LINUX-DESKTOP.md).
  if ! wait_for 30 "AT_SPI_BUS on the root window" sh -c 'xprop -root AT_SPI_BUS | grep -q unix:'; then stop "$state"; return 3; fi
  local a11y; a11y=$(xprop -root AT_SPI_BUS | sed -n 's/.*= "\(.*\)"/\1/p')
  record DECKHAND_DESKTOP_A11Y_BUS "$a11y"

  openbox --sm-disable >"$runtime/openbox.log" 2>&1 &
  record DECKHAND_DESKTOP_WM_PID $!
  if ! wait_for 30 "openbox to manage the screen" sh -c 'xprop -root _NET_SUPPORTING_WM_CHECK | grep -q "window id"'; then stop "$state"; return 3; fi
  if ! wm_manages 30; then stop "$state"; return 3; fi

  # Ready means the registry answers on the accessibility bus (it starts by D-Bus activation).
  if ! wait_for 60 "the AT-SPI registry" dbus-send --bus="$a11y" --print-reply --dest=org.a11y.atspi.Registry \
      /org/a11y/atspi/accessible/root org.freedesktop.DBus.Properties.Get \
      string:org.a11y.atspi.Accessible string:ChildCount; then stop "$state"; return 3; fi

  record GDK_BACKEND x11
  record QT_QPA_PLATFORM xcb
  record QT_ACCESSIBILITY 1
  record QT_LINUX_ACCESSIBILITY_ALWAYS_ON 1
  # Apps keep session state; a private home for it keeps every start clean.
  record XDG_CONFIG_HOME "$runtime/config"
  record XDG_DATA_HOME "$runtime/data"
  record XDG_CACHE_HOME "$runtime/cache"
  record DECKHAND_PRIVATE_DESKTOP 1
  log "ready on $DISPLAY (a11y bus answers; state in $state)"
}

# A headless Wayland session (LINUX-DESKTOP.md, "Wayland, headless"): weston draws only with pixman
# here, libatspi finds the accessibility bus only through org.a11y.Bus on the session bus, and that
# name must have an owner before GetAddress or D-Bus activation starts a second launcher.
start_wayland() {
  local state=$1
  need_wayland
  local runtime; runtime=$(mktemp -d /tmp/deckhand-desktop.XXXXXX)
  chmod 700 "$runtime"
  mkdir -p "$runtime/config" "$runtime/data" "$runtime/cache" "$runtime/home"
  : > "$state"
  record() { printf 'export %s=%q\n' "$1" "$2" >> "$state"; }
  record DECKHAND_DESKTOP_RUNTIME "$runtime"
  export XDG_RUNTIME_DIR="$runtime"
  record XDG_RUNTIME_DIR "$runtime"
  unset DISPLAY
  local bus; bus=$(dbus-daemon --session --fork --print-address=1 --print-pid=1)
  export DBUS_SESSION_BUS_ADDRESS; DBUS_SESSION_BUS_ADDRESS=$(sed -n 1p <<<"$bus")
  record DBUS_SESSION_BUS_ADDRESS "$DBUS_SESSION_BUS_ADDRESS"
  record DECKHAND_DESKTOP_DBUS_PID "$(sed -n 2p <<<"$bus")"

  local width=${GEOMETRY%%x*} rest=${GEOMETRY#*x}; local height=${rest%%x*}
  weston --backend=headless-backend.so --socket=wayland-deckhand --idle-time=0 --use-pixman \
    --width="$width" --height="$height" >"$runtime/weston.log" 2>&1 &
  record DECKHAND_DESKTOP_WESTON_PID $!
  if ! wait_for 10 "weston's socket" test -S "$runtime/wayland-deckhand"; then stop "$state"; return 3; fi
  record WAYLAND_DISPLAY wayland-deckhand
  echo "unset DISPLAY" >> "$state"

  /usr/libexec/at-spi-bus-launcher --launch-immediately >"$runtime/atspi.log" 2>&1 &
  record DECKHAND_DESKTOP_ATSPI_PID $!
  if ! wait_for 30 "org.a11y.Bus to have an owner" sh -c 'dbus-send --session --print-reply --dest=org.freedesktop.DBus \
      /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner string:org.a11y.Bus | grep -q "boolean true"'; then
    stop "$state"; return 3
  fi
  local a11y; a11y=$(dbus-send --session --print-reply=literal --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress | tr -d ' ')
  record DECKHAND_DESKTOP_A11Y_BUS "$a11y"
  record AT_SPI_BUS_ADDRESS "$a11y"
  if ! wait_for 60 "the AT-SPI registry" dbus-send --bus="$a11y" --print-reply --dest=org.a11y.atspi.Registry \
      /org/a11y/atspi/accessible/root org.freedesktop.DBus.Properties.Get \
      string:org.a11y.atspi.Accessible string:ChildCount; then stop "$state"; return 3; fi

  record GDK_BACKEND wayland
  record QT_QPA_PLATFORM wayland
  record QT_ACCESSIBILITY 1
  record QT_LINUX_ACCESSIBILITY_ALWAYS_ON 1
  # Shared dconf/session state made mousepad open a restore dialog: a private home keeps starts clean.
  record HOME "$runtime/home"
  record XDG_CONFIG_HOME "$runtime/config"
  record XDG_DATA_HOME "$runtime/data"
  record XDG_CACHE_HOME "$runtime/cache"
  record DECKHAND_PRIVATE_DESKTOP 1
  log "ready on Wayland display wayland-deckhand (a11y bus answers; state in $state)"
}

stop() {
  local state=$1
  [ -f "$state" ] || return 0
  # shellcheck disable=SC1090
  ( . "$state"
    pids=()
    for p in "${DECKHAND_DESKTOP_WM_PID:-}" "${DECKHAND_DESKTOP_ATSPI_PID:-}" "${DECKHAND_DESKTOP_DBUS_PID:-}" \
        "${DECKHAND_DESKTOP_WESTON_PID:-}"; do
      [ -n "$p" ] && pids+=("$p")
    done
    if [ -n "${DECKHAND_DESKTOP_RUNTIME:-}" ]; then
      for env in /proc/[0-9]*/environ; do
        pid=${env#/proc/}; pid=${pid%/environ}
        [ "$pid" = "$$" ] && continue
        if tr "\\0" "\\n" 2>/dev/null < "$env" | grep -qx "XDG_RUNTIME_DIR=$DECKHAND_DESKTOP_RUNTIME"; then pids+=("$pid"); fi
      done
    fi
    [ -n "${DECKHAND_DESKTOP_XVFB_PID:-}" ] && pids+=("$DECKHAND_DESKTOP_XVFB_PID")
    for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    for _ in $(seq 1 40); do
      alive=0; for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
      [ $alive = 0 ] && break; sleep 0.05
    done
    for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
    [ -n "${DECKHAND_DESKTOP_RUNTIME:-}" ] && rm -rf "$DECKHAND_DESKTOP_RUNTIME"
  )
  rm -f "$state"
}

wayland=0
if [ "${1:-}" = --wayland ]; then wayland=1; shift; fi
begin() { if [ $wayland = 1 ]; then start_wayland "$1"; else start "$1"; fi; }

case "${1:-}" in
  start) begin "${2:?state file}" ;;
  stop) stop "${2:?state file}" ;;
  run)
    shift; sample=0
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do
      case "$1" in --sample-app) sample=1 ;; *) log "unknown option $1"; exit 64 ;; esac; shift
    done
    [ "${1:-}" = "--" ] && shift
    [ $# -gt 0 ] || { log "run needs a command after --"; exit 64; }
    state=$(mktemp /tmp/deckhand-desktop-state.XXXXXX)
    trap 'stop "$state"' EXIT
    begin "$state"
    # shellcheck disable=SC1090
    . "$state"
    if [ $sample = 1 ] && command -v mousepad >/dev/null; then
      mousepad >"$DECKHAND_DESKTOP_RUNTIME/sample-app.log" 2>&1 &
    fi
    # The command runs in the background (stdin kept) so that a TERM or INT to this script is
    # passed on to it at once and the desktop is stopped after it ends.
    set +e
    "$@" <&0 &
    child=$!
    trap 'kill -TERM "$child" 2>/dev/null' INT TERM
    while :; do
      wait "$child"; rc=$?
      kill -0 "$child" 2>/dev/null || break
    done
    set -e
    exit "$rc" ;;
  *) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 64 ;;
esac
