package dev.deckhand.loop.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.fakes.RecordingDesktop;
import dev.deckhand.loop.fakes.Trees;
import dev.deckhand.loop.json.WireFormatException;
import dev.deckhand.loop.steps.Selector;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("pure")
class VerifierTest {

    @Test
    void parsesTheWireShapes() {
        assertEquals(
                new VerifierSpec.A11y(Selector.ofRole("text", 0), VerifierSpec.A11yCheck.TEXT, "28"),
                VerifierSpec.parse(
                        "{\"kind\": \"a11y\", \"target\": {\"role\": \"text\", \"index\": 0}, \"expect\": {\"text\": \"28\"}}"));
        assertEquals(
                VerifierSpec.A11yCheck.TEXT_CONTAINS,
                ((VerifierSpec.A11y)
                                VerifierSpec.parse(
                                        "{\"kind\":\"a11y\",\"target\":{\"role\":\"label\"},\"expect\":{\"textContains\":\"8\"}}"))
                        .check());
        assertEquals(
                new VerifierSpec.Window("^Untitled"),
                VerifierSpec.parse("{\"kind\":\"window\",\"titleMatches\":\"^Untitled\"}"));
        assertEquals(
                new VerifierSpec.File("/tmp/a.txt", VerifierSpec.FileCheck.CONTAINS, "hi"),
                VerifierSpec.parse("{\"kind\":\"file\",\"path\":\"/tmp/a.txt\",\"contains\":\"hi\"}"));
        assertEquals(
                VerifierSpec.FileCheck.ABSENT,
                ((VerifierSpec.File) VerifierSpec.parse("{\"kind\":\"file\",\"path\":\"/tmp/a\",\"exists\":false}"))
                        .check());
        String hex = "AB".repeat(32);
        assertEquals(
                hex.toLowerCase(Locale.ROOT),
                ((VerifierSpec.File) VerifierSpec.parse(
                                "{\"kind\":\"file\",\"path\":\"/tmp/a\",\"sha256\":\"" + hex + "\"}"))
                        .operand());
        // Which paths may be read is the application's decision (OUT_OF_SCOPE before the run), not a parse error.
        assertEquals(
                "rel.txt",
                ((VerifierSpec.File) VerifierSpec.parse("{\"kind\":\"file\",\"path\":\"rel.txt\",\"exists\":true}"))
                        .path());
        assertEquals(
                new VerifierSpec.Command(List.of("test", "-s", "/tmp/a")),
                VerifierSpec.fromJson(Map.of("kind", "command", "argv", List.of("test", "-s", "/tmp/a"))));
    }

    @Test
    void refusesAnythingElse() {
        String[][] cases = {
            {
                "{\"kind\":\"shell\",\"cmd\":\"x\"}",
                "unknown verifier kind \"shell\"; expected a11y, window, file or command"
            },
            {"{\"titleMatches\":\"x\"}", "kind is required for verifier"},
            {"{\"kind\":\"window\",\"titleMatches\":\"(\"}", "titleMatches is not a valid regex for window verifier"},
            {"{\"kind\":\"window\",\"titleMatches\":\"x\",\"extra\":1}", "unknown field \"extra\" for window verifier"},
            {"{\"kind\":\"file\",\"path\":\"\",\"exists\":true}", "path must not be empty for file verifier"},
            {
                "{\"kind\":\"window\",\"titleMatches\":\"" + "a".repeat(VerifierSpec.MAX_TITLE_PATTERN + 1) + "\"}",
                "titleMatches must be at most 256 characters for window verifier"
            },
            {
                "{\"kind\":\"file\",\"path\":\"/a\"}",
                "exactly one of exists, contains, sha256 is required for file verifier"
            },
            {
                "{\"kind\":\"file\",\"path\":\"/a\",\"exists\":true,\"contains\":\"x\"}",
                "exactly one of exists, contains, sha256 is required for file verifier"
            },
            {
                "{\"kind\":\"file\",\"path\":\"/a\",\"sha256\":\"" + "z".repeat(64) + "\"}",
                "sha256 must be 64 hex digits for file verifier"
            },
            {"{\"kind\":\"file\",\"path\":\"/a\",\"exists\":\"yes\"}", "exists must be true or false for file verifier"
            },
            {"{\"kind\":\"command\",\"argv\":[]}", "argv must have at least 1 element(s) for command verifier"},
            {"{\"kind\":\"command\",\"argv\":[\"ls\", 3]}", "argv[1] must be a non-empty string for command verifier"},
            {
                "{\"kind\":\"a11y\",\"target\":{\"role\":\"text\"},\"expect\":{}}",
                "expect must have exactly one of text, textContains, value, state for a11y verifier"
            },
            {
                "{\"kind\":\"a11y\",\"target\":{\"role\":\"text\"},\"expect\":{\"text\":\"1\",\"value\":\"1\"}}",
                "expect must have exactly one of text, textContains, value, state for a11y verifier"
            },
            {"{\"kind\":\"a11y\",\"expect\":{\"text\":\"1\"}}", "target is required for a11y verifier"},
        };
        for (String[] c : cases) {
            assertEquals(
                    c[1],
                    assertThrows(WireFormatException.class, () -> VerifierSpec.parse(c[0]), c[0])
                            .getMessage());
        }
        for (String state : List.of("tickled", "!!checked", "!")) {
            String m = assertThrows(
                            WireFormatException.class,
                            () -> VerifierSpec.parse(
                                    "{\"kind\":\"a11y\",\"target\":{\"role\":\"check box\"},\"expect\":{\"state\":\""
                                            + state + "\"}}"))
                    .getMessage();
            assertTrue(
                    m.startsWith("expect.state must be one of [") && m.contains("checked") && m.contains("after !"), m);
        }
    }

    @Test
    void runnerReportsPassFailAndNone() {
        VerifierSpec spec = new VerifierSpec.Window("x");
        assertEquals(
                Verdict.PASS,
                new VerifierRunner(s -> VerifierResult.pass("ok"))
                        .run(Optional.of(spec))
                        .verdict());
        assertEquals(
                Verdict.FAIL,
                new VerifierRunner(s -> VerifierResult.fail("no"))
                        .run(Optional.of(spec))
                        .verdict());
        assertEquals(
                Verdict.NONE,
                new VerifierRunner(s -> {
                            throw new AssertionError("must not run");
                        })
                        .run(Optional.empty())
                        .verdict());
    }

    @Test
    void exceptionAndNullAreFail() {
        VerifierReport r = new VerifierRunner(s -> {
                    throw new IllegalStateException("bus gone");
                })
                .run(Optional.of(new VerifierSpec.Window("x")));
        assertEquals(Verdict.FAIL, r.verdict());
        assertTrue(r.detail().contains("IllegalStateException"), r.detail());
        assertFalse(r.detail().contains("bus gone"), "an exception's message may carry what was read: " + r.detail());
        VerifierReport refused = new VerifierRunner(s -> {
                    throw new RefusedException(Refusal.a11yUnavailable("app pid 7 exited"));
                })
                .run(Optional.of(new VerifierSpec.Window("x")));
        assertTrue(refused.detail().contains("A11Y_UNAVAILABLE (app pid 7 exited)"), refused.detail());
        assertEquals(
                Verdict.FAIL,
                new VerifierRunner(s -> null)
                        .run(Optional.of(new VerifierSpec.Window("x")))
                        .verdict());
    }

    @Test
    void timeoutIsFailAndTheVerifierIsInterrupted() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        Verifier hangs = s -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                interrupted.countDown();
            }
            return VerifierResult.pass("too late");
        };
        VerifierRunner runner = new VerifierRunner(hangs, Duration.ofMillis(50), r -> {
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        });
        VerifierReport report = runner.run(Optional.of(new VerifierSpec.Window("x")));
        assertEquals(Verdict.FAIL, report.verdict());
        assertTrue(report.detail().contains("timed out"), report.detail());
        interrupted.await(); // the hung verifier was cancelled, not left running
        assertEquals(Duration.ofSeconds(120), VerifierRunner.CAP);
    }

    @Test
    void aFailingA11yCheckIsReadAgainAfterTheAppSettlesAndPassesOnceTheAppCatchesUp() throws Exception {
        int[] snapshots = {0};
        // The app writes its result late: the first two readings still show the sum.
        RecordingDesktop desktop = new RecordingDesktop(
                rev -> Trees.calculator(RecordingDesktop.WINDOW, rev, ++snapshots[0] <= 2 ? "12×7" : "84"));
        DesktopVerifier v = new DesktopVerifier(
                desktop.desktop(), RecordingDesktop.WINDOW, () -> 1, s -> VerifierResult.fail("app's job"));
        VerifierResult r = v.verify(VerifierSpec.parse(
                "{\"kind\":\"a11y\",\"target\":{\"role\":\"text\",\"name\":\"Result\"},\"expect\":{\"text\":\"84\"}}"));
        assertTrue(r.passed(), r.detail());
        // the first reading may reuse the loop's last walk; a re-check after a settle reads the tree again
        assertEquals(List.of("latest snapshot 1", "settle", "snapshot 1", "settle", "snapshot 1"), desktop.calls());
    }

    @Test
    void aCheckThatNeverHoldsFailsWithItsLastReadingAfterBoundedRechecks() throws Exception {
        RecordingDesktop desktop = new RecordingDesktop(rev -> Trees.calculator(RecordingDesktop.WINDOW, rev, "85"));
        DesktopVerifier v = new DesktopVerifier(
                desktop.desktop(), RecordingDesktop.WINDOW, () -> 1, s -> VerifierResult.fail("app's job"));
        VerifierResult r = v.verify(VerifierSpec.parse(
                "{\"kind\":\"a11y\",\"target\":{\"role\":\"text\",\"name\":\"Result\"},\"expect\":{\"text\":\"84\"}}"));
        assertEquals(false, r.passed());
        assertEquals(
                "not: text named \"Result\" text (2 characters) equals the expected text (2 characters)", r.detail());
        assertEquals(
                DesktopVerifier.RECHECKS,
                desktop.calls().stream().filter(c -> c.startsWith("snapshot")).count());
        assertEquals("latest snapshot 1", desktop.calls().get(0));
        assertEquals(
                DesktopVerifier.RECHECKS,
                desktop.calls().stream().filter(c -> c.equals("settle")).count());
        assertEquals(
                "app's job", v.verify(new VerifierSpec.Command(List.of("true"))).detail(), "a command is not re-run");
    }

    @Test
    void noRecheckOnceTheRunMayNotWait() throws Exception {
        RecordingDesktop desktop = new RecordingDesktop(rev -> Trees.calculator(RecordingDesktop.WINDOW, rev, "85"));
        DesktopVerifier v = new DesktopVerifier(
                desktop.desktop(),
                RecordingDesktop.WINDOW,
                () -> 1,
                s -> VerifierResult.fail("app's job"),
                () -> false);
        assertEquals(false, v.verify(new VerifierSpec.Window("^Calc")).passed());
        assertEquals(
                List.of(),
                desktop.calls().stream().filter(c -> c.equals("settle")).collect(java.util.stream.Collectors.toList()),
                "a stopped run reads once");
    }

    /**
     * {@code (a+)+$} against an app-controlled title of 20,000 a's and a '!': Java's matcher tries every start
     * and backtracks through the rest from each (quadratic; 7.5 s here unbounded, 0.9 s for a 5,000-character
     * title). The match is stopped at {@link DesktopVerifier#REGEX_TIME_LIMIT} and the verifier
     * fails at once, without rechecks.
     */
    @Test
    void aCatastrophicTitleRegexEndsAtItsTimeLimitAsFail() throws Exception {
        RecordingDesktop desktop = new RecordingDesktop(rev -> Trees.calculator(RecordingDesktop.WINDOW, rev, "84"));
        desktop.window(new dev.deckhand.loop.desktop.WindowInfo(
                RecordingDesktop.WINDOW,
                "a".repeat(20_000) + "!",
                "app",
                1,
                RecordingDesktop.GEOMETRY,
                1,
                true,
                false,
                false));
        DesktopVerifier v = new DesktopVerifier(
                desktop.desktop(), RecordingDesktop.WINDOW, () -> 1, s -> VerifierResult.fail("host"));
        long t0 = System.nanoTime();
        VerifierResult r = v.verify(new VerifierSpec.Window("(a+)+$"));
        System.out.printf(
                "(a+)+$ on a 20,001-character title: stopped after %.0f ms (limit %d ms)%n",
                (System.nanoTime() - t0) / 1e6, DesktopVerifier.REGEX_TIME_LIMIT.toMillis());
        assertEquals(false, r.passed());
        assertTrue(r.detail().contains("limit of " + DesktopVerifier.REGEX_TIME_LIMIT.toMillis() + " ms"), r.detail());
        assertEquals(
                0, desktop.calls().stream().filter(c -> c.equals("settle")).count(), "a stopped match is not retried");
        assertTrue(
                v.verify(new VerifierSpec.Window("^a+!$")).passed(),
                "a benign pattern on the same title still matches");
    }

    @Test
    void anInterruptStopsAMatchToo() {
        Thread.currentThread().interrupt();
        try {
            BoundedText text = new BoundedText("a".repeat(40) + "!", Long.MAX_VALUE, () -> 0L);
            assertThrows(BoundedText.TimeLimitExceeded.class, () -> java.util.regex.Pattern.compile("(a+)+$")
                    .matcher(text)
                    .find());
        } finally {
            Thread.interrupted();
        }
    }

    /**
     * A verifier reports, it does not quote: whatever the granted window shows (an element's text or value, its
     * title) and whatever the caller expected reach the detail as lengths only, pass or fail, for every check.
     */
    @Test
    void noDetailQuotesTheWindowOrTheExpectedText() throws Exception {
        String marker = "marker-7f3a9c";
        String expected = "guess-b41e";
        RecordingDesktop desktop = new RecordingDesktop(rev -> Trees.calculator(RecordingDesktop.WINDOW, rev, marker));
        desktop.window(new dev.deckhand.loop.desktop.WindowInfo(
                RecordingDesktop.WINDOW,
                "title " + marker,
                "app",
                1,
                RecordingDesktop.GEOMETRY,
                1,
                true,
                false,
                false));
        DesktopVerifier v = new DesktopVerifier(
                desktop.desktop(), RecordingDesktop.WINDOW, () -> 1, s -> VerifierResult.fail("host"), () -> false);
        List<String> specs = List.of(
                "{\"kind\":\"a11y\",\"target\":{\"role\":\"text\"},\"expect\":{\"text\":\"" + expected + "\"}}",
                "{\"kind\":\"a11y\",\"target\":{\"role\":\"text\"},\"expect\":{\"textContains\":\"" + expected + "\"}}",
                "{\"kind\":\"a11y\",\"target\":{\"role\":\"text\"},\"expect\":{\"value\":\"" + expected + "\"}}",
                "{\"kind\":\"a11y\",\"target\":{\"role\":\"text\"},\"expect\":{\"text\":\"" + marker + "\"}}",
                "{\"kind\":\"window\",\"titleMatches\":\"" + expected + "\"}",
                "{\"kind\":\"window\",\"titleMatches\":\"" + marker + "\"}");
        for (String json : specs) {
            VerifierReport r = new VerifierRunner(v).run(Optional.of(VerifierSpec.parse(json)));
            assertFalse(r.detail().contains(marker) || r.detail().contains("7f3a9c"), json + " → " + r.detail());
            assertFalse(r.detail().contains(expected), json + " → " + r.detail());
            assertTrue(
                    r.detail().contains(marker.length() + " characters")
                            || r.detail().contains((6 + marker.length()) + " characters"),
                    "the detail counts what it read: " + r.detail());
        }
        assertEquals(
                "not: text text (13 characters) equals the expected text (10 characters)",
                v.verify(VerifierSpec.parse(specs.get(0))).detail());
        assertEquals(
                "text text (13 characters) equals the expected text (13 characters)",
                v.verify(VerifierSpec.parse(specs.get(3))).detail());
        assertEquals(
                "not: the window's title (19 characters) matches the titleMatches pattern (10 characters)",
                v.verify(VerifierSpec.parse(specs.get(4))).detail());
    }

    @Test
    void desktopVerifierChecksTheGrantedWindowOnly() throws Exception {
        RecordingDesktop desktop = new RecordingDesktop(rev -> Trees.calculator(RecordingDesktop.WINDOW, rev, "84"));
        DesktopVerifier v = new DesktopVerifier(
                desktop.desktop(), RecordingDesktop.WINDOW, () -> 1, s -> VerifierResult.fail("app's job"));
        assertTrue(v.verify(
                        VerifierSpec.parse(
                                "{\"kind\":\"a11y\",\"target\":{\"role\":\"text\",\"name\":\"Result\"},\"expect\":{\"text\":\"84\"}}"))
                .passed());
        assertTrue(v.verify(VerifierSpec.parse(
                        "{\"kind\":\"a11y\",\"target\":{\"role\":\"text\"},\"expect\":{\"value\":\"84\"}}"))
                .passed());
        VerifierResult wrong = v.verify(
                VerifierSpec.parse("{\"kind\":\"a11y\",\"target\":{\"role\":\"text\"},\"expect\":{\"text\":\"85\"}}"));
        assertEquals(false, wrong.passed());
        assertTrue(v.verify(
                        VerifierSpec.parse(
                                "{\"kind\":\"a11y\",\"target\":{\"role\":\"push button\",\"name\":\"=\"},\"expect\":{\"state\":\"enabled\"}}"))
                .passed());
        assertEquals(
                false,
                v.verify(
                                VerifierSpec.parse(
                                        "{\"kind\":\"a11y\",\"target\":{\"role\":\"push button\"},\"expect\":{\"state\":\"enabled\"}}"))
                        .passed(),
                "ambiguous selector fails, never guesses");
        assertTrue(v.verify(new VerifierSpec.Window("^Dia")).passed());
        assertEquals(false, v.verify(new VerifierSpec.Window("^Calc")).passed());
        assertEquals(
                "app's job", v.verify(new VerifierSpec.Command(List.of("true"))).detail());
    }

    @Test
    void aFileIsReadAgainUntilTheSaveLandsBounded() throws Exception {
        RecordingDesktop desktop = new RecordingDesktop(rev -> Trees.calculator(RecordingDesktop.WINDOW, rev, "84"));
        int[] reads = {0};
        DesktopVerifier v = new DesktopVerifier(
                desktop.desktop(),
                RecordingDesktop.WINDOW,
                () -> 1,
                s -> ++reads[0] < 3 ? VerifierResult.fail("not yet saved") : VerifierResult.pass("saved"));
        VerifierSpec file = VerifierSpec.parse("{\"kind\":\"file\",\"path\":\"/tmp/x.csv\",\"contains\":\"42\"}");
        VerifierResult r = v.verify(file);
        assertTrue(
                r.passed(),
                r.detail() + " after " + reads[0] + " reads; interrupted "
                        + Thread.currentThread().isInterrupted());
        assertEquals(3, reads[0], "read until it holds");
        int[] never = {0};
        DesktopVerifier w = new DesktopVerifier(desktop.desktop(), RecordingDesktop.WINDOW, () -> 1, s -> {
            never[0]++;
            return VerifierResult.fail("never saved");
        });
        assertEquals("never saved", w.verify(file).detail());
        assertEquals(DesktopVerifier.RECHECKS + 1, never[0], "bounded");
    }

    @Test
    void stateNamesOfTheDriverAndTheirAbsence() {
        dev.deckhand.loop.desktop.Node box = new dev.deckhand.loop.desktop.Node(
                "u1",
                1,
                "check box",
                "Bold",
                false,
                null,
                true,
                false,
                false,
                true,
                null,
                false,
                false,
                java.util.Set.of("checked", "focusable"));
        assertTrue(DesktopVerifier.state(box, "checked"));
        assertEquals(false, DesktopVerifier.state(box, "!checked"));
        assertTrue(DesktopVerifier.state(box, "!expanded"));
        assertTrue(DesktopVerifier.state(box, "enabled"));
        assertTrue(DesktopVerifier.state(box, "!disabled"));
        for (String name : VerifierSpec.STATES) {
            VerifierSpec.parse(
                    "{\"kind\":\"a11y\",\"target\":{\"role\":\"check box\"},\"expect\":{\"state\":\"!" + name + "\"}}");
        }
    }
}
