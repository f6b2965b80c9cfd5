package dev.deckhand.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.run.TrailCrashChild;
import dev.deckhand.run.TrailCrashChild.Event;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child JVM appends to one database and acknowledges each committed record on stdout; it is
 * killed with SIGKILL ({@link Process#destroyForcibly()}) at random moments, 120 times by default
 * ({@code -Ddeckhand.audit.crashKills=N}). After every kill the chain verifies and the head is at
 * or past the highest acknowledged seq; at the end every acknowledged record is present with the
 * content the child acknowledged.
 */
@Tag("app")
class AuditCrashTest {
    @TempDir
    Path dir;

    @Test
    void every_acknowledged_record_survives_sigkill_and_the_chain_verifies() throws Exception {
        int kills = Integer.getInteger("deckhand.audit.crashKills", 120);
        long seed = Long.getLong("deckhand.audit.crashSeed", System.nanoTime());
        Random random = new Random(seed);
        Path db = dir.resolve("audit.db");
        Path key = dir.resolve("audit.key");
        Path nativeDir = Files.createDirectories(dir.resolve("native"));
        Map<Long, String> acked = new ConcurrentHashMap<>();
        int killedBeforeReady = 0;
        long maxAcked = 0;

        List<String> jvm = childJvm(nativeDir);
        // One clean run first: it writes a class-data archive that makes the start-ups cheaper.
        String warmOut = warmUp(jvm, dir.resolve("child.jsa"), warm -> command(warm, db, key, "0", "5"));
        for (String line : warmOut.split("\n")) {
            if (line.startsWith("ack ")) {
                String[] parts = line.split(" ");
                acked.put(Long.parseLong(parts[1]), parts[2]);
            }
        }

        for (int k = 1; k <= kills; k++) {
            killedBeforeReady += killAtRandom(
                            command(jvm, db, key, Integer.toString(k), null),
                            k,
                            random,
                            120,
                            (p, ready, errors) -> read(p, ready, acked, errors))
                    ? 1
                    : 0;

            for (long s : acked.keySet()) {
                maxAcked = Math.max(maxAcked, s);
            }
            VerifyResult r = AuditVerifier.verify(db, key);
            assertTrue(r.ok(), "after kill " + k + " (seed " + seed + "): " + r.describe());
            assertTrue(
                    r.headSeq() >= maxAcked,
                    "after kill " + k + ": head " + r.headSeq() + " is behind acknowledged seq " + maxAcked + " (seed "
                            + seed + ")");
        }

        int missing = 0;
        try (Connection c = AuditStore.connect(db);
                PreparedStatement ps = c.prepareStatement("SELECT run_id FROM audit_record WHERE seq = ?")) {
            for (Map.Entry<Long, String> e : acked.entrySet()) {
                ps.setLong(1, e.getKey());
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next() || !e.getValue().equals(rs.getString(1))) {
                        missing++;
                    }
                }
            }
        }
        System.out.printf(
                "crash test: %d kills (%d before ready), %d acknowledged records, head %d, seed %d%n",
                kills,
                killedBeforeReady,
                acked.size(),
                AuditVerifier.verify(db, key).headSeq(),
                seed);
        assertEquals(0, missing, "acknowledged records missing or different (seed " + seed + ")");
        // On a loaded machine many children die before their first commit; a quarter still shows the
        // kills landed mid-write often enough to mean something.
        assertTrue(
                acked.size() >= kills / 4,
                "the children acknowledged too few records to mean anything: " + acked.size());
    }

    /**
     * The batched trail (docs/audit.md#one-commit-per-step): a child drives {@link dev.deckhand.run.AuditTrail}, which commits an
     * action's result only with the next record, acting between {@code intent()} and {@code result()} by
     * appending to a side file with fsync. Killed at random 50 times
     * ({@code -Ddeckhand.audit.trailCrashKills=N}); after every kill the chain verifies, the child's
     * records are a prefix of its program in order, every acknowledged record is there, every action that
     * reached the side file has its intent in the database, and at most the last action's result is gone.
     */
    @Test
    void a_step_shares_one_commit_and_every_action_has_its_intent_durable_before_it() throws Exception {
        int kills = Integer.getInteger("deckhand.audit.trailCrashKills", 50);
        long seed = Long.getLong("deckhand.audit.crashSeed", System.nanoTime());
        Random random = new Random(seed);
        long started = System.nanoTime();
        Path db = dir.resolve("trail.db");
        Path key = dir.resolve("trail.key");
        List<String> jvm = childJvm(Files.createDirectories(dir.resolve("native")));
        warmUp(jvm, dir.resolve("trail.jsa"), warm -> trailCommand(warm, db, key, "w", "30"));
        assertEquals(TrailCrashChild.program("w", 30), durable(db, "w"), "a finished child left all of its program");

        int acked = 0;
        int acted = 0;
        int lostResults = 0;
        for (int k = 1; k <= kills; k++) {
            String tag = Integer.toString(k);
            List<Integer> acks = Collections.synchronizedList(new ArrayList<>());
            List<Integer> actedPrinted = Collections.synchronizedList(new ArrayList<>());
            killAtRandom(
                    trailCommand(jvm, db, key, tag, null),
                    k,
                    random,
                    150,
                    (p, ready, errors) -> readTrail(p, ready, acks, actedPrinted, errors));

            String at = "after kill " + k + " (seed " + seed + ")";
            VerifyResult r = AuditVerifier.verify(db, key);
            assertTrue(r.ok(), at + ": " + r.describe());
            List<Event> rows = durable(db, tag);
            List<Integer> effects = sideLines(dir.resolve("side-" + tag + ".txt"));
            int lastEffect = effects.isEmpty() ? 0 : effects.get(effects.size() - 1);
            List<Event> program = TrailCrashChild.program(tag, Math.max(rows.size(), lastEffect) + 10);
            assertEquals(
                    program.subList(0, rows.size()),
                    rows,
                    at + ": the child's records are its program's events in order");
            int lastAck = acks.stream().mapToInt(Integer::intValue).max().orElse(-1);
            assertTrue(
                    lastAck < rows.size(),
                    at + ": event " + lastAck + " was acknowledged, " + rows.size() + " are durable");
            assertTrue(effects.containsAll(actedPrinted), at + ": acted " + actedPrinted + ", on disk " + effects);
            int missing = 0;
            for (int i : effects) {
                assertTrue(
                        i < rows.size(),
                        at + ": action " + program.get(i).label() + " acted without its intent durable");
                if (resultOf(program, i) >= rows.size()) {
                    missing++;
                    assertEquals(lastEffect, i, at + ": the result of an action before the last is gone");
                }
            }
            acked += acks.size();
            acted += effects.size();
            lostResults += missing;
        }
        System.out.printf(
                "trail crash test: %d kills, %d acknowledged records, %d actions, %d last results lost, "
                        + "head %d, %.1f s, seed %d%n",
                kills,
                acked,
                acted,
                lostResults,
                AuditVerifier.verify(db, key).headSeq(),
                (System.nanoTime() - started) / 1e9,
                seed);
        assertTrue(acted >= kills / 4, "the children acted too little to mean anything: " + acted);
    }

    /** The index of the result of the intent at {@code intent}, later in the program. */
    private static int resultOf(List<Event> program, int intent) {
        var i = program.get(intent);
        for (int j = intent + 1; j < program.size(); j++) {
            var e = program.get(j);
            if (e.kind().equals("result") && e.runId().equals(i.runId()) && e.step() == i.step()) return j;
        }
        return program.size();
    }

    /** The child's records in the database, in seq order, as program events. */
    private static List<Event> durable(Path db, String tag) throws SQLException {
        List<Event> events = new ArrayList<>();
        try (Connection c = AuditStore.connect(db);
                PreparedStatement ps = c.prepareStatement(
                        "SELECT kind, run_id, step, outcome, event FROM audit_record WHERE run_id LIKE ? ORDER BY seq")) {
            ps.setString(1, "t" + tag + "-%");
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String kind = rs.getString(1);
                    String runId = rs.getString(2);
                    events.add(
                            switch (kind) {
                                case "ACTION_INTENT" -> new Event("intent", runId, rs.getInt(3), "click");
                                case "ACTION_RESULT" -> new Event("result", runId, rs.getInt(3), rs.getString(4));
                                case "APPROVAL" -> new Event("approval", runId, 0, rs.getString(5));
                                case "RUN" -> new Event("run", runId, 0, rs.getString(4));
                                default -> throw new AssertionError(kind);
                            });
                }
            }
        }
        return events;
    }

    /** The complete lines of a side file (a line cut by the kill has not happened). */
    private static List<Integer> sideLines(Path side) throws IOException {
        if (!Files.exists(side)) return List.of();
        String text = Files.readString(side, StandardCharsets.US_ASCII);
        List<Integer> lines = new ArrayList<>();
        int end = text.lastIndexOf('\n');
        for (String l : text.substring(0, end + 1).split("\n")) {
            if (!l.isEmpty()) lines.add(Integer.parseInt(l));
        }
        return lines;
    }

    private ProcessBuilder trailCommand(List<String> jvm, Path db, Path key, String tag, String events) {
        List<String> cmd = new ArrayList<>(jvm);
        cmd.addAll(List.of(
                "-cp",
                childClassPath(),
                TrailCrashChild.class.getName(),
                db.toString(),
                key.toString(),
                "7",
                tag,
                dir.resolve("side-" + tag + ".txt").toString()));
        if (events != null) {
            cmd.add(events);
        }
        return new ProcessBuilder(cmd);
    }

    private static void readTrail(
            Process p, CountDownLatch ready, List<Integer> acks, List<Integer> acted, List<String> errors) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                String[] parts = line.split(" ");
                if (line.startsWith("ready ")) {
                    ready.countDown();
                } else if (parts.length == 2 && parts[0].equals("ack")) {
                    acks.add(Integer.parseInt(parts[1]));
                } else if (parts.length == 2 && parts[0].equals("acted")) {
                    acted.add(Integer.parseInt(parts[1]));
                } else if (!line.isEmpty()) {
                    errors.add("unexpected line: " + line);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // the pipe broke with the kill; what was read before counts
        }
    }

    /** Reads a child's stdout until it closes: counts {@code ready} down, adds what it cannot read to the errors. */
    private interface ChildReader {
        void read(Process p, CountDownLatch ready, List<String> errors);
    }

    /**
     * One clean run of a child (its {@code command} for the given JVM options), which writes a class-data
     * archive that later start-ups share ({@code jvm} gains it); returns the child's output.
     */
    private static String warmUp(List<String> jvm, Path jsa, Function<List<String>, ProcessBuilder> command)
            throws Exception {
        List<String> warm = new ArrayList<>(jvm);
        warm.add("-XX:ArchiveClassesAtExit=" + jsa);
        Process w = command.apply(warm).redirectErrorStream(true).start();
        String out = new String(w.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(w.waitFor(120, TimeUnit.SECONDS), "warm-up child did not finish");
        w.getOutputStream().close();
        assertTrue(out.contains("finished"), out);
        if (Files.isRegularFile(jsa)) {
            jvm.add("-XX:SharedArchiveFile=" + jsa);
        }
        return out;
    }

    /**
     * Starts child {@code k} and kills it with SIGKILL at a random moment: one time in ten somewhere in
     * start-up (schema creation, WAL recovery), else 0..{@code afterReadyMillis} ms after it printed
     * {@code ready}. Checks that it died killed and printed nothing but its protocol.
     *
     * @return whether it was killed before it was ready
     */
    private boolean killAtRandom(ProcessBuilder pb, int k, Random random, int afterReadyMillis, ChildReader output)
            throws Exception {
        pb.redirectError(dir.resolve("child-stderr.txt").toFile());
        Process p = pb.start();
        CountDownLatch ready = new CountDownLatch(1);
        List<String> protocolErrors = Collections.synchronizedList(new ArrayList<>());
        Thread reader = new Thread(() -> output.read(p, ready, protocolErrors), "crash-reader-" + k);
        reader.start();
        boolean beforeReady = false;
        if (random.nextInt(10) == 0) {
            Thread.sleep(random.nextInt(400));
            beforeReady = ready.getCount() == 1;
        } else {
            assertTrue(ready.await(60, TimeUnit.SECONDS), "child " + k + " did not start: " + stderr());
            Thread.sleep(random.nextInt(afterReadyMillis));
        }
        p.destroyForcibly();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "child " + k + " did not die");
        reader.join(10_000);
        p.getOutputStream().close();
        assertEquals(List.of(), protocolErrors, "child " + k);
        assertFalse(p.exitValue() == 0, "child " + k + " finished instead of being killed");
        return beforeReady;
    }

    /** JVM options for a quick start; the native library is unpacked once, not once per child. */
    private static List<String> childJvm(Path nativeDir) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Xss512k",
                "-Xshare:auto",
                "-Dorg.sqlite.tmpdir=" + nativeDir));
        String resource = "/" + org.sqlite.util.OSInfo.getNativeLibFolderPathForCurrentOS() + "/libsqlitejdbc.so";
        try (var in = org.sqlite.JDBC.class.getResourceAsStream(resource)) {
            if (in != null) {
                Files.copy(in, nativeDir.resolve("libsqlitejdbc.so"));
                cmd.add("-Dorg.sqlite.lib.path=" + nativeDir);
                cmd.add("-Dorg.sqlite.lib.name=libsqlitejdbc.so");
            }
        }
        return cmd;
    }

    private static ProcessBuilder command(List<String> jvm, Path db, Path key, String tag, String maxAppends) {
        List<String> cmd = new ArrayList<>(jvm);
        cmd.addAll(List.of(
                "-cp", childClassPath(), CrashAppender.class.getName(), db.toString(), key.toString(), "7", tag));
        if (maxAppends != null) {
            cmd.add(maxAppends);
        }
        return new ProcessBuilder(cmd);
    }

    /**
     * The test class path cut down to what the children load (test classes, main classes, the
     * scope-grant and loop modules, sqlite-jdbc): fewer jars to search makes each of the 200 start-ups
     * cheaper. Falls back to the whole {@code java.class.path} if a location is unknown.
     */
    private static String childClassPath() {
        List<String> parts = new ArrayList<>();
        for (Class<?> c : List.of(
                CrashAppender.class,
                AuditStore.class,
                dev.deckhand.grant.RefusalCode.class,
                org.sqlite.JDBC.class,
                dev.deckhand.loop.AuditSink.class)) {
            var source = c.getProtectionDomain().getCodeSource();
            if (source == null) {
                return System.getProperty("java.class.path");
            }
            try {
                String p = Path.of(source.getLocation().toURI()).toString();
                if (!parts.contains(p)) {
                    parts.add(p);
                }
            } catch (java.net.URISyntaxException e) {
                return System.getProperty("java.class.path");
            }
        }
        return String.join(java.io.File.pathSeparator, parts);
    }

    private String stderr() {
        try {
            return Files.readString(dir.resolve("child-stderr.txt"));
        } catch (IOException e) {
            return "(no stderr)";
        }
    }

    private static void read(Process p, CountDownLatch ready, Map<Long, String> acked, List<String> errors) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("ready ")) {
                    ready.countDown();
                } else if (line.startsWith("ack ")) {
                    String[] parts = line.split(" ");
                    if (parts.length != 3) {
                        continue; // a line cut by the kill is not an acknowledgement
                    }
                    long seq = Long.parseLong(parts[1]);
                    String prior = acked.put(seq, parts[2]);
                    if (prior != null) {
                        errors.add("seq " + seq + " acknowledged twice: " + prior + " and " + parts[2]);
                    }
                } else if (!line.isEmpty()) {
                    errors.add("unexpected line: " + line);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // the pipe broke with the kill; what was read before counts
        }
    }
}
