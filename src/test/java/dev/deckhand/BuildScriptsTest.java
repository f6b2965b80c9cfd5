package dev.deckhand;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The shell scripts pass shellcheck, and the image's recipe holds together with its build context. */
@Tag("app")
class BuildScriptsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void shellScriptsPassShellcheck() throws Exception {
        List<String> cmd = new ArrayList<>(List.of("shellcheck", "--severity=warning"));
        for (String s : List.of(
                "scripts/desktop.sh",
                "scripts/deps.sh",
                "scripts/start.sh",
                "scripts/test.sh",
                "scripts/deckhand",
                "scripts/image.sh",
                "docker/entrypoint.sh",
                "docker/healthcheck.sh",
                ".ci/run")) {
            assertTrue(Files.isRegularFile(ROOT.resolve(s)), s + " exists");
            cmd.add(s);
        }
        Process p = new ProcessBuilder(cmd)
                .directory(ROOT.toFile())
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "shellcheck (installed by scripts/deps.sh test):\n" + out);
    }

    /**
     * The image's recipe (really built and run by FleetAcceptance through scripts/test.sh): no base image is
     * pulled (its second stage builds on its first), every file it copies is in the build context that .dockerignore lets through, its packages come
     * from scripts/deps.sh, it runs as a numeric non-root user, and the server starts through scripts/desktop.sh.
     */
    @Test
    void containerfileIsBuiltFromTheSameScriptsAndCopiesOnlyWhatTheContextHolds() throws Exception {
        String recipe = Files.readString(ROOT.resolve("docker/Containerfile"));
        Matcher from =
                Pattern.compile("(?m)^FROM\\s+(\\S+)(?:\\s+AS\\s+(\\S+))?\\s*$").matcher(recipe);
        assertTrue(from.find());
        assertEquals(
                "${BASE}", from.group(1), "the base is the one scripts/image.sh makes by debootstrap, never pulled");
        assertEquals("packages", from.group(2), "the packages stage, which scripts/image.sh prepare builds early");
        assertTrue(from.find());
        assertEquals("packages", from.group(1), "the last stage builds on the packages stage, nothing pulled");
        assertTrue(!from.find(), "two stages: the packages, then the app the tests packaged");
        List<String> allowed = Files.readAllLines(ROOT.resolve(".dockerignore")).stream()
                .filter(l -> l.startsWith("!"))
                .map(l -> l.substring(1))
                .toList();
        assertTrue(
                Files.readAllLines(ROOT.resolve(".dockerignore")).contains("*"),
                "the context holds only what is let through");
        Matcher copy = Pattern.compile("(?m)^COPY\\s+(.+)$").matcher(recipe);
        int copies = 0;
        while (copy.find()) {
            String[] parts = copy.group(1).trim().split("\\s+");
            for (int i = 0; i < parts.length - 1; i++) {
                String source = parts[i];
                copies++;
                assertTrue(
                        allowed.stream()
                                .anyMatch(a -> source.equals(a) || (source + "/").equals(a) || source.startsWith(a)),
                        "COPY source " + source + " is let through by .dockerignore");
                if (!source.startsWith("src/target/"))
                    assertTrue(Files.exists(ROOT.resolve(source)), "COPY source exists: " + source);
            }
        }
        assertEquals(allowed.size(), copies, "and .dockerignore lets through nothing the recipe does not copy");
        assertTrue(recipe.contains("scripts/deps.sh image"), "packages come from scripts/deps.sh");
        Matcher uid = Pattern.compile("useradd --uid (\\d+)").matcher(recipe);
        assertTrue(uid.find());
        assertTrue(
                recipe.contains("USER " + uid.group(1) + ":" + uid.group(1)),
                "a numeric non-root user (runAsNonRoot can check it)");
        String entrypoint = Files.readString(ROOT.resolve("docker/entrypoint.sh"));
        assertTrue(recipe.contains("ENTRYPOINT [\"/opt/deckhand/docker/entrypoint.sh\"]"));
        assertTrue(
                entrypoint.contains("/opt/deckhand/scripts/desktop.sh run --sample-app --"),
                "the desktop starts through scripts/desktop.sh");
    }
}
