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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs one task in the orchestrator's process: a private working directory ({@code {dir}}) with the
 * task's files, a private config directory, a private virtual desktop, the app, then ONE child process
 * (the packaged app's hidden {@code eval-task} subcommand, {@link EvalTaskCommand}) that acts as the
 * person and runs the task through the same loop and refusals as the MCP tool, and prints one JSON
 * line. Whatever happens, every process of the task is ended by pid and the directories removed.
 */
final class TaskRunner {

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

    TaskRunner(Settings settings, ChildArchive archive) {
        this.settings = settings;
        this.archive = archive;
    }

    /** Runs {@code task}; never throws: a harness failure becomes the row's {@code error}. */
    TaskResult run(TaskSpec task, List<Long> pidsSeen) {
        long t0 = System.nanoTime();
        String app = task.app().label();
        TaskResult.Builder row = TaskResult.builder(task.id(), app, task.expect(), settings);
        Path work = null;
        Path home = null;
        Path runtime = null;
        try {
            work = Files.createTempDirectory("deckhand-eval-task-");
            home = Files.createTempDirectory("deckhand-eval-home-");
            runtime = Files.createTempDirectory("deckhand-eval-rt-");
            ObjectNode resolved = task.resolved(work);
            writeFiles(work, TaskSpec.files(resolved));
            prepareHome(home);
            VirtualDesktop desktop = VirtualDesktop.start(runtime, DESKTOP_BOUND);
            try {
                if (wayland(resolved)) desktop.startWayland(DESKTOP_BOUND);
                TaskResult result = runIn(desktop, task, resolved, home, row, t0);
                if (!result.expected() && settings.logs().isPresent())
                    keepLogs(desktop, settings.logs().get(), task.id());
                return result;
            } finally {
                desktop.close();
                synchronized (pidsSeen) {
                    pidsSeen.addAll(desktop.endedPids());
                }
            }
        } catch (IOException e) {
            return row.error(
                    "the virtual desktop or the task's directories could not be set up: " + e.getMessage(), t0);
        } catch (RuntimeException e) {
            return row.error("harness failure: " + e, t0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return row.error("interrupted while the Wayland session started", t0);
        } finally {
            for (Path p : new Path[] {work, home, runtime}) if (p != null) VirtualDesktop.deleteTree(p);
        }
    }

    private TaskResult runIn(
            VirtualDesktop desktop, TaskSpec task, ObjectNode resolved, Path home, TaskResult.Builder row, long t0)
            throws IOException {
        Path logs = desktop.runtime();
        List<String> command = TaskSpec.command(resolved);
        Process app;
        try {
            app = wayland(resolved)
                    ? desktop.launchWayland(command, logs.resolve("app.log"))
                    : desktop.launch(command, Map.of(), logs.resolve("app.log"));
        } catch (IOException e) {
            return row.error(
                    "the app never opened: " + command.get(0) + " could not start (" + e.getMessage() + ")", t0);
        }
        int timeout = task.timeoutSeconds().orElse(DEFAULT_TIMEOUT_SECONDS);
        Path job = home.resolve("eval-job.json");
        ObjectNode jobJson = TaskFile.JSON.createObjectNode();
        jobJson.set("task", resolved);
        jobJson.put("mode", settings.mode() == Mode.ORACLE ? "oracle" : "model");
        jobJson.put("windowWaitSeconds", Math.min(60, Math.max(20, timeout)));
        Files.writeString(job, jobJson.toString());
        // The child serves on loopback whatever the orchestrator's environment says (the container image
        // opens the server's own bind to its interface).
        Map<String, String> childEnv =
                Map.of("DECKHAND_HOME", home.toString(), "QUARKUS_HTTP_PORT", "0", "QUARKUS_HTTP_HOST", "127.0.0.1");
        List<String> classes = archive.options();
        List<String> childCommand =
                new ArrayList<>(List.of(settings.java(), "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xmx512m"));
        childCommand.addAll(classes);
        childCommand.addAll(List.of("-jar", settings.jar().toString(), "eval-task", job.toString()));
        Path out = logs.resolve("child.out");
        Path err = logs.resolve("child.log");
        ProcessBuilder pb =
                new ProcessBuilder(childCommand).redirectOutput(out.toFile()).redirectError(err.toFile());
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
        if (wayland(resolved)) pb.environment().put("WAYLAND_DISPLAY", desktop.waylandDisplay());
        // It carries the desktop's runtime directory, so the desktop's close ends it with the rest.
        Process child = pb.start();
        boolean ended;
        try {
            ended = child.waitFor(timeout + START_SLACK.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ended = false;
        }
        if (!ended) {
            child.destroyForcibly();
            try {
                child.waitFor(5, TimeUnit.SECONDS); // dead before its archive, if any, is removed
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        archive.ended(classes, ended);
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
                    why = "the app never opened: " + command.get(0) + " exited with status " + app.exitValue()
                            + " before its window appeared; " + tail(logs.resolve("app.log"), 300);
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

    /** {@code "session": "wayland"}: the app runs as a native Wayland client of a headless weston. */
    private static boolean wayland(JsonNode resolved) {
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
