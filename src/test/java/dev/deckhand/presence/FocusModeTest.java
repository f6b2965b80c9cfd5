package dev.deckhand.presence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Focus logic against a recording fake daemon: checked rather than assumed, restored, bounded. */
@Tag("pure")
class FocusModeTest {

    /** A fake notification daemon per flavour name: whether it runs and its state. */
    static final class FakeDaemons implements CommandRunner {
        final Map<String, String> state = new HashMap<>();
        final Map<String, Boolean> running = new HashMap<>();
        final List<String> calls = new ArrayList<>();
        boolean ignoreSets;

        @Override
        public Result run(List<String> argv, Duration bound) {
            calls.add(String.join(" ", argv));
            String name = argv.get(1);
            switch (argv.get(0)) {
                case "check":
                    return new Result(0, running.getOrDefault(name, false) ? "boolean true" : "boolean false");
                case "get":
                    return state.containsKey(name)
                            ? new Result(0, state.get(name) + "\n")
                            : new Result(1, "no such daemon");
                case "set":
                    if (!ignoreSets) state.put(name, argv.get(2));
                    return new Result(0, "");
                default:
                    throw new AssertionError(argv);
            }
        }
    }

    static FocusMode.Flavour flavour(String name, String silenced) {
        return new FocusMode.Flavour(
                name,
                List.of("check", name),
                "boolean true",
                List.of("get", name),
                silenced,
                List.of("set", name, "{state}"));
    }

    @Test
    void silencesOnlyRunningDaemonsAndRestoresWhatWasThere() {
        FakeDaemons d = new FakeDaemons();
        d.running.put("dunst", true);
        d.state.put("dunst", "false");
        d.state.put("gnome", "true"); // its setting exists but GNOME Shell does not run: not touched
        FocusMode focus =
                new FocusMode(List.of(flavour("gnome", "false"), flavour("dunst", "true")), d, Duration.ofSeconds(1));
        FocusMode.Hold hold = focus.silence();
        assertEquals("true", d.state.get("dunst"));
        assertEquals("true", d.state.get("gnome"));
        assertTrue(d.calls.stream().noneMatch(c -> c.startsWith("set gnome")), d.calls::toString);
        hold.restore();
        hold.restore(); // idempotent
        assertEquals("false", d.state.get("dunst"));
        assertEquals(
                List.of("gnome: not running", "dunst: silenced (was false)", "dunst: restored false"), hold.events());
        assertEquals(
                1, d.calls.stream().filter(c -> c.equals("set dunst false")).count());
    }

    @Test
    void aDaemonTheUserAlreadySilencedIsLeftAlone() {
        FakeDaemons d = new FakeDaemons();
        d.running.put("dunst", true);
        d.state.put("dunst", "true");
        FocusMode.Hold hold = new FocusMode(List.of(flavour("dunst", "true")), d, Duration.ofSeconds(1)).silence();
        hold.restore();
        assertEquals("true", d.state.get("dunst"), "a run never un-silences what the person silenced");
        assertTrue(d.calls.stream().noneMatch(c -> c.startsWith("set")), d.calls::toString);
    }

    @Test
    void aSetThatDoesNotTakeIsReportedNotAssumed() {
        FakeDaemons d = new FakeDaemons();
        d.running.put("dunst", true);
        d.state.put("dunst", "false");
        d.ignoreSets = true;
        FocusMode.Hold hold = new FocusMode(List.of(flavour("dunst", "true")), d, Duration.ofSeconds(1)).silence();
        assertEquals(
                "dunst: silencing did not take (state reads false)",
                hold.events().get(0));
    }

    @Test
    void aHangingCommandIsEndedAtItsBound() {
        FocusMode.Flavour hanging =
                new FocusMode.Flavour("slow", List.of("sleep", "30"), "", List.of("true"), "x", List.of("true"));
        long t0 = System.nanoTime();
        FocusMode.Hold hold =
                new FocusMode(List.of(hanging), CommandRunner.PROCESSES, Duration.ofMillis(300)).silence();
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms < 2_000, "bounded: " + ms + " ms");
        assertEquals(List.of("slow: not running"), hold.events());
    }

    @Test
    void aMissingCommandMeansTheFlavourDoesNotApply() {
        FocusMode.Flavour missing = new FocusMode.Flavour(
                "none", List.of("/nonexistent/deckhand-check"), "", List.of("true"), "x", List.of("true"));
        assertEquals(
                List.of("none: not running"),
                new FocusMode(List.of(missing), CommandRunner.PROCESSES, Duration.ofSeconds(1))
                        .silence()
                        .events());
    }

    @Test
    void aDaemonFoundNotRunningIsNotAskedAgainWithinTheWindowAndIsSilencedOnceItRunsAfterIt() {
        FakeDaemons d = new FakeDaemons();
        dev.deckhand.MutableClock clock =
                new dev.deckhand.MutableClock(java.time.Instant.parse("2026-12-01T12:00:00Z"));
        FocusMode.Absences absences = new FocusMode.Absences(clock, Duration.ofSeconds(5));
        FocusMode focus = new FocusMode(List.of(flavour("dunst", "true")), d, Duration.ofSeconds(1), absences);
        focus.silence().restore();
        assertEquals(List.of("check dunst"), d.calls, "asked once");
        d.running.put("dunst", true);
        d.state.put("dunst", "false");
        clock.advance(Duration.ofSeconds(4));
        FocusMode.Hold hold = focus.silence();
        assertEquals(List.of("check dunst"), d.calls, "not asked again 4 s later: " + hold.events());
        assertEquals(List.of("dunst: not running (as a recent check found)"), hold.events());
        clock.advance(Duration.ofSeconds(2));
        hold = focus.silence();
        assertEquals(
                "true",
                d.state.get("dunst"),
                "asked again after the window, found running and silenced: " + hold.events());
        hold.restore();
        assertEquals("false", d.state.get("dunst"));
        d.calls.clear();
        focus.silence().restore();
        assertTrue(d.calls.contains("check dunst"), "a running daemon is asked every run: " + d.calls);
    }
}
