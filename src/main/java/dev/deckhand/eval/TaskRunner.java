package dev.deckhand.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.deckhand.grant.PermissionMode;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.home.DeckhandHome;
import dev.deckhand.model.ApiKey;
import dev.deckhand.model.ModelBinding;
import dev.deckhand.model.ModelBindingStore;
import dev.deckhand.policy.PolicyDocument;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Runs one task in the orchestrator's process: a private working directory ({@code {dir}}) with the
 * task's files, a private config directory, a private virtual desktop, ONE child process (the packaged
 * app's hidden {@code eval-task} subcommand, {@link EvalTaskCommand}), then the app; the child acts as the
 * person and runs the task through the same loop and refusals as the MCP tool, and prints one JSON line.
 * The desktop and child of an X11 task are booted while the task before it runs, and a finished task's
 * desktop is ended while the next one runs (docs/eval.md, "Booted ahead"): the child waits for its job
 * file, written when its task starts. Whatever happens, every process of a task is ended by pid and the
 * directories removed.
 */
final class TaskRunner implements AutoCloseable {

    /** How the model is chosen, and where the packaged app is. */
    record Settings(
            Path jar,
            String java,
            Mode mode,
            Optional<ModelBinding> binding,
            Optional<ApiKey> key,
            Optional<Path> logs) {}

    enum Mode {
        ORACLE,
        MODEL
    }

    /** Room for the child's start (a Quarkus boot) and the app's window beyond the task's own timeout. */
    static final Duration START_SLACK = Duration.ofSeconds(90);

    static final Duration DESKTOP_BOUND = Duration.ofSeconds(30);
    static final int DEFAULT_TIMEOUT_SECONDS = 120;
    static final String RESULT_PREFIX = "deckhand-eval-result ";

    private final Settings settings;
    private final ChildArchive archive;
    /** Boots the next X11 task's desktop and child, and ends finished tasks' desktops, beside the running task. */
    private final ExecutorService background = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "deckhand-eval-spare");
        t.setDaemon(true);
        return t;
    });

    private final List<Future<?>> closing = new ArrayList<>();
    private final List<Long> pidsSeen;
    private Future<Booted> spare; // guarded by this
    private int x11RunsLeft; // guarded by this

    /**
     * @param x11Runs how many X11 task runs this runner will be given: while more are to come, the next one's
     *     desktop and child are booted during the current one (none after the last)
     * @param pidsSeen where the pids of every process a task's desktop ended go (synchronized on)
     */
    TaskRunner(Settings settings, ChildArchive archive, int x11Runs, List<Long> pidsSeen) {
        this.settings = settings;
        this.archive = archive;
        this.x11RunsLeft = x11Runs;
        this.pidsSeen = pidsSeen;
    }

    /**
     * A task's private config directory and virtual desktop with its child process started in it, before the task
     * is known: the child boots and then waits for its job file ({@link EvalTaskCommand}).
     */
    private record Booted(Path home, VirtualDesktop desktop, Process child, List<String> classes, Path job) {}

    /** Runs {@code task}; never throws: a harness failure becomes the row's {@code error}. */
    TaskResult run(TaskSpec task) {
        long t0 = System.nanoTime();
        String app = task.app().label();
        TaskResult.Builder row = TaskResult.builder(task.id(), app, task.expect(), settings);
        Path work = null;
        Booted booted = null;
        try {
            work = Files.createTempDirectory("deckhand-eval-task-");
            ObjectNode resolved = task.resolved(work);
            writeFiles(work, TaskSpec.files(resolved));
            booted = wayland(resolved) ? boot(true) : takeX11();
            TaskResult result = runIn(booted, task, resolved, work, row, t0);
            if (!result.expected() && settings.logs().isPresent())
                keepLogs(booted.desktop(), settings.logs().get(), task.id());
            return result;
        } catch (IOException e) {
            return row.error(
                    "the virtual desktop or the task's directories could not be set up: " + e.getMessage(), t0);
        } catch (RuntimeException e) {
            return row.error("harness failure: " + e, t0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return row.error("interrupted while the task's desktop started", t0);
        } finally {
            if (booted != null) end(booted, work);
            else if (work != null) VirtualDesktop.deleteTree(work);
        }
    }

    /** The booted spare if there is one (else boots now); while more X11 runs are to come, boots the next. */
    private Booted takeX11() throws IOException, InterruptedException {
        Future<Booted> ready;
        synchronized (this) {
            ready = spare;
            spare = --x11RunsLeft > 0 ? background.submit(() -> boot(false)) : null;
        }
        if (ready == null) return boot(false);
        try {
            return ready.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) throw io;
            if (e.getCause() instanceof InterruptedException) throw new InterruptedException("booting a desktop");
            throw new IllegalStateException(e.getCause());
        }
    }

    /** A new config directory and virtual desktop (with weston for a Wayland task), and the child started in it. */
    private Booted boot(boolean wayland) throws IOException, InterruptedException {
        Path home = Files.createTempDirectory("deckhand-eval-home-");
        VirtualDesktop desktop = null;
        try {
            prepareHome(home);
            desktop = VirtualDesktop.start(Files.createTempDirectory("deckhand-eval-rt-"), DESKTOP_BOUND);
            if (wayland) desktop.startWayland(DESKTOP_BOUND);
            Path job = home.resolve("eval-job.json");
            // The child serves on loopback whatever the orchestrator's environment says (the container image
            // opens the server's own bind to its interface).
            Map<String, String> childEnv = Map.of(
                    "DECKHAND_HOME", home.toString(), "QUARKUS_HTTP_PORT", "0", "QUARKUS_HTTP_HOST", "127.0.0.1");
            List<String> classes = archive.options();
            List<String> childCommand = new ArrayList<>(
                    List.of(settings.java(), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx512m"));
            childCommand.addAll(classes);
            childCommand.addAll(List.of("-jar", settings.jar().toString(), "eval-task", job.toString()));
            Path logs = desktop.runtime();
            ProcessBuilder pb = new ProcessBuilder(childCommand)
                    .redirectOutput(logs.resolve("child.out").toFile())
                    .redirectError(logs.resolve("child.log").toFile());
            pb.environment().putAll(desktop.environment());
            pb.environment().putAll(childEnv);
            for (String k : List.of(
                    "WAYLAND_DISPLAY",
                    "NO_AT_BRIDGE",
                    "GTK_A11Y",
                    "DECKHAND_ALLOW_NON_LOOPBACK_BIND",
                    "DECKHAND_PUBLISHED_ORIGIN")) {
                pb.environment().remove(k);
            }
            // A Wayland task's child sees both kinds of app, as on GNOME (the app is a native Wayland client).
            if (wayland) pb.environment().put("WAYLAND_DISPLAY", desktop.waylandDisplay());
            // It carries the desktop's runtime directory, so the desktop's close ends it with the rest.
            return new Booted(home, desktop, pb.start(), classes, job);
        } catch (IOException | RuntimeException | InterruptedException e) {
            if (desktop != null) desktop.close();
            VirtualDesktop.deleteTree(home);
            throw e;
        }
    }

    /**
     * Ends a task's desktop (its app and child with it), then removes its config and working directories (null: none),
     * beside the next task.
     */
    private void end(Booted booted, Path work) {
        Future<?> f = background.submit(() -> {
            booted.desktop().close();
            synchronized (pidsSeen) {
                pidsSeen.addAll(booted.desktop().endedPids());
            }
            VirtualDesktop.deleteTree(booted.home());
            if (work != null) VirtualDesktop.deleteTree(work);
        });
        synchronized (closing) {
            closing.add(f);
        }
    }

    /** Ends a spare no task took, and waits until every task's desktop has been ended. */
    @Override
    public void close() {
        Future<Booted> left;
        synchronized (this) {
            left = spare;
            spare = null;
        }
        if (left != null) {
            try {
                end(left.get(), null);
            } catch (ExecutionException e) {
                // it never booted: nothing of it runs
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        List<Future<?>> all;
        synchronized (closing) {
            all = List.copyOf(closing);
        }
        for (Future<?> f : all) {
            try {
                f.get();
            } catch (ExecutionException e) {
                // a desktop that could not be ended whole: its processes were still signalled by pid
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        background.shutdown();
    }

    private TaskResult runIn(
            Booted booted, TaskSpec task, ObjectNode resolved, Path work, TaskResult.Builder row, long t0)
            throws IOException {
        VirtualDesktop desktop = booted.desktop();
        Path logs = desktop.runtime();
        List<String> command = TaskSpec.command(resolved);
        Process app;
        try {
            // The app works in the task's directory, not the orchestrator's: GTK 4's Save As opens in it.
            app = wayland(resolved)
                    ? desktop.launchWayland(command, logs.resolve("app.log"), work)
                    : desktop.launch(command, Map.of(), logs.resolve("app.log"), work);
        } catch (IOException e) {
            return row.error(
                    "the app never opened: " + command.get(0) + " could not start (" + e.getMessage() + ")", t0);
        }
        int timeout = task.timeoutSeconds().orElse(DEFAULT_TIMEOUT_SECONDS);
        ObjectNode jobJson = TaskFile.JSON.createObjectNode();
        jobJson.set("task", resolved);
        jobJson.put("mode", settings.mode() == Mode.ORACLE ? "oracle" : "model");
        jobJson.put("windowWaitSeconds", Math.min(60, Math.max(20, timeout)));
        // whole or not at all: the child, booted already, reads it as soon as it is there
        Path part = booted.job().resolveSibling("eval-job.json.part");
        Files.writeString(part, jobJson.toString());
        Files.move(part, booted.job(), StandardCopyOption.ATOMIC_MOVE);
        Process child = booted.child();
        Path out = logs.resolve("child.out");
        Path err = logs.resolve("child.log");
        Path windowMark = EvalTaskCommand.windowMark(booted.job());
        boolean ended = false;
        boolean appFailed = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeout + START_SLACK.toSeconds());
        try {
            // An app that ends with an error status before its window is there opens none: the child would wait
            // out its whole window wait (up to a minute) for nothing. One that ends with 0 may have handed its
            // window to another process (a launcher), so the wait goes on.
            while (!ended && System.nanoTime() < deadline) {
                ended = child.waitFor(200, TimeUnit.MILLISECONDS);
                if (!ended && !app.isAlive() && app.exitValue() != 0 && !Files.exists(windowMark)) {
                    appFailed = true;
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!ended) {
            child.destroyForcibly();
            try {
                child.waitFor(5, TimeUnit.SECONDS); // dead before its archive, if any, is removed
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        archive.ended(booted.classes(), ended);
        if (appFailed) return row.error(appNeverOpened(command, app, logs), t0);
        if (!ended) {
            return row.error(
                    "the task's run did not end within " + timeout + " s plus " + START_SLACK.toSeconds()
                            + " s to start; " + tail(err, 400),
                    t0);
        }
        Optional<JsonNode> result = resultLine(out);
        if (result.isEmpty()) {
            return row.error(
                    "the task's child process printed no result (exit " + child.exitValue() + "); " + tail(err, 600),
                    t0);
        }
        JsonNode r = result.get();
        if (r.hasNonNull("error")) {
            String why = r.get("error").asText();
            if (why.startsWith("window never appeared")) {
                if (!app.isAlive()) {
                    why = appNeverOpened(command, app, logs);
                } else {
                    // The app runs: say what it printed and which part of the desktop (the window manager maps
                    // its window) is gone, so the report tells a broken desktop from a broken app.
                    List<String> broken = desktop.brokenParts();
                    why += "; the app still runs, " + tail(logs.resolve("app.log"), 300) + "; the desktop: "
                            + (broken.isEmpty() ? "all its parts run" : String.join(", ", broken)) + "; "
                            + desktop.state();
                }
            }
            return row.fromChild(r).error(why, t0);
        }
        return row.fromChild(r).done(t0);
    }

    private static String appNeverOpened(List<String> command, Process app, Path logs) {
        return "the app never opened: " + command.get(0) + " exited with status " + app.exitValue()
                + " before its window appeared; " + tail(logs.resolve("app.log"), 300);
    }

    /** {@code "session": "wayland"}: the app runs as a native Wayland client of a headless weston. */
    static boolean wayland(JsonNode resolved) {
        return "wayland".equals(resolved.path("session").asText("x11"));
    }

    /**
     * A run not as expected leaves its child's and app's output, and its desktop parts' ({@link
     * VirtualDesktop#partLogs()}), in {@code logs/ID.*.log} for the person to read.
     */
    private static void keepLogs(VirtualDesktop desktop, Path logs, String id) {
        try {
            Files.createDirectories(logs);
            List<String> names = new ArrayList<>(List.of("child.log", "app.log"));
            names.addAll(desktop.partLogs());
            for (String name : names) {
                Path f = desktop.runtime().resolve(name);
                if (Files.exists(f))
                    Files.copy(f, logs.resolve(id + "." + name), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            // the report still says what happened
        }
    }

    private void prepareHome(Path home) throws IOException {
        // The person lets autonomous grants run (accept-edits); every other rule stays the default.
        PolicyDocument policy =
                PolicyDocument.of(PolicyConfig.defaults().withPermissionMode(PermissionMode.ACCEPT_EDITS));
        TaskFile.JSON
                .writerWithDefaultPrettyPrinter()
                .writeValue(home.resolve(DeckhandHome.POLICY).toFile(), policy);
        if (settings.mode() == Mode.MODEL && settings.binding().isPresent()) {
            new ModelBindingStore(home)
                    .save(settings.binding().get(), settings.key().orElse(null));
        }
    }

    private static void writeFiles(Path work, Map<String, String> files) throws IOException {
        for (Map.Entry<String, String> f : files.entrySet()) {
            Path target = work.resolve(f.getKey()).normalize();
            if (!target.startsWith(work)) throw new IOException("files." + f.getKey() + " leaves {dir}");
            Files.createDirectories(target.getParent());
            Files.writeString(target, f.getValue(), StandardCharsets.UTF_8);
        }
    }

    static Optional<JsonNode> resultLine(Path out) {
        try {
            for (String line : Files.readAllLines(out, StandardCharsets.UTF_8)) {
                if (line.startsWith(RESULT_PREFIX))
                    return Optional.of(TaskFile.JSON.readTree(line.substring(RESULT_PREFIX.length())));
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    static String tail(Path log, int chars) {
        try {
            String s = Files.readString(log, StandardCharsets.UTF_8).strip();
            s = s.length() > chars ? "…" + s.substring(s.length() - chars) : s;
            return s.isEmpty() ? "(no output)" : "last output: " + s.replaceAll("\\s+", " ");
        } catch (IOException e) {
            return "(no log)";
        }
    }
}
