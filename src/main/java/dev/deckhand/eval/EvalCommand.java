package dev.deckhand.eval;

import dev.deckhand.home.DeckhandHome;
import dev.deckhand.model.ApiKey;
import dev.deckhand.model.ModelBinding;
import dev.deckhand.model.ModelBindingStore;
import dev.deckhand.model.Provider;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code deckhand eval}: runs a task suite, each task in its own private virtual desktop and config
 * directory ({@link TaskRunner}), {@code --parallel} at a time, and writes {@code report.json} and
 * {@code report.md} (docs/design.md#task-format). Plain Java: it needs no server, only the packaged app for the
 * per-task child process. A harness failure in one task is that task's {@code error} and never stops
 * the others.
 */
public final class EvalCommand {

    /** Exit codes. */
    public static final int OK = 0;

    public static final int NOT_AS_EXPECTED = 1;
    public static final int NOTHING_TO_RUN = 2;
    public static final int USAGE = 64;

    private final Map<String, String> env;
    private final DeckhandHome home;
    private final List<Long> pids = Collections.synchronizedList(new ArrayList<>());
    private EvalReport last;
    private Path stored;

    /** @param env the environment (API keys are read from it) */
    public EvalCommand(Map<String, String> env, DeckhandHome home) {
        this.env = env;
        this.home = home;
    }

    /** The pids of every process the last run ended (its tasks' desktops, apps and child processes). */
    public List<Long> endedPids() {
        return List.copyOf(pids);
    }

    /** The last run's report. */
    public EvalReport report() {
        return last;
    }

    /** Where the last report was kept under {@code $DECKHAND_HOME/eval/}. */
    public Path storedAt() {
        return stored;
    }

    public int run(List<String> args, PrintStream out, PrintStream err) {
        if (!args.isEmpty() && args.get(0).equals("merge")) return merge(args.subList(1, args.size()), out, err);
        EvalOptions o;
        try {
            o = EvalOptions.parse(args);
        } catch (EvalOptions.UsageException e) {
            err.println("deckhand eval: " + e.getMessage() + "\n" + EvalOptions.usage());
            return USAGE;
        }
        List<TaskSuite.Entry> entries;
        try {
            entries = TaskSuite.load(o.tasks(), o.only());
        } catch (IOException e) {
            err.println("deckhand eval: " + e.getMessage());
            return NOTHING_TO_RUN;
        }
        if (entries.isEmpty()) {
            err.println("deckhand eval: no task in " + o.tasks() + (o.only().isEmpty() ? "" : " matches " + o.only()));
            return NOTHING_TO_RUN;
        }
        if (o.shard().isPresent()) {
            int all = entries.size();
            entries = o.shard().get().of(entries);
            // An empty slice (more shards than tasks) is still a shard: its empty report lets the merge see it ran.
            err.println("deckhand eval: shard " + o.shard().get() + ": " + entries.size() + " of " + all + " tasks");
        }
        TaskRunner.Settings settings;
        try {
            settings = settings(o);
        } catch (IllegalStateException e) {
            err.println("deckhand eval: " + e.getMessage());
            return NOTHING_TO_RUN;
        }
        Instant started = Instant.now();
        long t0 = System.nanoTime();
        List<TaskResult> rows = runAll(entries, o, settings, err);
        String mode = settings.mode() == TaskRunner.Mode.ORACLE ? "oracle" : "model";
        last = EvalReport.of(
                rows,
                mode,
                settings.binding().map(ModelBinding::providerId).orElse(null),
                settings.binding().map(ModelBinding::modelId).orElse(null),
                started,
                (System.nanoTime() - t0) / 1_000_000,
                o.parallel(),
                o.repeat());
        if (o.shard().isPresent()) last = last.asShard(o.shard().get());
        // A shard's report is one part of a run: only its merge is kept for the page.
        return finish(last, o.out(), o.shard().isEmpty(), out, err);
    }

    /** {@code deckhand eval merge --out DIR SHARD_DIR…} ({@link EvalMerge}). */
    private int merge(List<String> args, PrintStream out, PrintStream err) {
        EvalMerge.Options o;
        try {
            o = EvalMerge.Options.parse(args);
        } catch (EvalOptions.UsageException e) {
            err.println("deckhand eval merge: " + e.getMessage() + "\n" + EvalOptions.usage());
            return USAGE;
        }
        try {
            List<EvalMerge.Part> parts = new ArrayList<>();
            for (Path dir : o.shards()) parts.add(EvalMerge.read(dir));
            last = EvalMerge.merge(parts);
        } catch (EvalMerge.Invalid e) {
            err.println("deckhand eval merge: " + e.getMessage());
            return NOTHING_TO_RUN;
        }
        err.println("deckhand eval merge: " + o.shards().size() + " shards, "
                + last.tasks().size() + " runs");
        return finish(last, Optional.of(o.out()), true, out, err);
    }

    /** Prints report.md and the closing line, writes the report, keeps it for the page; the exit code. */
    private int finish(EvalReport report, Optional<Path> outDir, boolean keep, PrintStream out, PrintStream err) {
        String md = report.markdown();
        out.print(md);
        boolean written = true;
        try {
            if (keep) stored = ReportStore.keep(home, report, md);
            if (outDir.isPresent()) ReportStore.write(outDir.get(), report, md);
            err.println("deckhand eval: report"
                    + (outDir.isPresent() ? " in " + outDir.get().toAbsolutePath() : "")
                    + (keep ? (outDir.isPresent() ? " and" : "") + " kept in " + stored : ""));
        } catch (IOException e) {
            err.println("deckhand eval: the report could not be written: " + e.getMessage());
            written = false;
        }
        List<TaskResult> rows = report.tasks();
        long asExpected = rows.stream().filter(TaskResult::expected).count();
        // The closing line CI runners read: runs that ended as their task expects, and the others.
        out.println("eval: " + asExpected + " passed, " + (rows.size() - asExpected) + " failed");
        out.flush();
        if (!written) return NOT_AS_EXPECTED;
        if ("oracle".equals(report.totals().mode())) return asExpected == rows.size() ? OK : NOT_AS_EXPECTED;
        return rows.stream().anyMatch(r -> r.error() != null) ? NOT_AS_EXPECTED : OK;
    }

    private List<TaskResult> runAll(
            List<TaskSuite.Entry> entries, EvalOptions o, TaskRunner.Settings settings, PrintStream err) {
        List<TaskSuite.Entry> jobs = new ArrayList<>();
        for (TaskSuite.Entry e : entries) for (int k = 0; k < o.repeat(); k++) jobs.add(e);
        Progress progress = new Progress(jobs.size(), err);
        ChildArchive archive = ChildArchive.create(jobs.size());
        int x11Runs = (int) jobs.stream()
                .filter(e -> e.task() != null && !TaskRunner.wayland(e.task().json()))
                .count();
        TaskRunner runner = new TaskRunner(settings, archive, x11Runs, pids);
        ExecutorService pool = Executors.newFixedThreadPool(o.parallel(), r -> {
            Thread t = new Thread(r, "deckhand-eval-worker");
            t.setDaemon(true);
            return t;
        });
        List<Future<TaskResult>> futures = new ArrayList<>();
        for (TaskSuite.Entry e : jobs) {
            futures.add(pool.submit(() -> {
                progress.started(e.id());
                TaskResult r = e.task() == null
                        ? TaskResult.builder(e.id(), "(invalid)", null, settings)
                                .error("the task file is invalid: " + e.invalid(), System.nanoTime())
                        : runner.run(e.task());
                progress.finished(r);
                return r;
            }));
        }
        List<TaskResult> rows = new ArrayList<>();
        try {
            for (Future<TaskResult> f : futures) rows.add(f.get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("a worker failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
            runner.close();
            archive.close();
        }
        progress.close();
        return rows;
    }

    private TaskRunner.Settings settings(EvalOptions o) {
        Path jar = packagedApp();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Optional<Path> logs = o.out().map(d -> d.resolve("logs"));
        if (o.oracle())
            return new TaskRunner.Settings(jar, java, TaskRunner.Mode.ORACLE, Optional.empty(), Optional.empty(), logs);
        if (o.provider().isPresent()) {
            Provider p = Provider.byId(o.provider().get()).orElseThrow();
            ModelBinding binding;
            try {
                binding = ModelBinding.of(
                        p.id(), o.model().orElseThrow(), o.baseUrl().orElse(null));
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException("--model: " + e.getMessage());
            }
            String variable =
                    switch (p) {
                        case OPENAI, OPENAI_COMPATIBLE -> "OPENAI_API_KEY";
                        case ANTHROPIC -> "ANTHROPIC_API_KEY";
                        case GEMINI -> "GEMINI_API_KEY";
                        case OLLAMA -> null;
                    };
            String key = variable == null ? null : env.get(variable);
            if (p.keyRequired() && (key == null || key.isBlank())) {
                throw new IllegalStateException(variable + " is not set: " + p.id() + " needs an API key");
            }
            return new TaskRunner.Settings(
                    jar,
                    java,
                    TaskRunner.Mode.MODEL,
                    Optional.of(binding),
                    key == null || key.isBlank() ? Optional.empty() : Optional.of(ApiKey.of(key.strip())),
                    logs);
        }
        ModelBindingStore store = new ModelBindingStore(home.dir());
        ModelBinding bound = store.binding()
                .orElseThrow(() -> new IllegalStateException("no model is bound in " + home.dir()
                        + "; bind one in the web page, or use --oracle or --model PROVIDER:MODEL"));
        return new TaskRunner.Settings(jar, java, TaskRunner.Mode.MODEL, Optional.of(bound), store.apiKey(), logs);
    }

    /** The packaged app: {@code deckhand.app.jar}, else the {@code quarkus-run.jar} this process runs from. */
    static Path packagedApp() {
        String configured = System.getProperty("deckhand.app.jar");
        if (configured != null && !configured.isBlank()) return existing(Path.of(configured));
        for (String entry : System.getProperty("java.class.path", "").split(java.io.File.pathSeparator)) {
            if (entry.endsWith("quarkus-run.jar")) return existing(Path.of(entry));
        }
        throw new IllegalStateException("cannot find the packaged app (quarkus-run.jar): run deckhand eval through "
                + "scripts/deckhand, or set -Ddeckhand.app.jar");
    }

    private static Path existing(Path jar) {
        if (!Files.isRegularFile(jar)) throw new IllegalStateException("the packaged app is missing at " + jar);
        return jar.toAbsolutePath();
    }

    /** The live progress line on standard error: one line per finished run when it is not a terminal. */
    private static final class Progress {
        private final int total;
        private final PrintStream err;
        // Java 17: a console exists only when both standard streams are a terminal (Java 22 changed that).
        @SuppressWarnings("SystemConsoleNull")
        private final boolean terminal = System.console() != null;

        private final AtomicInteger done = new AtomicInteger();
        private final AtomicInteger expected = new AtomicInteger();
        private final AtomicInteger errors = new AtomicInteger();
        private final List<String> running = new ArrayList<>();

        Progress(int total, PrintStream err) {
            this.total = total;
            this.err = err;
        }

        synchronized void started(String id) {
            running.add(id);
            if (terminal) line("");
        }

        synchronized void finished(TaskResult r) {
            running.remove(r.id());
            done.incrementAndGet();
            if (r.expected()) expected.incrementAndGet();
            if (r.error() != null) errors.incrementAndGet();
            String what = (r.expected() ? "as expected" : r.error() != null ? "ERROR" : "NOT as expected") + ": "
                    + r.id()
                    + " ("
                    + (r.error() != null
                            ? "error"
                            : r.outcome() + (r.refusal() != null ? " " + r.refusal() : "") + ", verdict " + r.verdict())
                    + ", " + EvalReport.seconds(r.wallMs()) + ")";
            line(what);
        }

        private void line(String last) {
            String s = "deckhand eval: [" + done.get() + "/" + total + "] " + expected.get() + " as expected, "
                    + (done.get() - expected.get()) + " not (" + errors.get() + " errors)"
                    + (running.isEmpty() ? "" : "; running " + String.join(", ", running))
                    + (last.isEmpty() ? "" : " — " + last);
            if (terminal) {
                err.print("\r\033[K" + s);
            } else {
                err.println(s);
            }
            err.flush();
        }

        synchronized void close() {
            if (terminal) err.println();
        }
    }
}
