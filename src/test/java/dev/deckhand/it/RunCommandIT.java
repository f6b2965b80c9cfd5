package dev.deckhand.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.platform.atspi.TestApp;
import dev.deckhand.policy.PolicyDocument;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code deckhand run} (docs/contract.md#the-command-line) against the packaged application in a child
 * process: its exit codes, its one line on standard output, and a real run in mousepad under the
 * virtual desktop through the person's grant minted by the CLI.
 */
@Tag("e2e")
class RunCommandIT {

    private static final String FILE_VERIFIER =
            "{\"kind\":\"file\",\"path\":\"/tmp/deckhand-cli-never\",\"contains\":\"hi\"}";

    record Cli(int exit, String stdout, String stderr) {
        String why() {
            return "exit " + exit + "\nstdout: " + stdout + "\nstderr (tail): "
                    + stderr.substring(Math.max(0, stderr.length() - 3000));
        }
    }

    /** Runs {@code deckhand run ARGS} with its own config directory {@code home}; no HTTP port named (random). */
    static Cli cli(Path home, Set<String> unset, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("run"));
        all.addAll(List.of(args));
        Path out = Files.createTempFile(home, "stdout", ".txt");
        Path err = Files.createTempFile(home, "stderr", ".txt");
        ProcessBuilder pb = new ProcessBuilder(PackagedApp.command(all.toArray(String[]::new)))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        Map<String, String> env = pb.environment();
        env.put("DECKHAND_HOME", home.toString());
        env.remove("QUARKUS_HTTP_PORT");
        unset.forEach(env::remove);
        Process p = pb.start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("deckhand run did not end within 180 s: " + Files.readString(err));
        }
        return new Cli(
                p.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    static Path home() throws IOException {
        return Files.createTempDirectory("deckhand-cli-home");
    }

    private static void assertOneLine(Cli r) {
        assertEquals(1, r.stdout().lines().count(), () -> "standard output carries the result line only: " + r.why());
    }

    @Test
    void badUsageExits64WithTheUsage() throws Exception {
        Path home = home();
        for (String[] args : List.of(
                new String[] {},
                new String[] {"--instruction", "type hi"},
                new String[] {"--instruction", "type hi", "--app", "mousepad", "--window", "0x123"},
                new String[] {"--instruction", "type hi", "--app", "mousepad", "--max-steps", "zero"},
                new String[] {"--instruction", "type hi", "--app", "mousepad", "--frobnicate", "1"},
                new String[] {"--instruction", "type hi", "--app", "mousepad", "--verifier", "{not json"})) {
            Cli r = cli(home, Set.of("DISPLAY"), args);
            assertEquals(64, r.exit(), r::why);
            assertTrue(r.stderr().contains("usage: deckhand run"), r::why);
            assertEquals("", r.stdout(), r::why);
        }
    }

    @Test
    void anInputInstructionWithoutAVerifierExits5EvenWithTheDefaultPortBusy() throws Exception {
        ServerSocket busy = null;
        try {
            busy = new ServerSocket(8377, 1, InetAddress.getLoopbackAddress());
        } catch (IOException alreadyBusy) {
            // someone else holds 8377: busy either way
        }
        try {
            Cli r = cli(home(), Set.of("DISPLAY"), "--instruction", "type hello", "--app", "mousepad");
            assertEquals(5, r.exit(), r::why);
            assertTrue(r.stdout().contains("NO_VERIFIER"), r::why);
            assertOneLine(r);
        } finally {
            if (busy != null) busy.close();
        }
    }

    @Test
    void whileAServerHoldsTheConfigDirectoryItExits4AndForksNoAuditChain() throws Exception {
        try (PackagedApp server = PackagedApp.startHttp()) {
            Cli r = cli(
                    server.home,
                    Set.of(),
                    "--instruction",
                    "type hi",
                    "--app",
                    "mousepad",
                    "--verifier",
                    FILE_VERIFIER);
            assertEquals(4, r.exit(), r::why);
            assertTrue(r.stderr().contains("in use by another Deckhand process"), r::why);
        }
    }

    @Test
    void withoutADisplayItExits3NamingTheCause() throws Exception {
        Cli r = cli(
                home(),
                Set.of("DISPLAY", "WAYLAND_DISPLAY"),
                "--instruction",
                "type hi",
                "--app",
                "mousepad",
                "--verifier",
                FILE_VERIFIER);
        assertEquals(3, r.exit(), r::why);
        assertTrue(r.stdout().contains("HEADLESS") && r.stdout().contains("DISPLAY is not set"), r::why);
        assertOneLine(r);
    }

    @Test
    void aMissingOrInvalidPolicyFileExits2NamingTheFile() throws Exception {
        Path missing = home();
        Files.createFile(missing.resolve("audit.db"));
        Cli r = cli(missing, Set.of(), "--instruction", "type hi", "--app", "mousepad", "--verifier", FILE_VERIFIER);
        assertEquals(2, r.exit(), r::why);
        assertTrue(
                r.stdout().contains("CONFIG_MISSING")
                        && r.stdout().contains(missing.resolve("policy.json").toString()),
                r::why);

        Path invalid = home();
        Files.writeString(invalid.resolve("policy.json"), "{\"permissionMode\": \"ask\"");
        r = cli(
                invalid,
                Set.of(),
                "--json",
                "--instruction",
                "type hi",
                "--app",
                "mousepad",
                "--verifier",
                FILE_VERIFIER);
        assertEquals(2, r.exit(), r::why);
        JsonNode result = new ObjectMapper().readTree(r.stdout());
        assertEquals("refused", result.path("outcome").asText());
        assertEquals("CONFIG_MISSING", result.path("refusal").path("code").asText());
        assertTrue(
                result.path("refusal")
                        .path("detail")
                        .asText()
                        .contains(invalid.resolve("policy.json").toString()),
                r::why);
    }

    @Test
    void realRunsInMousepadExit0WhenTheVerifierPassesAnd1WhenItFails() throws Exception {
        TestApp.requireDesktop();
        Path home = home();
        PolicyDocument d = PolicyDocument.of(PolicyConfig.defaults());
        PolicyDocument acceptEdits = d.withPermissionMode("accept-edits");
        new ObjectMapper().writeValue(home.resolve("policy.json").toFile(), acceptEdits);
        Path file = Files.createTempDirectory("deckhand-cli-doc").resolve("note.txt");
        Files.writeString(file, "");
        String steps =
                "[{\"action\":\"set_text\",\"target\":{\"role\":\"text\",\"index\":0},\"text\":\"from the cli\"},"
                        + "{\"action\":\"key\",\"keys\":\"ctrl+s\"}]";
        try (TestApp editor = TestApp.launch(List.of("mousepad", file.toString()))) {
            Cli pass = whenReady(
                    home,
                    "--instruction",
                    "write 'from the cli' and save",
                    "--app",
                    "mousepad",
                    "--steps",
                    steps,
                    "--verifier",
                    verifier(file, "from the cli"));
            assertEquals(0, pass.exit(), pass::why);
            assertTrue(pass.stdout().contains("completed, verdict pass, 2 steps"), pass::why);
            assertOneLine(pass);
            assertTrue(
                    pass.stderr().contains("autonomous"),
                    () -> "accept-edits lets the CLI's grant be autonomous: " + pass.why());
            assertEquals("from the cli", Files.readString(file).strip());

            String window = visibleWindow("mousepad");
            Cli fail = whenReady(
                    home,
                    "--instruction",
                    "write 'from the cli' and save",
                    "--window",
                    window,
                    "--steps",
                    steps,
                    "--verifier",
                    verifier(file, "something else"));
            assertEquals(1, fail.exit(), fail::why);
            assertTrue(fail.stdout().contains("completed, verdict fail, 2 steps"), fail::why);
            assertTrue(fail.stderr().contains("window scope"), () -> "--window grants that one window: " + fail.why());
            assertOneLine(fail);
        }
    }

    /**
     * Permission mode {@code ask}: the CLI's grant is {@code confirm_each}, and its input waits for the
     * person's approval in the page of the CLI's own server (random port, read from the CLI's log).
     */
    @Test
    void inAskModeTheRunWaitsForTheApprovalInThePage() throws Exception {
        TestApp.requireDesktop();
        Path home = home();
        new ObjectMapper().writeValue(home.resolve("policy.json").toFile(), PolicyDocument.of(PolicyConfig.defaults()));
        Path file = Files.createTempDirectory("deckhand-cli-doc").resolve("note.txt");
        Files.writeString(file, "");
        String steps = "[{\"action\":\"set_text\",\"target\":{\"role\":\"text\",\"index\":0},\"text\":\"approved\"},"
                + "{\"action\":\"key\",\"keys\":\"ctrl+s\"}]";
        try (TestApp editor = TestApp.launch(List.of("mousepad", file.toString()))) {
            Cli r = null;
            int approved = 0;
            for (int attempt = 1; attempt <= 15; attempt++) {
                Path out = Files.createTempFile(home, "stdout", ".txt");
                Path err = Files.createTempFile(home, "stderr", ".txt");
                ProcessBuilder pb = new ProcessBuilder(PackagedApp.command(
                                "run",
                                "--instruction",
                                "write and save",
                                "--app",
                                "mousepad",
                                "--steps",
                                steps,
                                "--verifier",
                                verifier(file, "approved")))
                        .redirectOutput(out.toFile())
                        .redirectError(err.toFile());
                pb.environment().put("DECKHAND_HOME", home.toString());
                pb.environment().remove("QUARKUS_HTTP_PORT");
                Process p = pb.start();
                try {
                    approved += approveUntilExit(p, err, home);
                } finally {
                    if (p.isAlive()) p.destroyForcibly().waitFor();
                }
                r = new Cli(p.exitValue(), Files.readString(out), Files.readString(err));
                if (r.exit() != 4) break;
                Thread.sleep(500);
            }
            Cli last = r;
            assertEquals(0, last.exit(), last::why);
            assertTrue(last.stderr().contains("confirm_each"), last::why);
            assertEquals(1, approved, () -> "one card for the whole list of steps: " + last.why());
            assertEquals("approved", Files.readString(file).strip());
        }
    }

    /** Approves every card of the CLI's server (its page address is in its log) until it exits; how many. */
    private static int approveUntilExit(Process p, Path err, Path home) throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.util.regex.Pattern page = java.util.regex.Pattern.compile("page at (http://127\\.0\\.0\\.1:(\\d+))/");
        ObjectMapper json = new ObjectMapper();
        int approved = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (p.isAlive() && System.nanoTime() < deadline) {
            var m = page.matcher(Files.readString(err));
            if (m.find()) {
                assertTrue(Integer.parseInt(m.group(2)) > 0, "the page address names the port actually bound");
                String owner = Files.readString(home.resolve("owner-token")).trim();
                try {
                    var list = http.send(
                            java.net.http.HttpRequest.newBuilder(java.net.URI.create(m.group(1) + "/api/approvals"))
                                    .header("Authorization", "Bearer " + owner)
                                    .GET()
                                    .build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString());
                    if (list.statusCode() == 200) {
                        for (JsonNode card : json.readTree(list.body())) {
                            var decided = http.send(
                                    java.net.http.HttpRequest.newBuilder(
                                                    java.net.URI.create(m.group(1) + "/api/approvals/"
                                                            + card.path("id").asText()))
                                            .header("Authorization", "Bearer " + owner)
                                            .header("Content-Type", "application/json")
                                            .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                                                    "{\"decision\":\"approve\"}"))
                                            .build(),
                                    java.net.http.HttpResponse.BodyHandlers.ofString());
                            if (decided.statusCode() == 200) approved++;
                        }
                    }
                } catch (IOException serverEnding) {
                    // the CLI finished between two polls
                }
            }
            Thread.sleep(50);
        }
        p.waitFor(10, TimeUnit.SECONDS);
        return approved;
    }

    /** The one visible window of {@code wmClass}, as xdotool names it (decimal X11 id). */
    private static String visibleWindow(String wmClass) throws Exception {
        Process p = new ProcessBuilder("xdotool", "search", "--onlyvisible", "--class", wmClass).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor(10, TimeUnit.SECONDS);
        List<String> ids = out.lines().toList();
        assertEquals(1, ids.size(), () -> "one visible " + wmClass + " window, found " + ids);
        return ids.get(0);
    }

    static String verifier(Path file, String contains) {
        return "{\"kind\":\"file\",\"path\":\"" + file + "\",\"contains\":\"" + contains + "\"}";
    }

    /**
     * The editor's window and its tree reach the display and the accessibility bus a little after the
     * process starts: retry only while the run ends in preflight (exit 4), as a person would.
     */
    static Cli whenReady(Path home, String... args) throws Exception {
        Cli r = null;
        long start = System.nanoTime();
        for (int attempt = 1; attempt <= 15; attempt++) {
            r = cli(home, Set.of(), args);
            if (r.exit() != 4) {
                System.out.printf(
                        "deckhand run ended with exit %d after %d attempt(s), %d ms in all%n",
                        r.exit(), attempt, (System.nanoTime() - start) / 1_000_000);
                return r;
            }
            Thread.sleep(500);
        }
        return r;
    }
}
