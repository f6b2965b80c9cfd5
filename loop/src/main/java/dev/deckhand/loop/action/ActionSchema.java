package dev.deckhand.loop.action;

import dev.deckhand.loop.json.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The strict action schema: one table ({@link #specs()}) from which both the JSON Schema sent to the
 * model ({@link #json()}) and the checks of {@link ActionParser} are made, so the two cannot drift.
 * JSON Schema draft 2020-12: a top-level {@code oneOf} with one closed object per action
 * ({@code additionalProperties: false}, every field required).
 */
public final class ActionSchema {

    /** The type of a field on the wire. */
    public enum FieldType { STRING, INTEGER }

    /**
     * One field of an action.
     *
     * @param min minimum length (strings) or value (integers)
     * @param max maximum length (strings) or value (integers)
     * @param allowed the only permitted values (strings), empty when any
     * @param pattern a regex the string must match, or null
     */
    public record FieldSpec(String name, FieldType type, long min, long max, List<String> allowed, String pattern,
            String description) {
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
    public record ActionSpec(String kind, Class<? extends Action> type, String description, List<FieldSpec> fields,
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

    private static final FieldSpec UID = FieldSpec.string("uid", 1, Action.MAX_UID,
            "the uid of an element in the current observation");

    private static final List<ActionSpec> SPECS = List.of(
            new ActionSpec("click", Action.Click.class, "Click, press, activate or toggle an element.",
                    List.of(UID), v -> new Action.Click(s(v, "uid"))),
            new ActionSpec("set_text", Action.SetText.class, "Replace the text of an editable element.",
                    List.of(UID, FieldSpec.string("text", 0, Action.MAX_TEXT, "the new text")),
                    v -> new Action.SetText(s(v, "uid"), s(v, "text"))),
            new ActionSpec("type", Action.Type.class, "Type text into the focused element.",
                    List.of(FieldSpec.string("text", 1, Action.MAX_TEXT, "the text to type")),
                    v -> new Action.Type(s(v, "text"))),
            new ActionSpec("key", Action.Key.class, "Press a key chord, e.g. ctrl+s or Enter.",
                    List.of(new FieldSpec("keys", FieldType.STRING, 1, Action.MAX_KEYS, List.of(), KeyChord.PATTERN,
                            "modifiers ctrl|alt|shift|super joined with + and one key name")),
                    v -> new Action.Key(s(v, "keys"))),
            new ActionSpec("focus", Action.Focus.class, "Move keyboard focus to an element.",
                    List.of(UID), v -> new Action.Focus(s(v, "uid"))),
            new ActionSpec("scroll", Action.Scroll.class, "Scroll an element.",
                    List.of(UID,
                            new FieldSpec("direction", FieldType.STRING, 1, 5, List.of("up", "down", "left", "right"), null,
                                    "the scroll direction"),
                            FieldSpec.integer("amount", Action.MIN_SCROLL, Action.MAX_SCROLL, "how many steps")),
                    v -> new Action.Scroll(s(v, "uid"), s(v, "direction"), i(v, "amount"))),
            new ActionSpec("select", Action.Select.class, "Select the option with this exact name in a list, combo box or menu.",
                    List.of(UID, FieldSpec.string("option", 1, Action.MAX_OPTION, "the option's exact name")),
                    v -> new Action.Select(s(v, "uid"), s(v, "option"))),
            new ActionSpec("click_at", Action.ClickAt.class,
                    "Click at pixel (x, y) of the capture whose id is basis; only when a capture is shown.",
                    List.of(FieldSpec.integer("x", 0, Action.MAX_COORDINATE, "pixels from the capture's left edge"),
                            FieldSpec.integer("y", 0, Action.MAX_COORDINATE, "pixels from the capture's top edge"),
                            FieldSpec.string("basis", 1, Action.MAX_BASIS, "the id of the capture")),
                    v -> new Action.ClickAt(i(v, "x"), i(v, "y"), s(v, "basis"))),
            new ActionSpec("wait", Action.Wait.class, "Wait for the application.",
                    List.of(FieldSpec.integer("ms", Action.MIN_WAIT_MS, Action.MAX_WAIT_MS, "milliseconds")),
                    v -> new Action.Wait(i(v, "ms"))),
            new ActionSpec("done", Action.Done.class, "The task is done; a verifier will check it.",
                    List.of(FieldSpec.string("summary", 0, Action.MAX_SUMMARY, "what was done")),
                    v -> new Action.Done(s(v, "summary"))),
            new ActionSpec("fail", Action.Fail.class, "The task cannot be done.",
                    List.of(FieldSpec.string("reason", 1, Action.MAX_SUMMARY, "why")),
                    v -> new Action.Fail(s(v, "reason"))));

    private static final Map<String, ActionSpec> BY_KIND = SPECS.stream()
            .collect(Collectors.toUnmodifiableMap(ActionSpec::kind, a -> a));

    private ActionSchema() {}

    /** Every action's spec, in the order of DESIGN.md §2. */
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

    /** The schema restricted to {@code kinds} (e.g. a route's permitted actions). */
    public static String json(Collection<String> kinds) {
        for (String k : kinds) {
            if (!BY_KIND.containsKey(k)) throw new IllegalArgumentException("unknown action kind " + k);
        }
        List<Object> oneOf = new ArrayList<>();
        for (ActionSpec a : SPECS) {
            if (kinds.contains(a.kind())) oneOf.add(objectSchema(a));
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        root.put("title", "Deckhand action");
        root.put("description", "Exactly one action as one flat JSON object; nothing before or after it.");
        root.put("oneOf", oneOf);
        return Json.write(root);
    }

    private static Map<String, Object> objectSchema(ActionSpec a) {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("action", Map.of("const", a.kind()));
        List<String> required = new ArrayList<>();
        required.add("action");
        for (FieldSpec f : a.fields()) {
            Map<String, Object> p = new LinkedHashMap<>();
            if (f.type() == FieldType.STRING) {
                p.put("type", "string");
                if (!f.allowed().isEmpty()) {
                    p.put("enum", f.allowed());
                } else {
                    p.put("minLength", f.min());
                    p.put("maxLength", f.max());
                }
                if (f.pattern() != null) p.put("pattern", f.pattern());
            } else {
                p.put("type", "integer");
                p.put("minimum", f.min());
                p.put("maximum", f.max());
            }
            p.put("description", f.description());
            props.put(f.name(), p);
            required.add(f.name());
        }
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("type", "object");
        o.put("description", a.description());
        o.put("properties", props);
        o.put("required", required);
        o.put("additionalProperties", false);
        return o;
    }

    private static String s(Map<String, Object> v, String k) {
        return (String) v.get(k);
    }

    private static int i(Map<String, Object> v, String k) {
        return Math.toIntExact((Long) v.get(k));
    }
}
