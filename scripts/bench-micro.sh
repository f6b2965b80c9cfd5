#!/usr/bin/env bash
# The micro-benchmarks (docs/performance.md): JMH benchmarks in a module's test sources, run by JMH's own runner
# in a forked JVM. The normal test build compiles them (JMH's annotation processor writes their harness) but runs
# none of them: they are not tests.
#   scripts/bench-micro.sh loop [JMH ARGS...]   LoopOverheadBench (the loop's own cost per step)
#   scripts/bench-micro.sh src [JMH ARGS...]    ModelClientBench (host cost of decide() against local stubs)
# JMH ARGS e.g. a benchmark name regex, -p provider=openai, -wi 3 -i 5, -l (list), -h (JMH's help).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
module="${1:?usage: scripts/bench-micro.sh loop|src [JMH ARGS...]}"
shift
case "$module" in loop|src) ;; *) echo "bench-micro: module is loop or src, was '$module'" >&2; exit 64 ;; esac
# the test classpath comes from the same reactor run that compiles the benchmarks
mvn -B -q -pl "$module" -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile=target/bench.classpath
cp="$module/target/test-classes:$module/target/classes:loop/target/classes:scope-grant/target/classes"
exec java -cp "$cp:$(cat "$module/target/bench.classpath")" org.openjdk.jmh.Main "$@"
