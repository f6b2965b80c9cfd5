package dev.deckhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RunOptionsTest {

    @Test
    void readsEveryFlag() {
        RunOptions o = RunOptions.parse(List.of("--instruction", "save it", "--window", "0x3a00007", "--verifier", "{}",
                "--steps", "[]", "--max-steps", "7", "--timeout", "30", "--json"));
        assertEquals("save it", o.instruction());
        assertEquals(0x3a00007L, o.windowId().getAsLong());
        assertEquals(Optional.empty(), o.app());
        assertEquals(Optional.of("{}"), o.verifierJson());
        assertEquals(Optional.of("[]"), o.stepsJson());
        assertEquals(Optional.of(7), o.maxSteps());
        assertEquals(Optional.of(30), o.timeoutSeconds());
        assertTrue(o.json());
        assertEquals(123L, RunOptions.parse(List.of("--instruction", "x", "--window", "123")).windowId().getAsLong());
        assertEquals(Optional.of("mousepad"), RunOptions.parse(List.of("--instruction", "x", "--app", "mousepad")).app());
    }

    @Test
    void everyUsageErrorNamesTheFlag() {
        record Bad(List<String> args, String names) { }
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
            RunOptions.UsageException e = assertThrows(RunOptions.UsageException.class, () -> RunOptions.parse(b.args()),
                    b.args()::toString);
            assertTrue(e.getMessage().contains(b.names()), e.getMessage());
        }
    }
}
