package dev.deckhand.loop.fakes;

import dev.deckhand.loop.Decider;
import dev.deckhand.loop.DecisionRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Answers from a script, one entry per call, and records every request. An entry may do something
 * first (move the clock, bump the revision, press Stop). When the script runs out it says fail.
 */
public final class ScriptedDecider implements Decider {

    private final List<Function<DecisionRequest, String>> script = new ArrayList<>();
    private final List<DecisionRequest> requests = new ArrayList<>();

    public static ScriptedDecider of(String... outputs) {
        ScriptedDecider d = new ScriptedDecider();
        for (String o : outputs) d.then(o);
        return d;
    }

    public ScriptedDecider then(String output) {
        script.add(r -> output);
        return this;
    }

    public ScriptedDecider then(Function<DecisionRequest, String> step) {
        script.add(step);
        return this;
    }

    /** Repeats {@code output} for {@code times} more calls. */
    public ScriptedDecider repeat(String output, int times) {
        for (int i = 0; i < times; i++) then(output);
        return this;
    }

    public List<DecisionRequest> requests() {
        return List.copyOf(requests);
    }

    @Override
    public String decide(DecisionRequest request) {
        int i = requests.size();
        requests.add(request);
        if (i >= script.size()) return "{\"action\": \"fail\", \"reason\": \"script exhausted\"}";
        return script.get(i).apply(request);
    }
}
