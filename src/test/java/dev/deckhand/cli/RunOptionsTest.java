package dev.deckhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.ToolLimits;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("pure")
class RunOptionsTest {

    @Test
    void readsEveryFlag() {
        RunOptions o = RunOptions.parse(List.of(
                "--instruction",
                "save it",
                "--window",
                "0x3a00007",
                "--verifier",
                "{}",
                "--steps",
                "[]",
                "--max-steps",
                "7",
                "--timeout",
                "30",
                "--json"));
        assertEquals("save it", o.instruction());
        assertEquals(0x3a00007L, o.windowId().getAsLong());
        assertEquals(Optional.empty(), o.app());
        assertEquals(Optional.of("{}"), o.verifierJson());
        assertEquals(Optional.of("[]"), o.stepsJson());
        assertEquals(Optional.of(7), o.maxSteps());
        assertEquals(Optional.of(30), o.timeoutSeconds());
        assertTrue(o.json());
        assertEquals(
                123L,
                RunOptions.parse(List.of("--instruction", "x", "--window", "123"))
                        .windowId()
                        .getAsLong());
        assertEquals(
                Optional.of("mousepad"),
                RunOptions.parse(List.of("--instruction", "x", "--app", "mousepad"))
                        .app());
    }

    @Test
    void everyUsageErrorNamesTheFlag() {
        record Bad(List<String> args, String names) {}
        for (Bad b : List.of(
                new Bad(List.of(), "--instruction"),
                new Bad(List.of("--instruction", "  ", "--app", "a"), "--instruction"),
                new Bad(List.of("--instruction", "x"), "--app"),
                new Bad(List.of("--instruction", "x", "--app", "a", "--window", "1"), "--window"),
                new Bad(List.of("--instruction", "x", "--window", "0xZZ"), "--window"),
                new Bad(List.of("--instruction", "x", "--window", "0"), "--window"),
                new Bad(List.of("--instruction", "x", "--app", "a", "--max-steps", "0"), "--max-steps"),
                new Bad(List.of("--instruction", "x", "--app", "a", "--timeout", "soon"), "--timeout"),
                new Bad(List.of("--instruction", "x", "--app", "a", "--app", "b"), "--app"),
                new Bad(List.of("--instruction", "x", "--app"), "--app"),
                new Bad(List.of("--instruction", "x", "--app", "a", "--model", "gpt"), "--model"),
                new Bad(List.of("--instruction", "x", "--app", "a", "stray"), "stray"))) {
            RunOptions.UsageException e =
                    assertThrows(RunOptions.UsageException.class, () -> RunOptions.parse(b.args()), b.args()::toString);
            assertTrue(e.getMessage().contains(b.names()), e.getMessage());
        }
    }

    /** The flags take the computer tool's limits ({@link ToolLimits}), the same the MCP arguments are read with. */
    @Test
    void theFlagsTakeTheToolsLimits() {
        List<String> base = List.of("--instruction", "x", "--app", "a");
        java.util.function.Function<List<String>, RunOptions> with = extra -> {
            List<String> all = new java.util.ArrayList<>(base);
            all.addAll(extra);
            return RunOptions.parse(all);
        };
        assertEquals(
                Optional.of(ToolLimits.MAX_MAX_STEPS),
                with.apply(List.of("--max-steps", Integer.toString(ToolLimits.MAX_MAX_STEPS)))
                        .maxSteps());
        assertEquals(
                Optional.of(ToolLimits.MAX_TIMEOUT_SECONDS),
                with.apply(List.of("--timeout", Integer.toString(ToolLimits.MAX_TIMEOUT_SECONDS)))
                        .timeoutSeconds());
        RunOptions.UsageException steps = assertThrows(
                RunOptions.UsageException.class,
                () -> with.apply(List.of("--max-steps", Integer.toString(ToolLimits.MAX_MAX_STEPS + 1))));
        assertTrue(
                steps.getMessage()
                        .contains("--max-steps needs a positive integer (1.." + ToolLimits.MAX_MAX_STEPS + ")"),
                steps.getMessage());
        RunOptions.UsageException timeout = assertThrows(
                RunOptions.UsageException.class,
                () -> with.apply(List.of("--timeout", Integer.toString(ToolLimits.MAX_TIMEOUT_SECONDS + 1))));
        assertTrue(
                timeout.getMessage()
                        .contains("--timeout needs a positive integer (1.." + ToolLimits.MAX_TIMEOUT_SECONDS + ")"),
                timeout.getMessage());
        RunOptions.UsageException instruction = assertThrows(
                RunOptions.UsageException.class,
                () -> RunOptions.parse(
                        List.of("--instruction", "a".repeat(ToolLimits.MAX_INSTRUCTION + 1), "--app", "a")));
        assertTrue(
                instruction.getMessage().startsWith("--instruction must be at most " + ToolLimits.MAX_INSTRUCTION),
                instruction.getMessage());
    }
}
