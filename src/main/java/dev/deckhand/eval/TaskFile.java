package dev.deckhand.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.deckhand.grant.CaptureMode;
import dev.deckhand.grant.InputPolicy;
import dev.deckhand.grant.ScopeKind;
import dev.deckhand.loop.ToolLimits;
import dev.deckhand.loop.json.JsonMappers;
import dev.deckhand.loop.steps.StepParser;
import dev.deckhand.loop.verify.VerifierSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Reads one task file strictly (docs/design.md#task-format): unknown fields are refused, and every error names the
 * field. The verifier and the oracle are read by the same parsers a {@code computer} call uses, with
 * {@value TaskSpec#DIR} filled in by a sample path.
 */
public final class TaskFile {

    static final ObjectMapper JSON = JsonMappers.strict();

    /** What a task id may look like: it names files and report rows. */
    static final Pattern ID = Pattern.compile("[a-z0-9][a-z0-9._-]{0,99}");

    static final Set<String> FIELDS = Set.of(
            "id",
            "app",
            "files",
            "instruction",
            "grant",
            "verifier",
            "oracle",
            "expect",
            "maxSteps",
            "timeoutSeconds",
            "tags",
            "session",
            "note");
    static final Set<String> OUTCOMES =
            Set.of("completed", "failed", "refused", "stopped", "budget_exhausted", "expired", "timed_out");
    static final int MAX_FILE_BYTES = 1 << 20;

    /** A task file that could not be read: it becomes an {@code error} row of the report. */
    public static final class Invalid extends Exception {
        private final String id;

        Invalid(String id, String message) {
            super(message, null, false, false);
            this.id = id;
        }

        /** The task's id when the file names a valid one, else the file name. */
        public String id() {
            return id;
        }
    }

    private TaskFile() {}

    public static TaskSpec read(Path file) throws Invalid {
        String fallback = file.getFileName().toString().replaceFirst("\\.json$", "");
        JsonNode root;
        try {
            if (Files.size(file) > MAX_FILE_BYTES) throw new Invalid(fallback, file + " is larger than 1 MiB");
            root = JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new Invalid(
                    fallback,
                    file + " is not valid JSON: "
                            + e.getMessage().lines().findFirst().orElse(""));
        }
        String id = root != null
                        && root.path("id").isTextual()
                        && ID.matcher(root.path("id").asText()).matches()
                ? root.path("id").asText()
                : fallback;
        try {
            return parse(file, root);
        } catch (IllegalArgumentException e) {
            throw new Invalid(id, file.getFileName() + ": " + e.getMessage());
        }
    }

    static TaskSpec parse(Path file, JsonNode root) {
        if (root == null || !root.isObject()) throw new IllegalArgumentException("a task must be a JSON object");
        only(root, FIELDS, "task");
        String id = text(root, "id", "task");
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException(
                    "id must be 1..100 of a-z 0-9 . _ - starting with a letter or digit, was '" + id + "'");
        }
        JsonNode app = object(root, "app", "task");
        only(app, Set.of("command", "window"), "app");
        List<String> command = strings(app, "command", "app");
        JsonNode window = object(app, "window", "app");
        only(window, Set.of("titleMatches", "class"), "app.window");
        String title = optionalText(window, "titleMatches", "app.window");
        if (title != null) {
            try {
                Pattern.compile(title);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("app.window.titleMatches is not a regex: " + e.getDescription());
            }
        }
        TaskSpec.App theApp = new TaskSpec.App(command, title, optionalText(window, "class", "app.window"));
        if (root.has("files")) {
            JsonNode files = object(root, "files", "task");
            for (Iterator<String> it = files.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                checkRelative(name);
                if (!files.get(name).isTextual())
                    throw new IllegalArgumentException("files." + name + " must be a string");
            }
        }
        String instruction = text(root, "instruction", "task");
        if (instruction.length() > ToolLimits.MAX_INSTRUCTION) {
            throw new IllegalArgumentException(
                    "instruction must be at most " + ToolLimits.MAX_INSTRUCTION + " characters in task");
        }
        JsonNode grant = object(root, "grant", "task");
        only(
                grant,
                Set.of("scope", "inputPolicy", "capture", "consequential", "budget", "idleExpirySeconds", "blindInput"),
                "grant");
        if (grant.has("blindInput") && !grant.get("blindInput").isBoolean())
            throw new IllegalArgumentException("blindInput must be true or false in grant");
        wire(grant, "scope", ScopeKind::fromWire);
        wire(grant, "inputPolicy", InputPolicy::fromWire);
        wire(grant, "capture", CaptureMode::fromWire);
        if (grant.has("consequential")) strings(grant, "consequential", "grant", true);
        optionalInt(grant, "budget", "grant", 1, 10_000);
        optionalInt(grant, "idleExpirySeconds", "grant", 1, 86_400);
        String sample = "/tmp/deckhand-eval-sample";
        JsonNode verifier = object(root, "verifier", "task");
        try {
            VerifierSpec.parse(verifier.toString().replace(TaskSpec.DIR, sample));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("verifier: " + e.getMessage());
        }
        if (!root.path("oracle").isArray())
            throw new IllegalArgumentException("oracle is required (an array of steps) for task");
        try {
            StepParser.parse(root.get("oracle").toString().replace(TaskSpec.DIR, sample));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("oracle: " + e.getMessage());
        }
        TaskSpec.Expect expect = new TaskSpec.Expect("completed", null, null);
        if (root.has("expect")) {
            JsonNode e = object(root, "expect", "task");
            only(e, Set.of("outcome", "verdict", "refusal"), "expect");
            String outcome =
                    Optional.ofNullable(optionalText(e, "outcome", "expect")).orElse("completed");
            if (!OUTCOMES.contains(outcome))
                throw new IllegalArgumentException("expect.outcome must be one of " + OUTCOMES);
            String verdict = optionalText(e, "verdict", "expect");
            if (verdict != null && !Set.of("pass", "fail", "none").contains(verdict)) {
                throw new IllegalArgumentException("expect.verdict must be pass, fail or none");
            }
            String refusal = optionalText(e, "refusal", "expect");
            if (refusal != null && !refusal.matches("[A-Z][A-Z0-9_]{1,63}")) {
                throw new IllegalArgumentException("expect.refusal must be a refusal code such as SECURE_INPUT");
            }
            if (outcome.equals("refused") && refusal == null) {
                throw new IllegalArgumentException("expect.refusal is required when expect.outcome is refused");
            }
            expect = new TaskSpec.Expect(outcome, verdict, refusal);
        }
        // the computer tool's limits: the task's run goes through the same RunArguments
        optionalInt(root, "maxSteps", "task", 1, ToolLimits.MAX_MAX_STEPS);
        Integer timeout = optionalInt(root, "timeoutSeconds", "task", 1, ToolLimits.MAX_TIMEOUT_SECONDS);
        if (root.has("tags")) strings(root, "tags", "task", true);
        optionalText(root, "note", "task"); // why a task waits under pending/: for the reader, never run
        String session = optionalText(root, "session", "task");
        if (session != null && !Set.of("x11", "wayland").contains(session)) {
            throw new IllegalArgumentException("session must be x11 or wayland");
        }
        return new TaskSpec(id, file, theApp, instruction, expect, Optional.ofNullable(timeout), (ObjectNode) root);
    }

    private static void checkRelative(String name) {
        Path p = Path.of(name).normalize();
        if (name.isBlank()
                || p.isAbsolute()
                || p.startsWith("..")
                || name.contains(TaskSpec.DIR)
                || name.contains("\0")) {
            throw new IllegalArgumentException("files names must be relative paths inside {dir}, was '" + name + "'");
        }
    }

    private static void only(JsonNode node, Set<String> allowed, String owner) {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!allowed.contains(f)) throw new IllegalArgumentException("unknown field \"" + f + "\" in " + owner);
        }
    }

    private static JsonNode object(JsonNode node, String field, String owner) {
        JsonNode v = node.get(field);
        if (v == null || !v.isObject())
            throw new IllegalArgumentException(field + " is required (an object) in " + owner);
        return v;
    }

    private static String text(JsonNode node, String field, String owner) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new IllegalArgumentException(field + " is required (a non-empty string) in " + owner);
        }
        return v.asText();
    }

    private static String optionalText(JsonNode node, String field, String owner) {
        return node.has(field) ? text(node, field, owner) : null;
    }

    private static Integer optionalInt(JsonNode node, String field, String owner, int min, int max) {
        if (!node.has(field)) return null;
        JsonNode v = node.get(field);
        if (!v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
            throw new IllegalArgumentException(owner + "." + field + " must be an integer in " + min + ".." + max);
        }
        return v.asInt();
    }

    private static List<String> strings(JsonNode node, String field, String owner) {
        return strings(node, field, owner, false);
    }

    private static List<String> strings(JsonNode node, String field, String owner, boolean mayBeEmpty) {
        JsonNode v = node.get(field);
        if (v == null || !v.isArray() || (!mayBeEmpty && v.isEmpty())) {
            throw new IllegalArgumentException(
                    owner + "." + field + " must be a" + (mayBeEmpty ? "n" : " non-empty") + " array of strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode s : v) {
            if (!s.isTextual() || s.asText().isEmpty()) {
                throw new IllegalArgumentException(owner + "." + field + " must hold non-empty strings only");
            }
            out.add(s.asText());
        }
        return out;
    }

    /** Checks the field's wire name by parsing it: {@code parse} throws on a name it does not know. */
    private static void wire(JsonNode node, String field, java.util.function.Consumer<String> parse) {
        if (!node.has(field)) return;
        if (!node.get(field).isTextual()) throw new IllegalArgumentException("grant." + field + " must be a string");
        parse.accept(node.get(field).asText());
    }
}
