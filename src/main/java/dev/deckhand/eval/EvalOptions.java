package dev.deckhand.eval;

import dev.deckhand.model.Provider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The flags of {@code deckhand eval}, read strictly by picocli (pure: no I/O, so {@code Main} checks them
 * before anything starts; 64 with the usage on a bad flag).
 *
 * @param model {@code PROVIDER:MODEL}, split
 * @param shard {@code --shard I/N}: only that slice of the tasks (which needs {@code --out})
 */
public record EvalOptions(
        List<Path> tasks,
        List<String> only,
        boolean oracle,
        Optional<String> provider,
        Optional<String> model,
        Optional<String> baseUrl,
        int parallel,
        int repeat,
        Optional<Path> out,
        Optional<Shard> shard) {

    public static final int MAX_PARALLEL = 16;
    public static final int MAX_REPEAT = 100;

    /** A bad command line; the message names the flag. */
    public static final class UsageException extends RuntimeException {
        public UsageException(String message) {
            super(message, null, false, false);
        }
    }

    public static String usage() {
        return """
                usage: deckhand eval [--tasks DIR]... [--only GLOB]... [--oracle | --model PROVIDER:MODEL [--base-url URL]]
                                     [--parallel N] [--repeat K] [--shard I/N] [--out DIR]
                       deckhand eval merge --out DIR SHARD_DIR...
                  --tasks DIR    a suite: every *.json below DIR, searched recursively, except folders named 'pending'
                                 (name such a folder itself to run it); default: tasks
                  --only GLOB    only the tasks whose id matches the glob (e.g. 'mousepad-*'); may repeat
                  --oracle       run each task's oracle steps instead of a model
                  --model P:M    the model to run, e.g. openai:gpt-4.1; the key comes from OPENAI_API_KEY,
                                 ANTHROPIC_API_KEY or GEMINI_API_KEY (none for ollama; optional for openai-compatible)
                  --base-url URL the provider's endpoint (required for openai-compatible)
                                 without --oracle or --model: the model bound in $DECKHAND_HOME
                  --parallel N   tasks at a time, each in its own virtual desktop (1..16, default 1)
                  --repeat K     run every task K times (1..100, default 1)
                  --shard I/N    only the tasks whose position in id order is I modulo N (0-based, like a Kubernetes
                                 completion index); needs --out, and the report is not kept in $DECKHAND_HOME/eval/
                  --out DIR      write report.json and report.md there (they are also kept in $DECKHAND_HOME/eval/),
                                 and the app's and the run's output of every run not as expected in DIR/logs/
                merge            one report from the reports of shards 0/N..N-1/N of one run, with the totals an unsharded
                                 run has: written to --out DIR and kept in $DECKHAND_HOME/eval/
                exit: 0 every run ended as its task expects (with a model: no harness error), 1 otherwise,
                      2 nothing to run (no task, no model bound, no key) or shards that cannot be merged, 64 usage""";
    }

    /** The flags as picocli reads them; the values are checked by {@link #parse}. */
    @Command(name = "eval")
    static final class Flags {
        @Option(names = "--tasks")
        List<String> tasks = new ArrayList<>();

        @Option(names = "--only")
        List<String> only = new ArrayList<>();

        @Option(names = "--oracle")
        boolean oracle;

        @Option(names = "--model")
        String model;

        @Option(names = "--base-url")
        String baseUrl;

        @Option(names = "--parallel")
        String parallel;

        @Option(names = "--repeat")
        String repeat;

        @Option(names = "--out")
        String out;

        @Option(names = "--shard")
        String shard;
    }

    public static EvalOptions parse(List<String> args) {
        Flags f = new Flags();
        dev.deckhand.cli.StrictFlags.parse(f, args, UsageException::new);
        for (String value : f.tasks) needsValue("--tasks", value);
        for (String value : f.only) needsValue("--only", value);
        needsValue("--model", f.model);
        needsValue("--base-url", f.baseUrl);
        needsValue("--parallel", f.parallel);
        needsValue("--repeat", f.repeat);
        needsValue("--out", f.out);
        needsValue("--shard", f.shard);
        List<Path> tasks = new ArrayList<>(f.tasks.stream().map(Path::of).toList());
        List<String> only = f.only;
        boolean oracle = f.oracle;
        String model = f.model;
        String baseUrl = f.baseUrl;
        Integer parallel = f.parallel == null ? null : bounded("--parallel", f.parallel, MAX_PARALLEL);
        Integer repeat = f.repeat == null ? null : bounded("--repeat", f.repeat, MAX_REPEAT);
        Path out = f.out == null ? null : Path.of(f.out);
        Shard shard = null;
        if (f.shard != null) {
            try {
                shard = Shard.parse(f.shard);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        if (oracle && model != null) throw new UsageException("--oracle and --model exclude each other");
        if (baseUrl != null && model == null) throw new UsageException("--base-url needs --model");
        if (shard != null && out == null) {
            throw new UsageException(
                    "--shard needs --out DIR: a shard's report is merged from there (deckhand eval merge)");
        }
        String provider = null;
        String modelId = null;
        if (model != null) {
            int colon = model.indexOf(':');
            if (colon <= 0 || colon == model.length() - 1) {
                throw new UsageException("--model needs PROVIDER:MODEL, e.g. openai:gpt-4.1, was '" + model + "'");
            }
            provider = model.substring(0, colon);
            modelId = model.substring(colon + 1);
            if (Provider.byId(provider).isEmpty()) {
                throw new UsageException(
                        "--model's provider must be one of " + Provider.ids() + ", was '" + provider + "'");
            }
            if (Provider.byId(provider).get() == Provider.OPENAI_COMPATIBLE && baseUrl == null) {
                throw new UsageException("--model openai-compatible:... needs --base-url");
            }
        }
        for (String glob : only) {
            try {
                java.nio.file.FileSystems.getDefault().getPathMatcher("glob:" + glob);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--only is not a glob: " + e.getMessage());
            }
        }
        if (tasks.isEmpty()) tasks.add(Path.of("tasks"));
        return new EvalOptions(
                List.copyOf(tasks),
                List.copyOf(only),
                oracle,
                Optional.ofNullable(provider),
                Optional.ofNullable(modelId),
                Optional.ofNullable(baseUrl),
                parallel == null ? 1 : parallel,
                repeat == null ? 1 : repeat,
                Optional.ofNullable(out),
                Optional.ofNullable(shard));
    }

    /** A blank value is no value (as the shell passes an unset variable). */
    private static void needsValue(String flag, String value) {
        if (value != null && value.isBlank()) throw new UsageException(flag + " needs a value");
    }

    private static int bounded(String flag, String value, int max) {
        try {
            int n = Integer.parseInt(value);
            if (n >= 1 && n <= max) return n;
        } catch (NumberFormatException e) {
            // falls through to the message
        }
        throw new UsageException(flag + " needs an integer in 1.." + max + ", was '" + value + "'");
    }
}
