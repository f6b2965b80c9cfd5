package dev.deckhand.presence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Real processes through {@link CommandRunner#PROCESSES}. */
@Tag("pure")
class CommandRunnerTest {

    @Test
    void aCommandWritingMoreThanAPipeHoldsEndsNormallyWithItsOutputCapped() {
        // 1 MiB through the merged output: far past the 64 KiB a pipe holds before the writer blocks.
        CommandRunner.Result r = CommandRunner.PROCESSES.run(
                List.of("sh", "-c", "head -c 1048576 /dev/zero | tr '\\000' x; echo done >&2"), Duration.ofSeconds(20));
        assertEquals(
                0, r.exit(), "ended by itself, not at its bound: " + r.output().length() + " chars");
        assertEquals("x".repeat(CommandRunner.OUTPUT_CAP), r.output());
    }

    @Test
    void shortOutputAndErrorsAreKeptWhole() {
        CommandRunner.Result r = CommandRunner.PROCESSES.run(
                List.of("sh", "-c", "echo out; echo err >&2; exit 3"), Duration.ofSeconds(20));
        assertEquals(3, r.exit());
        assertTrue(r.output().contains("out\n") && r.output().contains("err\n"), r.output());
    }
}
