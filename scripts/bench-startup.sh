#!/usr/bin/env bash
# Measures the packaged server: start to ready (first HTTP answer) and resident memory after 5 s idle.
#   scripts/bench-startup.sh [RUNS]      prints each run and the medians
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
runs="${1:-9}"
[ -f "$root/src/target/quarkus-app/quarkus-run.jar" ] || { echo "build first: mvn -DskipTests package" >&2; exit 1; }
home=$(mktemp -d); port=8399
ready=(); rss=()
for i in $(seq 1 "$runs"); do
  t0=$(date +%s%N)
  DECKHAND_HOME="$home" QUARKUS_HTTP_PORT=$port "$root/scripts/deckhand" >/dev/null 2>&1 &
  pid=$!
  until curl -s -o /dev/null "http://127.0.0.1:$port/api/status"; do sleep 0.01; done
  t1=$(date +%s%N)
  sleep 5
  # The launcher execs java, so $pid is the JVM.
  kb=$(awk '/VmRSS/{print $2}' "/proc/$pid/status")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  ms=$(( (t1 - t0) / 1000000 ))
  ready+=("$ms"); rss+=("$kb")
  printf 'run %d: ready %d ms, idle RSS %d MiB\n' "$i" "$ms" $((kb / 1024))
done
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf 'median of %d: start to ready %s ms, idle RSS %s MiB (java %s, %s cores)\n' "$runs" "$(median "${ready[@]}")" \
  $(( $(median "${rss[@]}") / 1024 )) "$(java -version 2>&1 | head -1 | cut -d'"' -f2)" "$(nproc)"
rm -rf "$home"
