package dev.deckhand.loop.verify;

import dev.deckhand.loop.json.Json;
import dev.deckhand.loop.json.JsonFields;
import dev.deckhand.loop.json.WireFormatException;
import dev.deckhand.loop.steps.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A declared verifier (docs/design.md#verifiers), read strictly from its wire shape by {@link #parse} /
 * {@link #fromJson}:
 * <pre>
 * {"kind": "a11y", "target": {"role": "text", "index": 0}, "expect": {"text": "84"}}   (or textContains, value, state)
 * {"kind": "window", "titleMatches": "^Untitled"}
 * {"kind": "file", "path": "/abs/path", "contains": "hello"}                         (or exists: true|false, sha256)
 * {"kind": "command", "argv": ["test", "-s", "/tmp/x"]}
 * </pre>
 */
public sealed interface VerifierSpec
        permits VerifierSpec.A11y, VerifierSpec.Window, VerifierSpec.File, VerifierSpec.Command {

    /** The wire {@code kind}. */
    String kind();

    /** Whether checking it reads the screen ({@code a11y}, {@code window}); {@code file} and {@code command} do not. */
    default boolean readsScreen() {
        return this instanceof A11y || this instanceof Window;
    }

    /** The longest {@code titleMatches} regex accepted: a pattern is a short description of a title. */
    int MAX_TITLE_PATTERN = 256;

    /** What an {@code a11y} verifier expects of the element. */
    enum A11yCheck {
        /** The element's text (its value when it has one, else its name) equals the operand. */
        TEXT("text"),
        /** The element's text contains the operand. */
        TEXT_CONTAINS("textContains"),
        /** The element has a value and it equals the operand. */
        VALUE("value"),
        /** The element is in the state named by the operand (one of {@link #STATES}). */
        STATE("state");

        public final String wire;

        A11yCheck(String wire) {
            this.wire = wire;
        }
    }

    /**
     * The states an {@code a11y} verifier can check: what the scoped tree records, and AT-SPI's state
     * names the driver reads ({@code checked}, {@code selected}, {@code expanded}, ...). A name with a
     * leading {@code !} checks its absence ({@code !checked}).
     */
    Set<String> STATES = Set.of(
            "enabled",
            "disabled",
            "focused",
            "editable",
            "showing",
            "checked",
            "selected",
            "expanded",
            "collapsed",
            "pressed",
            "indeterminate",
            "active",
            "visible",
            "focusable",
            "selectable",
            "checkable",
            "expandable",
            "sensitive",
            "multi-line",
            "single-line",
            "required",
            "read-only",
            "is-default",
            "armed",
            "busy",
            "modal",
            "invalid-entry",
            "visited",
            "has-popup");

    record A11y(Selector target, A11yCheck check, String operand) implements VerifierSpec {
        public A11y {
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(check, "check");
            Objects.requireNonNull(operand, "operand");
            if (check == A11yCheck.STATE
                    && !STATES.contains(operand.startsWith("!") ? operand.substring(1) : operand)) {
                throw new IllegalArgumentException("expect.state must be one of " + new java.util.TreeSet<>(STATES)
                        + ", or one of them after ! for its absence, for a11y verifier");
            }
        }

        @Override
        public String kind() {
            return "a11y";
        }
    }

    /**
     * The granted window's title matches {@code titleMatches} (Java regex, found anywhere; anchor it for a
     * whole match), at most {@link #MAX_TITLE_PATTERN} characters. {@link DesktopVerifier} bounds the
     * match's time as well: the title is the app's, the pattern the client's.
     */
    record Window(String titleMatches) implements VerifierSpec {
        public Window {
            Objects.requireNonNull(titleMatches, "titleMatches");
            if (titleMatches.isEmpty() || titleMatches.length() > MAX_TITLE_PATTERN) {
                throw new IllegalArgumentException(
                        "titleMatches must be 1.." + MAX_TITLE_PATTERN + " characters for window verifier");
            }
            try {
                Pattern.compile(titleMatches);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("titleMatches is not a valid regex for window verifier");
            }
        }

        public Pattern pattern() {
            return Pattern.compile(titleMatches);
        }

        @Override
        public String kind() {
            return "window";
        }
    }

    enum FileCheck {
        EXISTS,
        ABSENT,
        CONTAINS,
        SHA256
    }

    /**
     * @param path as the client gave it; which paths may be read (absolute, under the policy's verifier roots,
     *     no hidden component, outside the built-in denied set) is decided by the application before the run
     *     starts, with the refusal {@code OUT_OF_SCOPE}, and again where the file is opened
     * @param operand the text for CONTAINS, lower-case hex for SHA256, "" otherwise
     */
    record File(String path, FileCheck check, String operand) implements VerifierSpec {
        public File {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(check, "check");
            Objects.requireNonNull(operand, "operand");
            if (path.isEmpty() || path.indexOf('\0') >= 0)
                throw new IllegalArgumentException("path must be a non-empty path for file verifier");
            if (check == FileCheck.SHA256 && !operand.matches("[0-9a-f]{64}")) {
                throw new IllegalArgumentException("sha256 must be 64 hex digits for file verifier");
            }
        }

        @Override
        public String kind() {
            return "file";
        }
    }

    /** Runs only if the person enabled exactly this command in settings; exit code 0 passes. */
    record Command(List<String> argv) implements VerifierSpec {
        public Command {
            argv = List.copyOf(Objects.requireNonNull(argv, "argv"));
            if (argv.isEmpty()) throw new IllegalArgumentException("argv must not be empty for command verifier");
        }

        @Override
        public String kind() {
            return "command";
        }
    }

    static VerifierSpec parse(String json) {
        return fromJson(Json.parse(json));
    }

    /** Reads an already parsed verifier object (from {@link Json} or another JSON library). */
    static VerifierSpec fromJson(Object value) {
        JsonFields top = JsonFields.of(value, "verifier");
        Object kindValue = top.required("kind");
        if (!(kindValue instanceof String)) throw new WireFormatException("kind must be a string for verifier");
        String kind = (String) kindValue;
        String owner = kind + " verifier";
        JsonFields f = JsonFields.of(value, owner);
        try {
            switch (kind) {
                case "a11y": {
                    f.allowOnly(List.of("kind", "target", "expect"));
                    Selector target = Selector.fromJson(f.required("target"), "target of a11y verifier");
                    JsonFields e = JsonFields.of(f.required("expect"), "expect of a11y verifier")
                            .allowOnly(List.of("text", "textContains", "value", "state"));
                    List<A11yCheck> given = new ArrayList<>();
                    for (A11yCheck c : A11yCheck.values()) if (e.has(c.wire)) given.add(c);
                    if (given.size() != 1) {
                        throw new WireFormatException(
                                "expect must have exactly one of text, textContains, value, state for a11y verifier");
                    }
                    A11yCheck c = given.get(0);
                    return new A11y(
                            target, c, e.string(c.wire, c == A11yCheck.TEXT || c == A11yCheck.VALUE ? 0 : 1, 10_000));
                }
                case "window":
                    f.allowOnly(List.of("kind", "titleMatches"));
                    return new Window(f.string("titleMatches", 1, MAX_TITLE_PATTERN));
                case "file": {
                    f.allowOnly(List.of("kind", "path", "exists", "contains", "sha256"));
                    String path = f.string("path", 1, 4_096);
                    int n = (f.has("exists") ? 1 : 0) + (f.has("contains") ? 1 : 0) + (f.has("sha256") ? 1 : 0);
                    if (n != 1)
                        throw new WireFormatException(
                                "exactly one of exists, contains, sha256 is required for file verifier");
                    if (f.has("exists"))
                        return new File(path, f.bool("exists") ? FileCheck.EXISTS : FileCheck.ABSENT, "");
                    if (f.has("contains")) return new File(path, FileCheck.CONTAINS, f.string("contains", 1, 10_000));
                    return new File(
                            path, FileCheck.SHA256, f.string("sha256", 64, 64).toLowerCase(Locale.ROOT));
                }
                case "command": {
                    f.allowOnly(List.of("kind", "argv"));
                    List<?> raw = f.array("argv", 1, 64);
                    List<String> argv = new ArrayList<>();
                    for (int i = 0; i < raw.size(); i++) {
                        Object a = raw.get(i);
                        if (!(a instanceof String) || ((String) a).isEmpty() || ((String) a).length() > 4_096) {
                            throw new WireFormatException(
                                    "argv[" + i + "] must be a non-empty string for command verifier");
                        }
                        argv.add((String) a);
                    }
                    return new Command(argv);
                }
                default:
                    throw new WireFormatException(
                            "unknown verifier kind \"" + (kind.length() > 40 ? kind.substring(0, 40) : kind)
                                    + "\"; expected a11y, window, file or command");
            }
        } catch (IllegalArgumentException e) {
            throw new WireFormatException(e.getMessage());
        }
    }
}
