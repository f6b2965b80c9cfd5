package dev.deckhand.loop;

import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.fakes.ScriptedDecider;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The loop's own cost per step (observation text of a 286-node tree, schema, strict parse, checks, dispatch,
 * audit) against fakes that cost nothing: a JMH benchmark, not a test ({@code scripts/bench-micro.sh}).
 * SampleTime, so JMH prints the median (p0.50) and p0.90 of a step beside the mean.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 10, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LoopOverheadBench {

    static final int STEPS_PER_RUN = 50;

    private ScopedTree base;
    private String uid;

    @Setup
    public void tree() throws Exception {
        Method editor =
                Class.forName("dev.deckhand.loop.observe.ObservationTextTest").getDeclaredMethod("editor");
        editor.setAccessible(true);
        base = (ScopedTree) editor.invoke(null);
        uid = base.nodes().stream()
                .filter(n -> n.role().equals("push button"))
                .findFirst()
                .orElseThrow()
                .uid();
    }

    /** One run of {@value #STEPS_PER_RUN} steps (49 clicks, then done); the score is per step. */
    @Benchmark
    @OperationsPerInvocation(STEPS_PER_RUN)
    public RunResult step() {
        LoopFixture f = new LoopFixture();
        f.desktop.tree(rev -> new ScopedTree(base.windowId(), rev, base.nodes(), false));
        f.verifierPort = s -> dev.deckhand.loop.verify.VerifierResult.pass("bench");
        ScriptedDecider model = new ScriptedDecider()
                .repeat("{\"action\": \"click\", \"uid\": \"" + uid + "\"}", STEPS_PER_RUN - 1)
                .then("{\"action\": \"done\", \"summary\": \"bench\"}");
        RunResult r = f.run(
                model,
                RunRequest.of(
                        "bench", "Press New", Optional.of(new dev.deckhand.loop.verify.VerifierSpec.Window("x"))));
        if (r.outcome().kind() != Outcome.Kind.COMPLETED) throw new IllegalStateException(r.summary());
        return r;
    }
}
