package dev.deckhand.eval;

import dev.deckhand.model.Provider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The flags of {@code deckhand eval}, read strictly (pure: no I/O, so {@code Main} checks them
 * before anything starts; 64 with the usage on a bad flag).
 *
 * @param model {@code PROVIDER:MODEL}, split
 * @param shard {@code --shard I/N}: only that slice of the tasks (which needs {@code --out})
 */
public record EvalOptions(List<Path> tasks, List<String> only, boolean oracle, Optional<String> provider,
        Optional<String> model, Optional<String> baseUrl, int parallel, int repeat, Optional<Path> out,
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

    public static EvalOptions parse(List<String> args) {
        List<Path> tasks = new ArrayList<>();
        List<String> only = new ArrayList<>();
        boolean oracle = false;
        String model = null;
        String baseUrl = null;
        Integer parallel = null;
        Integer repeat = null;
        Path out = null;
        Shard shard = null;
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < args.size(); i++) {
            String flag = args.get(i);
            if (!flag.startsWith("--")) throw new UsageException("unexpected argument '" + flag + "'");
            if (flag.equals("--oracle")) {
                if (oracle) throw new UsageException("--oracle is given twice");
                oracle = true;
                continue;
            }
            if (!Set.of("--tasks", "--only", "--model", "--base-url", "--parallel", "--repeat", "--out", "--shard").contains(flag)) {
                throw new UsageException("unknown flag " + flag);
            }
            if (!flag.equals("--tasks") && !flag.equals("--only") && !seen.add(flag)) {
                throw new UsageException(flag + " is given twice");
            }
            if (i + 1 >= args.size() || args.get(i + 1).isBlank()) throw new UsageException(flag + " needs a value");
            String value = args.get(++i);
            switch (flag) {
                case "--tasks" -> tasks.add(Path.of(value));
                case "--only" -> only.add(value);
                case "--model" -> model = value;
                case "--base-url" -> baseUrl = value;
                case "--parallel" -> parallel = bounded(flag, value, MAX_PARALLEL);
                case "--repeat" -> repeat = bounded(flag, value, MAX_REPEAT);
                case "--out" -> out = Path.of(value);
                case "--shard" -> {
                    try {
                        shard = Shard.parse(value);
                    } catch (IllegalArgumentException e) {
                        throw new UsageException(e.getMessage());
                    }
                }
                default -> throw new AssertionError(flag);
            }
        }
        if (oracle && model != null) throw new UsageException("--oracle and --model exclude each other");
        if (baseUrl != null && model == null) throw new UsageException("--base-url needs --model");
        if (shard != null && out == null) {
            throw new UsageException("--shard needs --out DIR: a shard's report is merged from there (deckhand eval merge)");
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
                throw new UsageException("--model's provider must be one of " + Provider.ids() + ", was '" + provider + "'");
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
        return new EvalOptions(List.copyOf(tasks), List.copyOf(only), oracle, Optional.ofNullable(provider),
                Optional.ofNullable(modelId), Optional.ofNullable(baseUrl), parallel == null ? 1 : parallel,
                repeat == null ? 1 : repeat, Optional.ofNullable(out), Optional.ofNullable(shard));
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
