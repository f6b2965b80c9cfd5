package dev.deckhand.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.loop.Outcome;
import dev.deckhand.loop.RunResult;
import dev.deckhand.loop.verify.Verdict;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("pure")
class ExitCodeTest {

    private static RunResult result(Outcome.Kind kind, Verdict verdict, RefusalCode code) {
        Outcome outcome = code != null
                ? Outcome.refused(Refusal.of(code, "detail"))
                : kind == Outcome.Kind.COMPLETED ? Outcome.completed("summary") : Outcome.timedOut("summary");
        return new RunResult("run-1", outcome, verdict, 0, "summary", Optional.empty(), "d");
    }

    @Test
    void everyRefusalCodeHasItsDocumentedExitCode() {
        Map<RefusalCode, Integer> special = new EnumMap<>(RefusalCode.class);
        special.put(RefusalCode.DENY_CREDENTIAL_APP, 2);
        special.put(RefusalCode.DENY_COMMS_VISIBLE, 2);
        special.put(RefusalCode.DENY_HOST, 2);
        special.put(RefusalCode.DENY_PATH, 2);
        special.put(RefusalCode.CONFIG_MISSING, 2);
        special.put(RefusalCode.HEADLESS, 3);
        special.put(RefusalCode.PLATFORM_UNSUPPORTED, 3);
        special.put(RefusalCode.WAYLAND_INPUT_UNSUPPORTED, 3);
        special.put(RefusalCode.PREFLIGHT_FAILED, 4);
        special.put(RefusalCode.A11Y_UNAVAILABLE, 4);
        special.put(RefusalCode.NO_VERIFIER, 5);
        special.put(RefusalCode.SECRET_ON_SCREEN, 6);
        for (RefusalCode code : RefusalCode.values()) {
            int expected = special.getOrDefault(code, 1);
            assertEquals(expected, ExitCode.of(result(Outcome.Kind.REFUSED, Verdict.NONE, code)), code.name());
            assertEquals(expected, ExitCode.of(result(Outcome.Kind.REFUSED, Verdict.FAIL, code)), code.name());
        }
    }

    @Test
    void thePassingVerdictAloneMeansZero() {
        assertEquals(0, ExitCode.of(result(Outcome.Kind.COMPLETED, Verdict.PASS, null)));
        assertEquals(
                0,
                ExitCode.of(result(Outcome.Kind.REFUSED, Verdict.PASS, RefusalCode.DENY_COMMS_VISIBLE)),
                "the verifier, not the way the run ended, decides success");
        assertEquals(1, ExitCode.of(result(Outcome.Kind.COMPLETED, Verdict.FAIL, null)));
        assertEquals(1, ExitCode.of(result(Outcome.Kind.COMPLETED, Verdict.NONE, null)), "no verdict is not a pass");
        assertEquals(1, ExitCode.of(result(Outcome.Kind.TIMED_OUT, Verdict.FAIL, null)));
    }
}
