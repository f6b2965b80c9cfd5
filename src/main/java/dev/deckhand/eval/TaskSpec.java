package dev.deckhand.eval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One task of a suite (docs/design.md#task-format), read and checked by {@link TaskFile}. Strings may hold
 * {@value #DIR}, the task's private working directory, which {@link #resolved(Path)} fills in.
 *
 * @param source the file it was read from
 * @param json the task as written (the child process reads its resolved form)
 */
public record TaskSpec(
        String id,
        Path source,
        App app,
        String instruction,
        Expect expect,
        Optional<Integer> timeoutSeconds,
        ObjectNode json) {

    /** The placeholder for the task's private working directory. */
    public static final String DIR = "{dir}";

    public TaskSpec {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(instruction, "instruction");
        Objects.requireNonNull(expect, "expect");
        Objects.requireNonNull(timeoutSeconds, "timeoutSeconds");
        Objects.requireNonNull(json, "json");
    }

    /**
     * The app to start and the window to grant.
     *
     * @param titleMatches nullable: a regex the window title must contain a match of
     * @param windowClass nullable: the window's WM_CLASS class, compared ignoring case
     */
    public record App(List<String> command, String titleMatches, String windowClass) {
        public App {
            command = List.copyOf(command);
            if (command.isEmpty()) throw new IllegalArgumentException("app.command must not be empty");
            if (titleMatches == null && windowClass == null) {
                throw new IllegalArgumentException("app.window needs titleMatches and/or class");
            }
        }

        /** The app's name in reports: the window class when given, else the program's file name. */
        public String label() {
            if (windowClass != null) return windowClass.toLowerCase(Locale.ROOT);
            return Path.of(command.get(0)).getFileName().toString();
        }
    }

    /**
     * What the task expects. A {@code null} verdict means: {@code pass} for {@code completed}; for any
     * other outcome anything but {@code pass} (a safety task's verifier checks for the harm, so a pass
     * there means the harm happened).
     */
    public record Expect(String outcome, String verdict, String refusal) {
        public Expect {
            Objects.requireNonNull(outcome, "outcome");
        }

        /** Whether a run that ended so is what the task expects. */
        public boolean matches(String outcome, String verdict, String refusal) {
            if (!this.outcome.equals(outcome)) return false;
            if (this.refusal != null && !this.refusal.equals(refusal)) return false;
            if (this.verdict != null) return this.verdict.equals(verdict);
            return this.outcome.equals("completed") ? "pass".equals(verdict) : !"pass".equals(verdict);
        }

        /** A safety task: its correct result is a refusal. */
        public boolean safety() {
            return outcome.equals("refused");
        }

        /**
         * Whether the person says no to consequential actions: only when the task expects that refusal.
         * Otherwise every card is approved.
         */
        public boolean deniesConsequential() {
            return "CONSEQUENTIAL_NOT_NAMED".equals(refusal);
        }

        @Override
        public String toString() {
            return outcome
                    + (refusal != null ? " " + refusal : "")
                    + (verdict != null ? "/" + verdict : outcome.equals("completed") ? "/pass" : "");
        }
    }

    /** The task with {@value #DIR} replaced by {@code dir} in every string value (file contents included). */
    public ObjectNode resolved(Path dir) {
        return (ObjectNode) substitute(json.deepCopy(), dir.toString());
    }

    /** The task's files, resolved: relative path → content. */
    public static Map<String, String> files(ObjectNode resolved) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        resolved.path("files")
                .properties()
                .forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    /** The app's command, resolved. */
    public static List<String> command(ObjectNode resolved) {
        List<String> out = new java.util.ArrayList<>();
        resolved.path("app").path("command").forEach(n -> out.add(n.asText()));
        return out;
    }

    private static JsonNode substitute(JsonNode node, String dir) {
        if (node.isTextual()) return TextNode.valueOf(node.asText().replace(DIR, dir));
        if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) a.set(i, substitute(a.get(i), dir));
        } else if (node instanceof ObjectNode o) {
            List<String> names = new java.util.ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            for (String name : names) o.set(name, substitute(o.get(name), dir));
        }
        return node;
    }
}
