package dev.deckhand.loop;

import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.fakes.ScriptedDecider;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Optional;

/**
 * Prints the loop's own cost per step (observation text of a 286-node tree, schema, strict parse,
 * checks, dispatch, audit) against fakes that cost nothing — not a test; run with
 * {@code java -cp <test classpath> dev.deckhand.loop.LoopOverheadBench}.
 */
public final class LoopOverheadBench {

    public static void main(String[] args) throws Exception {
        Method editor = Class.forName("dev.deckhand.loop.observe.ObservationTextTest").getDeclaredMethod("editor");
        editor.setAccessible(true);
        ScopedTree base = (ScopedTree) editor.invoke(null);
        String uid = base.nodes().stream().filter(n -> n.role().equals("push button")).findFirst().orElseThrow().uid();
        int runs = 200;
        int stepsPerRun = 50;
        long[] perStepNanos = new long[runs];
        for (int i = 0; i < runs; i++) {
            LoopFixture f = new LoopFixture();
            f.desktop.tree(rev -> new ScopedTree(base.windowId(), rev, base.nodes(), false));
            f.verifierPort = s -> dev.deckhand.loop.verify.VerifierResult.pass("bench");
            ScriptedDecider model = new ScriptedDecider().repeat("{\"action\": \"click\", \"uid\": \"" + uid + "\"}", stepsPerRun - 1)
                    .then("{\"action\": \"done\", \"summary\": \"bench\"}");
            long t0 = System.nanoTime();
            RunResult r = f.run(model, RunRequest.of("bench", "Press New", Optional.of(new dev.deckhand.loop.verify.VerifierSpec.Window("x"))));
            perStepNanos[i] = (System.nanoTime() - t0) / stepsPerRun;
            if (r.outcome().kind() != Outcome.Kind.COMPLETED) throw new IllegalStateException(r.summary());
        }
        long[] warm = Arrays.copyOfRange(perStepNanos, runs / 2, runs);
        Arrays.sort(warm);
        System.out.printf("loop overhead per step (286-node tree, fakes, warm half of %d runs x %d steps): median %.1f us, p90 %.1f us%n",
                runs, stepsPerRun, warm[warm.length / 2] / 1e3, warm[(int) (warm.length * 0.9)] / 1e3);
    }
}
