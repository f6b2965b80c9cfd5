package dev.deckhand.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child JVM appends to one database and acknowledges each committed record on stdout; it is
 * killed with SIGKILL ({@link Process#destroyForcibly()}) at random moments, 200 times by default
 * ({@code -Ddeckhand.audit.crashKills=N}). After every kill the chain verifies and the head is at
 * or past the highest acknowledged seq; at the end every acknowledged record is present with the
 * content the child acknowledged.
 */
class AuditCrashTest {
    @TempDir
    Path dir;

    @Test
    void every_acknowledged_record_survives_sigkill_and_the_chain_verifies() throws Exception {
        int kills = Integer.getInteger("deckhand.audit.crashKills", 200);
        long seed = Long.getLong("deckhand.audit.crashSeed", System.nanoTime());
        Random random = new Random(seed);
        Path db = dir.resolve("audit.db");
        Path key = dir.resolve("audit.key");
        Path nativeDir = Files.createDirectories(dir.resolve("native"));
        Map<Long, String> acked = new ConcurrentHashMap<>();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        int killedBeforeReady = 0;
        long maxAcked = 0;

        List<String> jvm = childJvm(java, nativeDir);
        // One clean run first: it writes a class-data archive that makes the 200 start-ups cheaper.
        Path jsa = dir.resolve("child.jsa");
        List<String> warm = new ArrayList<>(jvm);
        warm.add("-XX:ArchiveClassesAtExit=" + jsa);
        Process w = command(warm, db, key, "0", "5").redirectErrorStream(true).start();
        String warmOut = new String(w.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(w.waitFor(120, TimeUnit.SECONDS), "warm-up child did not finish");
        w.getOutputStream().close();
        assertTrue(warmOut.contains("finished"), warmOut);
        for (String line : warmOut.split("\n")) {
            if (line.startsWith("ack ")) {
                String[] parts = line.split(" ");
                acked.put(Long.parseLong(parts[1]), parts[2]);
            }
        }
        if (Files.isRegularFile(jsa)) {
            jvm.add("-XX:SharedArchiveFile=" + jsa);
        }

        for (int k = 1; k <= kills; k++) {
            ProcessBuilder pb = command(jvm, db, key, Integer.toString(k), null);
            pb.redirectError(dir.resolve("child-stderr.txt").toFile());
            Process p = pb.start();
            CountDownLatch ready = new CountDownLatch(1);
            List<String> protocolErrors = new ArrayList<>();
            Thread reader = new Thread(() -> read(p, ready, acked, protocolErrors), "crash-reader-" + k);
            reader.start();
            boolean early = random.nextInt(10) == 0;
            if (early) {
                // somewhere in start-up, schema creation or WAL recovery
                Thread.sleep(random.nextInt(400));
                killedBeforeReady += ready.getCount() == 1 ? 1 : 0;
            } else {
                assertTrue(ready.await(60, TimeUnit.SECONDS), "child " + k + " did not start: " + stderr());
                Thread.sleep(random.nextInt(120));
            }
            p.destroyForcibly();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "child " + k + " did not die");
            reader.join(10_000);
            p.getOutputStream().close();
            assertEquals(List.of(), protocolErrors, "child " + k);
            assertFalse(p.exitValue() == 0, "child " + k + " finished instead of being killed");

            for (long s : acked.keySet()) {
                maxAcked = Math.max(maxAcked, s);
            }
            VerifyResult r = AuditVerifier.verify(db, key);
            assertTrue(r.ok(), "after kill " + k + " (seed " + seed + "): " + r.describe());
            assertTrue(r.headSeq() >= maxAcked, "after kill " + k + ": head " + r.headSeq()
                    + " is behind acknowledged seq " + maxAcked + " (seed " + seed + ")");
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
        System.out.printf("crash test: %d kills (%d before ready), %d acknowledged records, head %d, seed %d%n",
                kills, killedBeforeReady, acked.size(), AuditVerifier.verify(db, key).headSeq(), seed);
        assertEquals(0, missing, "acknowledged records missing or different (seed " + seed + ")");
        // On a loaded machine many children die before their first commit; a quarter still shows the
        // kills landed mid-write often enough to mean something.
        assertTrue(acked.size() >= kills / 4, "the children acknowledged too few records to mean anything: " + acked.size());
    }

    /** JVM options for a quick start; the native library is unpacked once, not once per child. */
    private static List<String> childJvm(String java, Path nativeDir) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xss512k",
                "-Xshare:auto", "-Dorg.sqlite.tmpdir=" + nativeDir));
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
        cmd.addAll(List.of("-cp", childClassPath(), CrashAppender.class.getName(),
                db.toString(), key.toString(), "7", tag));
        if (maxAppends != null) {
            cmd.add(maxAppends);
        }
        return new ProcessBuilder(cmd);
    }

    /**
     * The test class path cut down to what the child loads (test classes, main classes, the
     * scope-grant module, sqlite-jdbc): fewer jars to search makes each of the 200 start-ups
     * cheaper. Falls back to the whole {@code java.class.path} if a location is unknown.
     */
    private static String childClassPath() {
        List<String> parts = new ArrayList<>();
        for (Class<?> c : List.of(CrashAppender.class, AuditStore.class, dev.deckhand.grant.RefusalCode.class, org.sqlite.JDBC.class)) {
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
