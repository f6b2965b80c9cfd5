#!/usr/bin/env bash
# The step bench (docs/performance.md#one-call-at-the-speed-of-the-machine): one computer call clicking a calculator button through MCP on a
# real server process, against xdotool click + scrot on the same buttons, in a private virtual desktop.
#   scripts/bench-step.sh [RUNS [WARM_UP]]   builds the package and the test classes, then prints medians and ratios
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# 41 runs by default: the medians of 15 or 21 runs moved by 0.05 in the ratio between two runs here (noise), 41 by 0.01
runs="${1:-41}"
warm_up="${2:-10}"
# package builds the server and compiles the tests; the test classpath comes from the same reactor run
mvn -B -q -pl src -am package -DskipTests dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.classpath
cp="src/target/test-classes:src/target/classes:loop/target/classes:scope-grant/target/classes:$(cat src/target/bench.classpath)"
exec scripts/desktop.sh run -- java -cp "$cp" dev.deckhand.bench.StepBench src/target/quarkus-app/quarkus-run.jar "$runs" "$warm_up"
