package dev.deckhand.platform.atspi;

import dev.deckhand.loop.desktop.Geometry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A real application started by a test under the virtual desktop, with private XDG_* directories,
 * ended by its PID only. Stop/continue send SIGSTOP/SIGCONT to that PID. Failures are plain
 * {@link AssertionError}s so the bench can use it without JUnit.
 */
public final class TestApp implements AutoCloseable {

    private final Process process;
    private final Path home;
    private boolean stopped;

    private TestApp(Process process, Path home) {
        this.process = process;
        this.home = home;
    }

    /**
     * Chromium on {@code url} with its renderer's accessibility on, a new profile of its own, and nothing it would
     * fetch on its own (sync, component updates, background networking).
     */
    public static TestApp chromium(String url) throws java.io.IOException {
        List<String> command = new java.util.ArrayList<>(
                chromiumCommand(java.nio.file.Files.createTempDirectory("deckhand-chromium")));
        command.add(url);
        return launch(command);
    }

    /** Chromium's command line on profile {@code profile}, with its accessibility on, before the page's address. */
    public static List<String> chromiumCommand(java.nio.file.Path profile) {
        return List.of(
                "chromium",
                "--no-sandbox",
                "--user-data-dir=" + profile,
                "--force-renderer-accessibility",
                "--no-first-run",
                "--disable-gpu",
                "--disable-sync",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-default-browser-check");
    }

    /** Fails the test (with how to run it) when no display is set. */
    public static void requireDesktop() {
        String display = System.getenv("DISPLAY");
        if (display == null || display.isBlank()) {
            throw new AssertionError("DISPLAY is unset: run the AT-SPI tests in the virtual desktop, e.g. "
                    + "scripts/desktop.sh run -- mvn -o -pl src test -Dtest='dev.deckhand.platform.atspi.**' "
                    + "-Dsurefire.failIfNoSpecifiedTests=false (or scripts/test.sh)");
        }
    }

    public static TestApp launch(List<String> command) throws IOException {
        return launch(command, Map.of());
    }

    public static TestApp launch(List<String> command, Map<String, String> extraEnv) throws IOException {
        requireDesktop();
        Path home = Files.createTempDirectory("deckhand-atspi-app");
        Map<String, String> env = new HashMap<>(extraEnv);
        env.put(
                "XDG_CONFIG_HOME",
                Files.createDirectories(home.resolve("config")).toString());
        env.put("XDG_DATA_HOME", Files.createDirectories(home.resolve("data")).toString());
        env.put("XDG_CACHE_HOME", Files.createDirectories(home.resolve("cache")).toString());
        env.put("GDK_BACKEND", "x11");
        env.put("QT_QPA_PLATFORM", "xcb");
        env.put("QT_ACCESSIBILITY", "1");
        env.put("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "1");
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(home.resolve("app.log").toFile());
        pb.environment().remove("NO_AT_BRIDGE");
        pb.environment().remove("GTK_A11Y");
        pb.environment().putAll(env);
        return new TestApp(pb.start(), home);
    }

    /** The profile settings that keep first-start dialogs away (as the eval tasks use). */
    private static final String CALC_PROFILE = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<oor:items xmlns:oor=\"http://openoffice.org/2001/registry\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\""
            + " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n"
            + "<item oor:path=\"/org.openoffice.Setup/Office\"><prop oor:name=\"FirstStartWizardCompleted\" oor:op=\"fuse\">"
            + "<value>true</value></prop></item>\n"
            + "<item oor:path=\"/org.openoffice.Office.Common/Misc\"><prop oor:name=\"ShowTipOfTheDay\" oor:op=\"fuse\">"
            + "<value>false</value></prop></item>\n"
            + "<item oor:path=\"/org.openoffice.Office.Recovery/RecoveryInfo\"><prop oor:name=\"Enabled\" oor:op=\"fuse\">"
            + "<value>false</value></prop></item>\n"
            + "</oor:items>\n";

    /** LibreOffice Calc through its launcher (soffice.bin restarts itself once on a new profile in {@code dir}). */
    public static TestApp launchCalc(Path dir) throws IOException {
        Path profile = Files.createDirectories(dir.resolve("lo-profile/user"));
        Files.writeString(profile.resolve("registrymodifications.xcu"), CALC_PROFILE);
        return launch(
                List.of(
                        "soffice",
                        "--calc",
                        "--nologo",
                        "--norestore",
                        "-env:UserInstallation=" + dir.resolve("lo-profile").toUri()),
                Map.of("SAL_USE_VCLPLUGIN", "gtk3"));
    }

    /** The pid of the soffice.bin below a Calc launcher, or -1. */
    public static int calcPid(TestApp launcher) {
        return ProcessHandle.of(launcher.pid()).stream()
                .flatMap(ProcessHandle::descendants)
                .filter(p -> p.info().command().orElse("").endsWith("soffice.bin"))
                .mapToInt(p -> (int) p.pid())
                .reduce((a, b) -> b)
                .orElse(-1);
    }

    /**
     * A native Wayland client of the compositor {@code session} names (WAYLAND_DISPLAY, XDG_RUNTIME_DIR,
     * AT_SPI_BUS_ADDRESS): no DISPLAY, so the toolkit cannot fall back to X; private HOME and XDG dirs.
     */
    public static TestApp launchWayland(List<String> command, Map<String, String> session) throws IOException {
        requireDesktop();
        Path home = Files.createTempDirectory("deckhand-wayland-app");
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(home.resolve("app.log").toFile());
        Map<String, String> env = pb.environment();
        env.remove("DISPLAY");
        env.remove("NO_AT_BRIDGE");
        env.remove("GTK_A11Y");
        env.put("HOME", home.toString());
        env.put(
                "XDG_CONFIG_HOME",
                Files.createDirectories(home.resolve("config")).toString());
        env.put("XDG_DATA_HOME", Files.createDirectories(home.resolve("data")).toString());
        env.put("XDG_CACHE_HOME", Files.createDirectories(home.resolve("cache")).toString());
        env.put("GDK_BACKEND", "wayland");
        env.put("QT_QPA_PLATFORM", "wayland");
        env.putAll(session);
        return new TestApp(pb.start(), home);
    }

    /** A child JVM running {@code mainClass} from the test classes with the ATK wrapper (Swing accessibility). */
    public static TestApp launchSwing(Class<?> mainClass, String... args) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classes;
        try {
            classes = Path.of(mainClass
                            .getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
        } catch (java.net.URISyntaxException e) {
            throw new IOException(e);
        }
        List<String> cmd = new ArrayList<>(List.of(
                java,
                "-Djavax.accessibility.assistive_technologies=org.GNOME.Accessibility.AtkWrapper",
                "-cp",
                classes + ":/usr/share/java/java-atk-wrapper.jar",
                mainClass.getName()));
        cmd.addAll(List.of(args));
        return launch(cmd);
    }

    public int pid() {
        return (int) process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** The app's exit status once it has exited, waiting up to {@code millis}; null while it still runs. */
    public Integer exitCode(long millis) throws InterruptedException {
        return process.waitFor(millis, java.util.concurrent.TimeUnit.MILLISECONDS) ? process.exitValue() : null;
    }

    /** Polls the bridge until the app shows a top-level accessible whose name matches; its name. */
    String awaitWindow(AtspiBridge bridge, Predicate<String> title, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        List<String> seen = List.of();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) throw new AssertionError("app exited early; log: " + log());
            seen = bridge.windowTitles(pid());
            Optional<String> match = seen.stream().filter(title).findFirst();
            if (match.isPresent()) return match.get();
            Thread.sleep(100);
        }
        throw new AssertionError("no matching window of pid " + pid() + " appeared on the accessibility bus within "
                + timeoutMillis + " ms (its windows: " + seen + "); log: " + log());
    }

    /**
     * Polls the bridge until {@code ready} accepts the tree of this app's window named {@code title} (a refusal
     * while the app starts is read again), within 20 s; that tree.
     */
    dev.deckhand.loop.desktop.ScopedTree awaitTree(
            AtspiBridge bridge, String title, Predicate<dev.deckhand.loop.desktop.ScopedTree> ready)
            throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        Object last = null;
        while (System.nanoTime() < deadline) {
            try {
                dev.deckhand.loop.desktop.ScopedTree t = bridge.snapshot(pid(), title, new Geometry(0, 0, 0, 0), 3L, 1);
                if (ready.test(t)) return t;
                last = t.nodes();
            } catch (dev.deckhand.grant.RefusedException e) {
                last = e.getMessage();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the tree of " + title + " never became ready; last read: " + last);
    }

    /** The X geometry of this app's window named {@code title} (through xdotool), or a zero origin. */
    Geometry geometry(String title) throws IOException, InterruptedException {
        for (String id :
                run("xdotool", "search", "--pid", String.valueOf(pid())).split("\\s+")) {
            if (id.isBlank()) continue;
            if (!run("xdotool", "getwindowname", id).strip().equals(title)) continue;
            Map<String, Integer> v = new HashMap<>();
            for (String line :
                    run("xdotool", "getwindowgeometry", "--shell", id).split("\n")) {
                String[] kv = line.split("=", 2);
                if (kv.length == 2 && kv[1].strip().matches("-?\\d+")) v.put(kv[0], Integer.parseInt(kv[1].strip()));
            }
            return new Geometry(
                    v.getOrDefault("X", 0),
                    v.getOrDefault("Y", 0),
                    v.getOrDefault("WIDTH", 0),
                    v.getOrDefault("HEIGHT", 0));
        }
        return new Geometry(0, 0, 0, 0);
    }

    public void sigstop() throws IOException, InterruptedException {
        signal("-STOP");
        stopped = true;
    }

    public void sigcont() throws IOException, InterruptedException {
        signal("-CONT");
        stopped = false;
    }

    /** SIGKILL by PID and wait for the exit. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
        stopped = false; // a killed stopped app needs no SIGCONT (its PID may be reused)
    }

    private void signal(String sig) throws IOException, InterruptedException {
        run("kill", sig, String.valueOf(pid()));
    }

    public String log() {
        try {
            String s = Files.readString(home.resolve("app.log"), StandardCharsets.UTF_8);
            return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
        } catch (IOException e) {
            return "(no log)";
        }
    }

    private static String run(String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        p.waitFor(5, TimeUnit.SECONDS);
        return new String(out, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws Exception {
        if (stopped) sigcont();
        // Children the app started (Chromium's renderers) are ended by their PIDs too.
        List<ProcessHandle> children = process.descendants().collect(java.util.stream.Collectors.toList());
        process.destroy();
        if (!process.waitFor(3, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(3, TimeUnit.SECONDS);
        }
        for (ProcessHandle child : children) {
            if (child.isAlive()) child.destroyForcibly();
        }
        try (Stream<Path> walk = Files.walk(home)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
