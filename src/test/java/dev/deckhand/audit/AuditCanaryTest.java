package dev.deckhand.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusalCode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run types 100 distinct canary strings; none of them appears in the database, its WAL or
 * shared-memory file, any other file the store writes, the read-back API, or any log output
 * captured while it ran. A positive control (the run's instruction, which IS stored) shows the
 * scan would find stored text.
 */
@Tag("app")
class AuditCanaryTest {
    static final Instant T0 = Instant.parse("2026-11-29T20:00:00Z");

    @TempDir
    Path dir;

    @Test
    void typed_text_never_reaches_the_database_the_wal_or_the_logs() throws Exception {
        List<String> canaries = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            canaries.add("CANARY" + i + "x" + UUID.randomUUID().toString().replace("-", ""));
        }
        String instruction = "fill in the form for order INSTRUCTION-MARKER-" + UUID.randomUUID();

        List<String> logLines = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                Object[] params = r.getParameters();
                synchronized (logLines) {
                    logLines.add(r.getLoggerName() + " " + r.getMessage() + " "
                            + (params == null ? "" : java.util.Arrays.toString(params))
                            + (r.getThrown() == null ? "" : " " + r.getThrown()));
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger root = Logger.getLogger("");
        Level rootLevel = root.getLevel();
        root.addHandler(capture);
        root.setLevel(Level.ALL);
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        Path db = dir.resolve("audit.db");
        Path key = dir.resolve("keys/audit.key");
        StringBuilder readBack = new StringBuilder();
        List<Path> scannedWhileOpen = new ArrayList<>();
        try {
            Fixtures.MutableClock clock = new Fixtures.MutableClock(T0);
            try (AuditStore store = AuditStore.open(
                    db, key, AuditSettings.defaults().withSealEvery(25).withRetention(Duration.ofDays(365)), clock)) {
                store.append(Fixtures.mint("g-canary"));
                Instant start = clock.instant();
                for (int i = 0; i < canaries.size(); i++) {
                    String typed = canaries.get(i);
                    ActionTarget field = new ActionTarget("g-canary", 1, "0x1e00004", "yad", "text", "u" + i);
                    ActionKind kind = i % 2 == 0 ? ActionKind.SET_TEXT : ActionKind.TYPE;
                    // the audit API takes the typed text's length, never the text
                    ActionIntent intent = ActionIntent.typing("r-canary", i + 1, kind, field, typed.length());
                    store.append(intent);
                    if (i % 10 == 0) {
                        store.append(new ApprovalEvent(
                                ApprovalEvent.State.REQUESTED, "a" + i, "r-canary", "g-canary", 1, 1));
                        store.append(
                                new ApprovalEvent(ApprovalEvent.State.APPROVED, "a" + i, "r-canary", "g-canary", 1, 1));
                    }
                    clock.advance(Duration.ofMillis(150));
                    store.append(
                            i == 99
                                    ? ActionResult.refused(intent, RefusalCode.SECURE_INPUT)
                                    : ActionResult.of(intent, ActionOutcome.DONE));
                }
                store.append(new RunRecord(
                        "r-canary",
                        instruction,
                        "uid",
                        "g-canary",
                        100,
                        "a11y",
                        RunRecord.VerifierResult.PASS,
                        RunRecord.Verdict.PASS,
                        RunRecord.Outcome.COMPLETED,
                        null,
                        start,
                        clock.instant()));
                store.prune();

                AuditPage page = store.actions(
                        AuditQuery.builder().runId("r-canary").limit(1000).build());
                assertEquals(200, page.records().size());
                ActionIntent first = (ActionIntent)
                        page.records().get(page.records().size() - 1).event();
                assertEquals(canaries.get(0).length(), first.textLength());
                readBack.append(page)
                        .append(store.runs(AuditQuery.builder().build()))
                        .append(store.verify().describe());

                // scan while open: the WAL and shm exist now and hold the latest pages
                assertTrue(Files.exists(Path.of(db + "-wal")), "expected a WAL file while the store is open");
                for (Path f : filesUnder(dir)) {
                    scannedWhileOpen.add(f);
                    assertNoCanary(canaries, f.toString(), Files.readAllBytes(f));
                }
                assertTrue(
                        containsAny(List.of(instruction), bytesOf(db, Path.of(db + "-wal"))),
                        "positive control: the stored instruction must be found by the same scan");
            }
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
            root.removeHandler(capture);
            root.setLevel(rootLevel);
        }
        assertTrue(scannedWhileOpen.stream().anyMatch(p -> p.toString().endsWith("-shm")), scannedWhileOpen.toString());
        // and after close (WAL checkpointed into the main file)
        for (Path f : filesUnder(dir)) {
            assertNoCanary(canaries, f.toString(), Files.readAllBytes(f));
        }
        assertTrue(containsAny(List.of(instruction), Files.readAllBytes(db)), "positive control after close");
        assertNoCanary(canaries, "read-back API", readBack.toString().getBytes(StandardCharsets.UTF_8));
        assertNoCanary(canaries, "stdout", stdout.toByteArray());
        assertNoCanary(canaries, "stderr", stderr.toByteArray());
        String logs;
        synchronized (logLines) {
            logs = String.join("\n", logLines);
        }
        assertNoCanary(canaries, "log records", logs.getBytes(StandardCharsets.UTF_8));
        System.out.println("canary test: scanned " + scannedWhileOpen + ", " + logLines.size() + " log records, "
                + stdout.size() + "+" + stderr.size() + " bytes of stdout/stderr; loggers "
                + logLines.stream()
                        .map(l -> l.substring(0, l.indexOf(' ')))
                        .distinct()
                        .collect(Collectors.toList())
                + "; first: " + (logLines.isEmpty() ? "-" : logLines.get(0)));
    }

    private static List<Path> filesUnder(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).collect(Collectors.toList());
        }
    }

    private static byte[] bytesOf(Path... files) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Path f : files) {
            out.writeBytes(Files.readAllBytes(f));
        }
        return out.toByteArray();
    }

    private static boolean containsAny(List<String> needles, byte[] haystack) {
        String text = new String(haystack, StandardCharsets.ISO_8859_1);
        return needles.stream()
                .anyMatch(n ->
                        text.contains(new String(n.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1)));
    }

    private static void assertNoCanary(List<String> canaries, String where, byte[] bytes) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        // also look for a distinctive fragment, in case a store split or truncated the text
        for (String c : canaries) {
            String fragment = c.substring(c.indexOf('x') + 1, c.indexOf('x') + 13);
            assertTrue(!text.contains(c) && !text.contains(fragment), "canary " + c + " found in " + where);
        }
    }
}
