package dev.deckhand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Lints what can be linted without a Docker engine: the shell scripts with shellcheck, and the
 * Dockerfile by construction (pinned bases, every COPY source exists, built from the same scripts).
 */
class BuildScriptsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void shellScriptsPassShellcheck() throws Exception {
        List<String> cmd = new ArrayList<>(List.of("shellcheck", "--severity=warning"));
        for (String s : List.of("scripts/desktop.sh", "scripts/deps.sh", "scripts/start.sh", "scripts/test.sh",
                "scripts/deckhand", ".ci/run")) {
            assertTrue(Files.isRegularFile(ROOT.resolve(s)), s + " exists");
            cmd.add(s);
        }
        Process p = new ProcessBuilder(cmd).directory(ROOT.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "shellcheck (installed by scripts/deps.sh test):\n" + out);
    }

    @Test
    void dockerfileIsBuiltFromTheSameScriptsAndCopiesOnlyWhatExists() throws Exception {
        String dockerfile = Files.readString(ROOT.resolve("docker/Dockerfile"));
        Matcher from = Pattern.compile("(?m)^FROM\\s+(\\S+)").matcher(dockerfile);
        int bases = 0;
        while (from.find()) {
            bases++;
            assertTrue(from.group(1).matches("[a-z0-9./-]+:[0-9][\\w.-]*"), "base image pinned to a version: " + from.group(1));
        }
        assertEquals(2, bases, "a build stage and a runtime stage");
        Matcher copy = Pattern.compile("(?m)^COPY\\s+(?!--from)(.+)$").matcher(dockerfile);
        int copies = 0;
        while (copy.find()) {
            String[] parts = copy.group(1).trim().split("\\s+");
            for (int i = 0; i < parts.length - 1; i++) {
                copies++;
                assertTrue(Files.exists(ROOT.resolve(parts[i])), "COPY source exists: " + parts[i]);
            }
        }
        assertTrue(copies >= 6, "copies the sources and scripts");
        assertTrue(dockerfile.contains("scripts/deps.sh build") && dockerfile.contains("scripts/deps.sh image"),
                "packages come from scripts/deps.sh");
        assertTrue(dockerfile.contains("scripts/desktop.sh\", \"run\""), "the desktop starts through scripts/desktop.sh");
        assertTrue(dockerfile.contains("USER deckhand"), "the server does not run as root");
    }
}
