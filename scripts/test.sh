#!/usr/bin/env bash
# The tests (README, second command), in stages from the fastest; the first stage that fails ends the run
# with its status. Each stage prints its wall time when it ends, and a summary of all of them comes last
# (docs/testing.md#the-staged-run):
#   build-deps  the Debian packages the build needs (scripts/deps.sh build); the rest install in the background
#   deps     waits for the rest (scripts/deps.sh test), installed while pure ran
#   pure     every module compiled, once, and packaged; the pure tests (no display)
#   app+desktop  two tiers at once: the app's tests that need no display (Quarkus, HTTP, SQLite, headless
#            Chromium), and the platform drivers against real apps in a private virtual desktop (Xvfb, D-Bus,
#            AT-SPI, openbox)
#   e2e      the app packaged for Quarkus; the end-to-end tests and the *IT classes at once, each in a private
#            virtual desktop of its own; after the *ITs, in the end-to-end tests' time:
#              eval   the task suite (tasks/) with its oracle, one task at a time, each in a virtual desktop of
#                     its own: every task must end as it expects, and the report is printed (docs/eval.md)
#              image  the sandbox image, built with podman from Debian packages (docs/fleet.md); its packages
#                     stage, the slow part on a fresh machine (debootstrap, apt), is built in the background after
#                     the rest of the packages, at the lowest priority, and waited for here
#              fleet  FleetAcceptance inside containers of that image
# Arguments go to every Maven run (e.g. -o). The stages after pure compile nothing again: the classes, the
# modules' jars and, from e2e on, the packaged app are the ones the earlier stages made.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

names=()
times=()
started=$SECONDS
failed=""

clock() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }

summary() {
  local i
  printf '\ntest.sh: stage times\n' >&2
  for i in "${!names[@]}"; do printf '  %-11s %6s\n' "${names[$i]}" "$(clock "${times[$i]}")" >&2; done
  printf '  %-11s %6s%s\n' total "$(clock $((SECONDS - started)))" "${failed:+  (failed in $failed)}" >&2
}
# In the background, from the start: the Debian packages the later stages need, then the image's packages stage
# (network, apt and dpkg more than the CPU; at the lowest CPU and disk priority, since it runs beside the tests), in a
# process group of their own, ended by its id if the run ends first. The pure stage needs only the build's packages;
# the app and desktop tiers wait for the rest, and only the image part of the e2e stage for the image's.
bg_pid=""
logs="$root/src/target/test-sh"
background() {
  mkdir -p "$logs"
  rm -f "$logs/deps.status" "$logs/prepare.status"
  # shellcheck disable=SC2016 # the inner script's own arguments
  setsid bash -c 'scripts/deps.sh test > "$1/deps.log" 2>&1; s=$?; echo "$s" > "$1/deps.status"; [ "$s" -eq 0 ] || exit "$s"
    nice -n 19 ionice -c 3 scripts/image.sh prepare > "$1/image-prepare.log" 2>&1; s=$?; echo "$s" > "$1/prepare.status"
    exit "$s"' _ "$logs" < /dev/null &
  bg_pid=$!
}
# await STEP: waits until the background has written STEP's status (or ended); fails with its log unless it is 0.
await() {
  while [ ! -s "$logs/$1.status" ] && kill -0 "$bg_pid" 2>/dev/null; do sleep 1; done
  [ "$(cat "$logs/$1.status" 2>/dev/null)" = 0 ] && return 0
  printf 'test.sh: the background step %s failed:\n' "$1" >&2
  tail -30 "$2" >&2
  return 1
}
# Waits until the background's packages are installed; fails with their log when they could not be.
await_deps() {
  await deps "$logs/deps.log" || return
  cat "$logs/deps.log" >&2
}
# Waits for the image's packages stage (from any subshell: it polls a file, it does not wait for a child).
await_prepare() {
  await prepare "$logs/image-prepare.log"
}
ended() {
  [ -z "$bg_pid" ] || kill -- "-$bg_pid" 2>/dev/null || true
  summary
}
trap ended EXIT

# stage NAME CMD...: runs CMD, prints its time, and ends the run with CMD's status if it fails.
stage() {
  local name=$1 start=$SECONDS rc=0
  shift
  printf '\ntest.sh: stage %s\n' "$name" >&2
  "$@" || rc=$?
  names+=("$name")
  times+=("$((SECONDS - start))")
  if [ "$rc" -ne 0 ]; then
    failed=$name
    printf 'test.sh: stage %s failed (status %d) after %s\n' "$name" "$rc" "$(clock $((SECONDS - start)))" >&2
    exit "$rc"
  fi
  printf 'test.sh: stage %s passed in %s\n' "$name" "$(clock $((SECONDS - start)))" >&2
}

# The pure and app tiers must pass without a display: they never see the person's.
no_display() { env -u DISPLAY -u WAYLAND_DISPLAY "$@"; }

# Every Maven stage runs in batch mode and ends its tests at the first failing one; the caller's arguments follow.
mvn_args=(-B -Dsurefire.skipAfterFailureCount=1 -Dfailsafe.skipAfterFailureCount=1)

# The e2e tier in two halves at once, each in a virtual desktop of its own: the *IT classes (failsafe; each starts
# the packaged app) and the end-to-end tests (surefire; one Quarkus server in the test JVM). Both wait on real apps
# far more than on the CPU. The app is packaged first, once; then neither half compiles anything, but both run
# the lifecycle to test-compile (a goal alone would not see the other modules' classes), which writes Quarkus's
# test model: the surefire half, the longer, starts first, and the failsafe half, told to write none (its classes
# start the packaged app), once the surefire half is past that (its log names surefire in module deckhand; with -q
# it never does, and the halves run one after the other). The *IT half is the shorter, so the task suite (eval, in
# desktops of its own) and the image follow it, in the end-to-end half's time; neither runs Maven (with 79 tasks the
# suite's side became the longer: late_its below moves *IT classes to the other half). The suite runs
# one task at a time there, so that no more than two desktops ever share the two CPUs: with
# two tasks at once beside the end-to-end half, Calc answered an accessibility call too slowly and its task
# failed (docs/testing.md#the-staged-run). Each part's output goes to a log of its own, printed when all have
# ended, a failing part's last; the stage fails if any does, and prints each part's time.
# The *IT classes the end-to-end half runs after its own tests (comma-separated), to even the two sides out: the
# suite follows the *IT half and grows with the suite. The *IT half runs every other one (*IT, then each of these
# excluded: an exclusion alone would include every test class), so a new *IT class runs there; each half's failsafe
# writes and verifies a summary of its own (src/pom.xml).
late_its=RunCommandIT,SignInLinkIT
e2e_half() { # e2e_half MAVEN-ARGS...: one half in a desktop of its own
  scripts/desktop.sh run -- mvn "${mvn_args[@]}" -Ptier-e2e -pl src -am "$@"
}
# logged NAME CMD...: runs CMD with its output in $logs/NAME.log and its status and time in $logs/NAME.time (the
# e2e stage's parts, e2e-*, and the app+desktop stage's tiers, tier-*).
logged() {
  local name=$1 start=$SECONDS rc=0
  shift
  "$@" > "$logs/$name.log" 2>&1 || rc=$?
  echo "$rc $((SECONDS - start))" > "$logs/$name.time"
  return "$rc"
}
part() { local name=$1; shift; logged "e2e-$name" "$@"; }
tier() { local name=$1; shift; logged "tier-$name" "$@"; }
# The fleet acceptance (FleetAcceptance, which needs the suite's report and the image, so no tier runs it): the
# server, its liveness probe and an MCP tools/list through a port mapping, one oracle task per shard in
# containers and their merge, and this report split three ways and merged. It follows the image in the e2e stage,
# beside the end-to-end half's last tests, and writes no test model (that half's Maven wrote it).
fleet() {
  mvn "${mvn_args[@]}" -pl src -am test-compile surefire:test -Dtest=FleetAcceptance -Dsurefire.failIfNoSpecifiedTests=false \
    -Dquarkus.generate-code.serialize-test-model=false -Ddeckhand.fleet.image=localhost/deckhand:ci \
    -Ddeckhand.fleet.report="$root/src/target/eval/report.json" "$@"
}
suite() {
  # Reports stay in the build tree, not in the person's config directory.
  env DECKHAND_HOME="$root/src/target/eval-home" scripts/deckhand eval --tasks tasks --oracle --parallel 1 \
    --out src/target/eval
}
e2e() {
  # TypeScriptClientIT's client first (a stage's commands are chained: set -e does not reach into them).
  (cd src/test/mcp-client && npm ci --no-audit --no-fund --loglevel=error) &&
    mvn "${mvn_args[@]}" -Ptier-e2e -pl src -am package -DskipTests "$@" || return
  local p s t parts=(its tests eval image fleet) chain_pid tests_pid rc=0 failing=()
  rm -f "$logs"/e2e-*.log "$logs"/e2e-*.time
  part tests e2e_half test failsafe:integration-test failsafe:verify -Dit.test="$late_its" -Dfailsafe.failIfNoSpecifiedTests=false \
    -Dit.summaryFile="$root/src/target/failsafe-reports/summary-late.xml" "$@" &
  tests_pid=$!
  until grep -q 'surefire-plugin.*@ deckhand ---' "$logs/e2e-tests.log" 2>/dev/null || ! kill -0 "$tests_pid" 2>/dev/null
  do
    sleep 1
  done
  (part its e2e_half test-compile failsafe:integration-test failsafe:verify -Dit.test="*IT,!${late_its//,/,!}" \
    -Dfailsafe.failIfNoSpecifiedTests=false -Dquarkus.generate-code.serialize-test-model=false "$@" &&
    part eval suite && await_prepare && part image scripts/image.sh build --tag localhost/deckhand:ci &&
    part fleet fleet "$@") &
  chain_pid=$!
  wait "$tests_pid" || rc=1
  wait "$chain_pid" || rc=1
  for p in "${parts[@]}"; do
    if [ "$(cut -d' ' -f1 "$logs/e2e-$p.time" 2>/dev/null)" = 0 ]; then cat "$logs/e2e-$p.log" >&2; else failing+=("$p"); fi
  done
  for p in "${failing[@]}"; do [ ! -f "$logs/e2e-$p.log" ] || cat "$logs/e2e-$p.log" >&2; done
  for p in "${parts[@]}"; do
    if [ -f "$logs/e2e-$p.time" ]; then
      read -r s t < "$logs/e2e-$p.time"
      printf 'test.sh: e2e part %-5s status %d in %s\n' "$p" "$s" "$(clock "$t")" >&2
    else
      printf 'test.sh: e2e part %-5s not run (an earlier part failed)\n' "$p" >&2
    fi
  done
  return "$rc"
}

# The app tier (no display) beside the desktop tier (its own virtual desktop): the app tier's tests wait on
# Quarkus, SQLite, child JVMs and headless Chromium, the desktop tier's on real apps, and one after the other they
# left a CPU idle most of the time (docs/testing.md#the-staged-run). The app tier starts first and writes Quarkus's
# test model; the desktop tier, which has no Quarkus test, writes none and starts once the app tier is past that.
# The app tier runs at a lower priority (nice 10, its children too): the desktop tier's accessibility calls have a
# hung-call bound, and under load one was seen to pass it. Each tier runs in a process group of its own, its output
# in a log of its own (printed when both have ended); the first to fail ends the other at once, so a broken rule
# still fails early.
# forks LOG: after a failed Maven run, what a crashed test JVM left: the classes it started that never reported (a
# native crash gives no result), the native output surefire kept of its forks (an abort's message, e.g. glibc's or
# libdbus's, is written there, never to the log), and the head of the JVM's own crash report (exit 134 after a
# SIGSEGV in native code: the frame and the native stack).
forks() {
  local f
  grep -o 'Running [A-Za-z0-9_.$]*' "$1" | cut -d' ' -f2 | while read -r f; do
    grep -q -- "-- in $f\$" "$1" || printf 'test.sh: %s started and never reported (its JVM ended)\n' "$f" >&2
  done
  for f in src/target/surefire-reports/*.dump*; do
    [ -f "$f" ] || continue
    printf 'test.sh: %s (last lines):\n' "$f" >&2
    grep -v '^$' "$f" | tail -40 >&2
  done
  for f in src/hs_err_pid*.log; do
    [ -f "$f" ] || continue
    printf 'test.sh: %s (its head):\n' "$f" >&2
    sed -n '1,/^---------------  P R O C E S S/p' "$f" | head -80 >&2
  done
}
app_desktop() {
  local app_pid desktop_pid rc=0 p s t
  rm -f "$logs"/tier-*.log "$logs"/tier-*.time
  set -m
  tier app no_display nice -n 10 mvn "${mvn_args[@]}" -Ptier-app test "$@" < /dev/null &
  app_pid=$!
  until grep -q 'surefire-plugin.*@ deckhand ---' "$logs/tier-app.log" 2>/dev/null || ! kill -0 "$app_pid" 2>/dev/null
  do
    sleep 1
  done
  tier desktop scripts/desktop.sh run -- mvn "${mvn_args[@]}" -Ptier-desktop test \
    -Dquarkus.generate-code.serialize-test-model=false "$@" < /dev/null &
  desktop_pid=$!
  set +m
  wait -n "$app_pid" "$desktop_pid" || rc=$?
  if [ "$rc" -ne 0 ]; then
    for p in "$app_pid" "$desktop_pid"; do kill -TERM -- "-$p" 2>/dev/null || true; done
  fi
  wait "$app_pid" || rc=1
  wait "$desktop_pid" || rc=1
  for p in app desktop; do [ ! -f "$logs/tier-$p.log" ] || cat "$logs/tier-$p.log" >&2; done
  [ "$rc" -eq 0 ] || forks "$logs/tier-desktop.log"
  for p in app desktop; do
    if [ -f "$logs/tier-$p.time" ] && read -r s t < "$logs/tier-$p.time"; then
      printf 'test.sh: tier %-7s status %d in %s\n' "$p" "$s" "$(clock "$t")" >&2
    else
      printf 'test.sh: tier %-7s ended when the other tier failed\n' "$p" >&2
    fi
  done
  return "$rc"
}

stage build-deps scripts/deps.sh build
background
stage pure no_display mvn "${mvn_args[@]}" -Ptier-pure package "$@"
stage deps await_deps
stage app+desktop app_desktop "$@"
stage e2e e2e "$@"
