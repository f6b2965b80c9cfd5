package dev.deckhand.eval;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A private virtual desktop, as {@code scripts/desktop.sh} starts it: Xvfb on a free display with
 * {@code -noreset}, a D-Bus session bus, the AT-SPI bus launcher (ready when {@code AT_SPI_BUS} is on
 * the root window and the registry answers) and openbox, all with a private {@code XDG_RUNTIME_DIR}
 * (mode 0700). {@link #close()} ends exactly the processes it started, by pid, and every process that
 * carries its runtime directory in {@code /proc/PID/environ} (the AT-SPI registry is re-parented to
 * PID 1; the apps and the task's child process run with it too), then removes the directory.
 */
public final class VirtualDesktop implements AutoCloseable {

    static final String GEOMETRY = "1280x800x24";

    private final Path runtime;
    private final List<String> windowManager;
    private final List<Process> started = new ArrayList<>();
    /** The desktop's own parts (xvfb, dbus, atspi, openbox, weston) by name, for {@link #brokenParts()} and {@link #partLogs()}. */
    private final Map<String, Process> parts = new LinkedHashMap<>();

    private final Map<String, String> env = new LinkedHashMap<>();
    private final List<Long> ended = new ArrayList<>();
    /** The accessibility bus of this desktop (the root window's {@code AT_SPI_BUS}). */
    private String a11yBus;
    /** weston's socket once {@link #startWayland} ran. */
    private Path waylandSocket;

    private VirtualDesktop(Path runtime, List<String> windowManager) {
        this.runtime = runtime;
        this.windowManager = List.copyOf(windowManager);
    }

    /**
     * Starts a desktop whose runtime directory is {@code runtime} (created, mode 0700); every wait is
     * bounded by {@code bound}.
     *
     * @throws IOException naming the part that did not come up; whatever had started is ended
     */
    public static VirtualDesktop start(Path runtime, Duration bound) throws IOException {
        return start(runtime, bound, List.of("openbox", "--sm-disable"));
    }

    /** As {@link #start(Path, Duration)} with another window manager's command (a test's wrapper of openbox). */
    static VirtualDesktop start(Path runtime, Duration bound, List<String> windowManager) throws IOException {
        VirtualDesktop d = new VirtualDesktop(runtime, windowManager);
        try {
            d.boot(bound);
            return d;
        } catch (IOException | RuntimeException e) {
            d.close();
            throw e;
        } catch (InterruptedException e) {
            d.close();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the virtual desktop started", e);
        }
    }

    private void boot(Duration bound) throws IOException, InterruptedException {
        Files.createDirectories(runtime);
        Files.setPosixFilePermissions(runtime, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        for (String d : List.of("config", "data", "cache", "home", "tmp")) Files.createDirectories(runtime.resolve(d));
        long deadline = System.nanoTime() + bound.toNanos();

        // -displayfd: Xvfb picks a free display itself and writes its number once it accepts clients.
        Process xvfb = spawn(
                "xvfb",
                List.of("Xvfb", "-displayfd", "1", "-screen", "0", GEOMETRY, "-nolisten", "tcp", "-noreset"),
                Map.of(),
                ProcessBuilder.Redirect.PIPE);
        String display = readLine(xvfb, deadline, "Xvfb to report its display");
        if (!display.matches("\\d+")) throw new IOException("Xvfb reported no display number: '" + display + "'");
        env.put("DISPLAY", ":" + display);
        env.put("XDG_RUNTIME_DIR", runtime.toString());
        // Every part sees the private directories, the window manager too: with the person's (or a read-only
        // image's) home, openbox shared or could not write its caches, and fontconfig rescanned every font.
        env.put("XDG_CONFIG_HOME", runtime.resolve("config").toString());
        env.put("XDG_DATA_HOME", runtime.resolve("data").toString());
        env.put("XDG_CACHE_HOME", runtime.resolve("cache").toString());
        env.put("HOME", runtime.resolve("home").toString());
        // Single-instance apps (pluma) find their running copy through a socket in the temporary directory:
        // a private one keeps two desktops' copies apart.
        env.put("TMPDIR", runtime.resolve("tmp").toString());

        Process bus = spawn(
                "dbus",
                List.of(
                        "dbus-daemon",
                        "--session",
                        "--nofork",
                        "--print-address=1",
                        "--address=unix:path=" + runtime.resolve("bus")),
                Map.of(),
                ProcessBuilder.Redirect.PIPE);
        env.put("DBUS_SESSION_BUS_ADDRESS", readLine(bus, deadline, "the D-Bus session bus to print its address"));

        spawn("atspi", List.of("/usr/libexec/at-spi-bus-launcher", "--launch-immediately"), Map.of(), null);
        // Without this property Qt 5.15 races its D-Bus lookup and never registers (LINUX-DESKTOP.md).
        String[] a11y = new String[1];
        await(deadline, "AT_SPI_BUS on the root window", () -> {
            String out = output(List.of("xprop", "-root", "AT_SPI_BUS"));
            int q = out.indexOf("\"unix:");
            if (q < 0) return false;
            a11y[0] = out.substring(q + 1, out.lastIndexOf('"'));
            return true;
        });
        a11yBus = a11y[0];
        spawn("openbox", windowManager, Map.of(), null);
        await(deadline, "openbox to manage the screen", () -> output(
                        List.of("xprop", "-root", "_NET_SUPPORTING_WM_CHECK"))
                .contains("window id"));
        awaitManaging(deadline);
        await(
                deadline,
                "the AT-SPI registry",
                () -> exitsZero(List.of(
                        "dbus-send",
                        "--bus=" + a11y[0],
                        "--print-reply",
                        "--dest=org.a11y.atspi.Registry",
                        "/org/a11y/atspi/accessible/root",
                        "org.freedesktop.DBus.Properties.Get",
                        "string:org.a11y.atspi.Accessible",
                        "string:ChildCount")));
        env.put("GDK_BACKEND", "x11");
        env.put("QT_QPA_PLATFORM", "xcb");
        env.put("QT_ACCESSIBILITY", "1");
        env.put("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "1");
        // LibreOffice shows its accessibility tree through the GTK 3 plugin only.
        env.put("SAL_USE_VCLPLUGIN", "gtk3");
        env.put("DECKHAND_PRIVATE_DESKTOP", "1");
    }

    /**
     * Waits until openbox manages a new window. It announces itself (_NET_SUPPORTING_WM_CHECK) before its
     * startup is done, and a window mapped in between is never managed: it stays off the client list, so a
     * task's window "never appeared" (docs/eval.md). So a probe window ({@code xmessage}) is mapped,
     * again every second while it is not listed, and ended once it is; the desktop is ready when the list is
     * empty again.
     */
    private void awaitManaging(long deadline) throws IOException, InterruptedException {
        while (true) {
            Process probe = spawn(
                    "wm-probe",
                    List.of("xmessage", "-name", "deckhand-wm-probe", "-timeout", "30", "window manager probe"),
                    Map.of(),
                    null);
            long retry = System.nanoTime() + Duration.ofSeconds(1).toNanos();
            boolean managed = false;
            try {
                while (!(managed = clientListed())
                        && System.nanoTime() - retry < 0
                        && System.nanoTime() - deadline < 0) {
                    Thread.sleep(25);
                }
            } finally {
                probe.destroy();
                if (!probe.waitFor(2, TimeUnit.SECONDS)) probe.destroyForcibly();
                synchronized (started) {
                    started.remove(probe);
                    parts.remove("wm-probe");
                }
            }
            if (managed) break;
            if (System.nanoTime() - deadline >= 0)
                throw new IOException("timed out waiting for openbox to manage a window");
        }
        await(deadline, "openbox to let the probe window go", () -> !clientListed());
    }

    private boolean clientListed() {
        return output(List.of("xprop", "-root", "_NET_CLIENT_LIST")).contains("# 0x");
    }

    /**
     * Starts a headless weston beside the X server (docs/wayland.md#a-headless-wayland-session), as GNOME runs Wayland beside XWayland: its
     * clients register on this desktop's accessibility bus, so a child with {@link #waylandDisplay()} sees
     * both kinds of app. Ended with the rest by {@link #close()}.
     */
    public void startWayland(Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        Path socket = runtime.resolve("wayland-deckhand");
        // pixman: without it weston's headless output renders nothing (LINUX-DESKTOP.md)
        spawn(
                "weston",
                List.of(
                        "weston",
                        "--backend=headless-backend.so",
                        "--socket=" + socket.getFileName(),
                        "--idle-time=0",
                        "--use-pixman",
                        "--width=1280",
                        "--height=800"),
                Map.of(),
                null);
        await(deadline, "weston's socket", () -> Files.exists(socket));
        waylandSocket = socket;
    }

    /** weston's socket as an absolute {@code WAYLAND_DISPLAY}; only after {@link #startWayland}. */
    public String waylandDisplay() {
        if (waylandSocket == null) throw new IllegalStateException("no Wayland session was started");
        return waylandSocket.toString();
    }

    /** Starts {@code command} as a native Wayland client of {@link #startWayland}'s weston: no DISPLAY to fall back to. */
    public Process launchWayland(List<String> command, Path log) throws IOException {
        return launchWayland(command, log, null);
    }

    /** As {@link #launchWayland(List, Path)}, working in {@code dir} (null: this process's). */
    public Process launchWayland(List<String> command, Path log, Path dir) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(dir == null ? null : dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        prepare(
                pb.environment(),
                Map.of(
                        "WAYLAND_DISPLAY",
                        waylandDisplay(),
                        "GDK_BACKEND",
                        "wayland",
                        "QT_QPA_PLATFORM",
                        "wayland",
                        "AT_SPI_BUS_ADDRESS",
                        a11yBus));
        pb.environment().remove("DISPLAY");
        Process p = pb.start();
        synchronized (started) {
            started.add(p);
        }
        return p;
    }

    /** The environment apps and the task's child run with. */
    public Map<String, String> environment() {
        return Map.copyOf(env);
    }

    public Path runtime() {
        return runtime;
    }

    /** Starts {@code command} in this desktop (environment above, plus {@code extra}), output to {@code log}. */
    public Process launch(List<String> command, Map<String, String> extra, Path log) throws IOException {
        return launch(command, extra, log, null);
    }

    /** As {@link #launch(List, Map, Path)}, working in {@code dir} (null: this process's). */
    public Process launch(List<String> command, Map<String, String> extra, Path log, Path dir) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command)
                .directory(dir == null ? null : dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        prepare(pb.environment(), extra);
        Process p = pb.start();
        synchronized (started) {
            started.add(p);
        }
        return p;
    }

    private void prepare(Map<String, String> target, Map<String, String> extra) {
        for (String k :
                List.of("WAYLAND_DISPLAY", "NO_AT_BRIDGE", "GTK_A11Y", "AT_SPI_BUS_ADDRESS", "DESKTOP_STARTUP_ID")) {
            target.remove(k);
        }
        target.putAll(env);
        target.putAll(extra);
    }

    private Process spawn(String name, List<String> command, Map<String, String> extra, ProcessBuilder.Redirect out)
            throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(
                        runtime.resolve(name + ".log").toFile()));
        pb.redirectOutput(
                out != null
                        ? out
                        : ProcessBuilder.Redirect.appendTo(
                                runtime.resolve(name + ".log").toFile()));
        prepare(pb.environment(), extra);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IOException(
                    command.get(0) + " could not start (" + e.getMessage() + "); install the desktop with "
                            + "scripts/deps.sh main",
                    e);
        }
        synchronized (started) {
            started.add(p);
            parts.put(name, p);
        }
        return p;
    }

    /**
     * The desktop's parts that are no longer running, each with its exit status and the end of its log
     * (e.g. {@code "openbox exited with status 1 (last output: …)"}); empty when all run. A harness error
     * names them, so a window that never appeared because the window manager died says so.
     */
    public List<String> brokenParts() {
        List<String> out = new ArrayList<>();
        synchronized (started) {
            parts.forEach((name, p) -> {
                if (!p.isAlive())
                    out.add(name + " exited with status " + p.exitValue() + " ("
                            + TaskRunner.tail(runtime.resolve(name + ".log"), 200) + ")");
            });
        }
        return out;
    }

    /** The log files, in {@link #runtime()}, of the desktop's own parts (Xvfb, the buses, openbox, weston). */
    public List<String> partLogs() {
        synchronized (started) {
            return parts.keySet().stream().map(name -> name + ".log").toList();
        }
    }

    /**
     * What runs in this desktop and what it shows, for a harness error: each process carrying its runtime
     * directory as {@code comm/pid state wchan}, then the X server's top-level windows ({@code xwininfo}), so a
     * window that never appeared tells an app stuck before its window from a window nobody managed.
     */
    public String state() {
        StringBuilder b = new StringBuilder("processes:");
        for (long pid : carrying(runtime)) {
            try {
                Path proc = Path.of("/proc", Long.toString(pid));
                String stat = Files.readString(proc.resolve("stat"));
                int close = stat.lastIndexOf(')');
                String comm = stat.substring(stat.indexOf('(') + 1, close);
                String wchan = Files.isReadable(proc.resolve("wchan"))
                        ? Files.readString(proc.resolve("wchan")).strip()
                        : "?";
                b.append(' ')
                        .append(comm)
                        .append('/')
                        .append(pid)
                        .append(' ')
                        .append(stat.charAt(close + 2))
                        .append(wchan.isEmpty() || wchan.equals("0") ? "" : " " + wchan)
                        .append(',');
            } catch (IOException | RuntimeException gone) {
                // ended meanwhile
            }
        }
        String tree = output(List.of("xwininfo", "-root", "-children"))
                .lines()
                .filter(l -> l.strip().startsWith("0x"))
                .map(String::strip)
                .reduce((x, y) -> x + "; " + y)
                .orElse("none");
        return b.append(" top-level windows: ")
                .append(tree.length() > 2000 ? tree.substring(0, 2000) + "…" : tree)
                .toString();
    }

    private static String readLine(Process p, long deadline, String what) throws IOException, InterruptedException {
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                BufferedReader r =
                        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
                return r.readLine();
            } catch (IOException e) {
                return null;
            }
        });
        try {
            String s = line.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (s == null) throw new IOException("timed out waiting for " + what + " (it exited)");
            return s.strip();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IOException("timed out waiting for " + what);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IOException("could not read " + what, e.getCause());
        }
    }

    private static void await(long deadline, String what, BooleanSupplier ready)
            throws IOException, InterruptedException {
        while (!ready.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new IOException("timed out waiting for " + what);
            Thread.sleep(50);
        }
    }

    /** Standard output and error of a short command in this desktop, or "" when it fails or takes over 5 s. */
    private String output(List<String> command) {
        Probe p = probe(command);
        return p.exit() == null ? "" : p.output();
    }

    private boolean exitsZero(List<String> command) {
        Integer exit = probe(command).exit();
        return exit != null && exit == 0;
    }

    private record Probe(Integer exit, String output) {}

    private Probe probe(List<String> command) {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            prepare(pb.environment(), Map.of());
            Process p = pb.start();
            CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> {
                try {
                    return p.getInputStream().readAllBytes();
                } catch (IOException e) {
                    return new byte[0];
                }
            });
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Probe(null, "");
            }
            return new Probe(p.exitValue(), new String(out.join(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            return new Probe(null, "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Probe(null, "");
        }
    }

    /** Pids of live processes whose environment carries this desktop's {@code XDG_RUNTIME_DIR}. */
    public static List<Long> carrying(Path runtime) {
        byte[] needle = ("XDG_RUNTIME_DIR=" + runtime + "\0").getBytes(StandardCharsets.UTF_8);
        List<Long> out = new ArrayList<>();
        long self = ProcessHandle.current().pid();
        try (var dirs = Files.list(Path.of("/proc"))) {
            for (Path d : (Iterable<Path>) dirs::iterator) {
                String name = d.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) continue;
                long pid = Long.parseLong(name);
                if (pid == self) continue;
                byte[] environ;
                try {
                    environ = Files.readAllBytes(d.resolve("environ"));
                } catch (IOException | SecurityException gone) {
                    continue;
                }
                if (contains(environ, needle, true)) out.add(pid);
            }
        } catch (IOException e) {
            return out;
        }
        return out;
    }

    private static boolean contains(byte[] hay, byte[] needle, boolean atEntryStart) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            if (atEntryStart && i > 0 && hay[i - 1] != 0) continue;
            for (int j = 0; j < needle.length; j++) if (hay[i + j] != needle[j]) continue outer;
            return true;
        }
        return false;
    }

    /** The pids this desktop ended (started ones and those carrying its runtime directory). */
    public List<Long> endedPids() {
        synchronized (ended) {
            return List.copyOf(ended);
        }
    }

    /** Ends every process it started and every process carrying its runtime directory, by pid; TERM, then KILL. */
    @Override
    public void close() {
        List<ProcessHandle> targets = new ArrayList<>();
        List<Process> mine;
        synchronized (started) {
            mine = List.copyOf(started);
        }
        // Apps first, the X server last (an app losing its display mid-write can hang in its error path).
        for (int i = mine.size() - 1; i >= 0; i--) targets.add(mine.get(i).toHandle());
        for (int round = 0; round < 3; round++) {
            for (long pid : carrying(runtime)) {
                ProcessHandle.of(pid).ifPresent(h -> {
                    if (targets.stream().noneMatch(t -> t.pid() == h.pid())) targets.add(0, h);
                });
            }
            end(targets);
            if (carrying(runtime).isEmpty()) break;
        }
        synchronized (ended) {
            targets.forEach(t -> ended.add(t.pid()));
        }
        deleteTree(runtime);
    }

    private static void end(List<ProcessHandle> targets) {
        targets.forEach(ProcessHandle::destroy);
        long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (System.nanoTime() < deadline && targets.stream().anyMatch(ProcessHandle::isAlive)) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        targets.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        long hard = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        while (System.nanoTime() < hard && targets.stream().anyMatch(ProcessHandle::isAlive)) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
    }

    static void deleteTree(Path root) {
        if (!Files.exists(root)) return;
        try (var walk = Files.walk(root)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // a file still held open: the directory stays, the processes are gone
                }
            });
        } catch (IOException ignored) {
            // best effort
        }
    }
}
