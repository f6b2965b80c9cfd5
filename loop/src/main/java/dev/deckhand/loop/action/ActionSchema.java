package dev.deckhand.loop.action;

import dev.deckhand.loop.json.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The strict action schema: one table ({@link #specs()}) from which both the JSON Schema sent to the
 * model ({@link #json(Collection)}) and the checks of {@link ActionParser} are made, so the two cannot
 * drift. On the wire: one flat closed object, {@code action} plus the union of the permitted actions'
 * fields, every property required and every field nullable (strict structured output needs a root
 * object, not a {@code oneOf}).
 */
public final class ActionSchema {

    /** The type of a field on the wire. */
    public enum FieldType {
        STRING,
        INTEGER
    }

    /**
     * One field of an action.
     *
     * @param min minimum length (strings) or value (integers)
     * @param max maximum length (strings) or value (integers)
     * @param allowed the only permitted values (strings), empty when any
     * @param pattern a regex the string must match, or null
     */
    public record FieldSpec(
            String name, FieldType type, long min, long max, List<String> allowed, String pattern, String description) {
        public FieldSpec {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(type, "type");
            allowed = List.copyOf(allowed);
            Objects.requireNonNull(description, "description");
        }

        static FieldSpec string(String name, long min, long max, String description) {
            return new FieldSpec(name, FieldType.STRING, min, max, List.of(), null, description);
        }

        static FieldSpec integer(String name, long min, long max, String description) {
            return new FieldSpec(name, FieldType.INTEGER, min, max, List.of(), null, description);
        }
    }

    /** One action: its discriminator, record type, fields (besides {@code action}) and factory. */
    public record ActionSpec(
            String kind,
            Class<? extends Action> type,
            String description,
            List<FieldSpec> fields,
            Function<Map<String, Object>, Action> factory) {
        public ActionSpec {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(description, "description");
            fields = List.copyOf(fields);
            Objects.requireNonNull(factory, "factory");
        }

        public boolean targetsElement() {
            return ElementAction.class.isAssignableFrom(type);
        }
    }

    private static final FieldSpec UID =
            FieldSpec.string("uid", 1, Action.MAX_UID, "the uid of an element in the current observation");

    private static final List<ActionSpec> SPECS = List.of(
            new ActionSpec(
                    "click",
                    Action.Click.class,
                    "Click, press, activate or toggle an element.",
                    List.of(UID),
                    v -> new Action.Click(s(v, "uid"))),
            new ActionSpec(
                    "set_text",
                    Action.SetText.class,
                    "Replace the text of an editable element.",
                    List.of(UID, FieldSpec.string("text", 0, Action.MAX_TEXT, "the new text")),
                    v -> new Action.SetText(s(v, "uid"), s(v, "text"))),
            new ActionSpec(
                    "type",
                    Action.Type.class,
                    "Type printable text into the focused element. No control"
                            + " characters or line breaks: press Enter, Tab or Escape with key.",
                    List.of(FieldSpec.string(
                            "text",
                            1,
                            Action.MAX_TEXT,
                            "the printable text to type (no tab, newline or other control character)")),
                    v -> new Action.Type(s(v, "text"))),
            new ActionSpec(
                    "key",
                    Action.Key.class,
                    "Press a key chord, e.g. ctrl+s, Enter or Tab. Chords the desktop"
                            + " takes (super/meta/hyper, ctrl+alt+..., alt+Tab/Escape/space/F1-F12, ctrl+F1-F12, Print) are refused.",
                    List.of(new FieldSpec(
                            "keys",
                            FieldType.STRING,
                            1,
                            Action.MAX_KEYS,
                            List.of(),
                            KeyChord.PATTERN,
                            "modifiers ctrl|alt|shift joined with + and one key name")),
                    v -> new Action.Key(s(v, "keys"))),
            new ActionSpec(
                    "focus",
                    Action.Focus.class,
                    "Move keyboard focus to an element.",
                    List.of(UID),
                    v -> new Action.Focus(s(v, "uid"))),
            new ActionSpec(
                    "scroll",
                    Action.Scroll.class,
                    "Scroll an element.",
                    List.of(
                            UID,
                            new FieldSpec(
                                    "direction",
                                    FieldType.STRING,
                                    1,
                                    5,
                                    List.of("up", "down", "left", "right"),
                                    null,
                                    "the scroll direction"),
                            FieldSpec.integer("amount", Action.MIN_SCROLL, Action.MAX_SCROLL, "how many steps")),
                    v -> new Action.Scroll(s(v, "uid"), s(v, "direction"), i(v, "amount"))),
            new ActionSpec(
                    "select",
                    Action.Select.class,
                    "Select the option with this exact name in a list, combo box or menu.",
                    List.of(UID, FieldSpec.string("option", 1, Action.MAX_OPTION, "the option's exact name")),
                    v -> new Action.Select(s(v, "uid"), s(v, "option"))),
            new ActionSpec(
                    "click_at",
                    Action.ClickAt.class,
                    "Click at pixel (x, y) of the capture whose id is basis; only when a capture is shown.",
                    List.of(
                            FieldSpec.integer("x", 0, Action.MAX_COORDINATE, "pixels from the capture's left edge"),
                            FieldSpec.integer("y", 0, Action.MAX_COORDINATE, "pixels from the capture's top edge"),
                            FieldSpec.string("basis", 1, Action.MAX_BASIS, "the id of the capture")),
                    v -> new Action.ClickAt(i(v, "x"), i(v, "y"), s(v, "basis"))),
            new ActionSpec(
                    "wait",
                    Action.Wait.class,
                    "Wait for the application.",
                    List.of(FieldSpec.integer("ms", Action.MIN_WAIT_MS, Action.MAX_WAIT_MS, "milliseconds")),
                    v -> new Action.Wait(i(v, "ms"))),
            new ActionSpec(
                    "done",
                    Action.Done.class,
                    "The task is done; a verifier will check it.",
                    List.of(FieldSpec.string("summary", 0, Action.MAX_SUMMARY, "what was done")),
                    v -> new Action.Done(s(v, "summary"))),
            new ActionSpec(
                    "fail",
                    Action.Fail.class,
                    "The task cannot be done.",
                    List.of(FieldSpec.string("reason", 1, Action.MAX_SUMMARY, "why")),
                    v -> new Action.Fail(s(v, "reason"))));

    private static final Map<String, ActionSpec> BY_KIND =
            SPECS.stream().collect(Collectors.toUnmodifiableMap(ActionSpec::kind, a -> a));

    private ActionSchema() {}

    /** Every action's spec, in the order of docs/contract.md#actions. */
    public static List<ActionSpec> specs() {
        return SPECS;
    }

    /** Every action kind. */
    public static Set<String> kinds() {
        return BY_KIND.keySet();
    }

    public static Optional<ActionSpec> spec(String kind) {
        return Optional.ofNullable(BY_KIND.get(kind));
    }

    /** The full schema, every action. */
    public static String json() {
        return json(kinds());
    }

    /**
     * The schema sent to the model for a set of permitted kinds (e.g. a route's actions): one flat, closed
     * root object whose properties are {@code action} (an enum of the permitted kinds) and the union of
     * those kinds' fields, each nullable; every property is in {@code required} and
     * {@code additionalProperties} is false. This is the shape strict structured output demands (OpenAI
     * {@code strict: true}; a tool's input schema for Anthropic; Gemini and Ollama accept it).
     *
     * <p>Per-action rules that a flat schema cannot carry (which fields an action takes, string lengths)
     * are stated in the descriptions and enforced by {@link ActionParser}, which reads exactly this shape:
     * a field set to null counts as absent, the compact form (only the action's own fields) is accepted
     * too. String lengths are not sent as {@code minLength}/{@code maxLength}, which strict mode does
     * not accept; they are in the descriptions.
     */
    public static String json(Collection<String> kinds) {
        return SCHEMAS.computeIfAbsent(Set.copyOf(kinds), ActionSchema::build);
    }

    /** The schema is a pure function of the kinds: built once per set. */
    private static final java.util.concurrent.ConcurrentHashMap<Set<String>, String> SCHEMAS =
            new java.util.concurrent.ConcurrentHashMap<>();

    private static String build(Collection<String> kinds) {
        List<ActionSpec> chosen = chosen(kinds);
        Map<String, Object> props = new LinkedHashMap<>();
        Map<String, Object> action = new LinkedHashMap<>();
        action.put("type", "string");
        action.put("enum", chosen.stream().map(ActionSpec::kind).collect(Collectors.toList()));
        StringBuilder d = new StringBuilder("The action to perform.");
        for (ActionSpec a : chosen) d.append(' ').append(a.kind()).append(": ").append(a.description());
        d.append(" Set every field the chosen action does not use to null.");
        action.put("description", d.toString());
        props.put("action", action);
        for (Map.Entry<String, List<ActionSpec>> e : fieldUsers(chosen).entrySet()) {
            props.put(e.getKey(), propertySchema(e.getKey(), e.getValue()));
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("type", "object");
        root.put("description", "Exactly one action as one flat JSON object; nothing before or after it.");
        root.put("properties", props);
        root.put("required", new ArrayList<>(props.keySet()));
        root.put("additionalProperties", false);
        return Json.write(root);
    }

    /**
     * The flat property set for {@code kinds}: {@code action} then every field any of them takes, in the
     * order of {@link #specs()}. {@link ActionParser} refuses any other key as unknown.
     */
    public static Set<String> properties(Collection<String> kinds) {
        Set<String> out = new LinkedHashSet<>();
        out.add("action");
        out.addAll(fieldUsers(chosen(kinds)).keySet());
        return Collections.unmodifiableSet(out);
    }

    private static List<ActionSpec> chosen(Collection<String> kinds) {
        for (String k : kinds) {
            if (!BY_KIND.containsKey(k)) throw new IllegalArgumentException("unknown action kind " + k);
        }
        if (kinds.isEmpty()) throw new IllegalArgumentException("kinds must not be empty");
        return SPECS.stream().filter(a -> kinds.contains(a.kind())).collect(Collectors.toList());
    }

    /** Field name to the actions that take it, fields in first-appearance order. */
    private static Map<String, List<ActionSpec>> fieldUsers(List<ActionSpec> chosen) {
        Map<String, List<ActionSpec>> users = new LinkedHashMap<>();
        for (ActionSpec a : chosen) {
            for (FieldSpec f : a.fields())
                users.computeIfAbsent(f.name(), n -> new ArrayList<>()).add(a);
        }
        return users;
    }

    private static FieldSpec field(ActionSpec a, String name) {
        return a.fields().stream()
                .filter(f -> f.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    private static Map<String, Object> propertySchema(String name, List<ActionSpec> users) {
        FieldSpec first = field(users.get(0), name);
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        List<String> details = new ArrayList<>();
        for (ActionSpec a : users) {
            FieldSpec f = field(a, name);
            if (f.type() != first.type()
                    || !f.allowed().equals(first.allowed())
                    || !Objects.equals(f.pattern(), first.pattern())) {
                // A flat schema gives a field one type; the table must keep shared fields compatible.
                throw new IllegalStateException("field " + name + " differs in type between "
                        + users.get(0).kind() + " and " + a.kind());
            }
            min = Math.min(min, f.min());
            max = Math.max(max, f.max());
            details.add(detail(f));
        }
        Map<String, Object> p = new LinkedHashMap<>();
        if (first.type() == FieldType.STRING) {
            p.put("type", List.of("string", "null"));
            if (!first.allowed().isEmpty()) {
                List<Object> values = new ArrayList<>(first.allowed());
                values.add(null);
                p.put("enum", values);
            }
            if (first.pattern() != null) p.put("pattern", first.pattern());
        } else {
            p.put("type", List.of("integer", "null"));
            p.put("minimum", min);
            p.put("maximum", max);
        }
        StringBuilder d = new StringBuilder("Required for ");
        boolean same = details.stream().distinct().count() == 1;
        for (int i = 0; i < users.size(); i++) {
            if (i > 0) d.append(", ");
            d.append(users.get(i).kind());
            if (!same) d.append(" (").append(details.get(i)).append(')');
        }
        d.append("; null otherwise.");
        if (same) d.append(' ').append(capitalize(details.get(0))).append('.');
        p.put("description", d.toString());
        return p;
    }

    /** The per-action meaning and bounds of a field, e.g. "the text to type, 1 to 10000 characters". */
    private static String detail(FieldSpec f) {
        if (f.type() == FieldType.INTEGER) return f.description() + ", " + f.min() + " to " + f.max();
        if (!f.allowed().isEmpty()) return f.description() + ", one of " + String.join(", ", f.allowed());
        String bounds =
                f.min() == 0 ? "at most " + f.max() + " characters" : f.min() + " to " + f.max() + " characters";
        return f.description() + ", " + bounds;
    }

    private static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static String s(Map<String, Object> v, String k) {
        return (String) v.get(k);
    }

    private static int i(Map<String, Object> v, String k) {
        return Math.toIntExact((Long) v.get(k));
    }
}
