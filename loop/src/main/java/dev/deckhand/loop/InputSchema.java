package dev.deckhand.loop;

import dev.deckhand.loop.action.ActionSchema;
import dev.deckhand.loop.json.Json;
import dev.deckhand.loop.steps.Selector;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code computer} tool's published input schema, built from the same constants the arguments are read
 * with ({@link ToolLimits}, {@link ActionSchema}'s field table, {@link Selector#MAX_INDEX}), so that what a
 * client is told and what {@link RunArguments} accepts cannot drift — as {@link ActionSchema} does for the
 * model's side. Pure: a JSON object tree of maps and lists; the MCP server publishes it as is.
 */
public final class InputSchema {

    /** Step actions: every action but the model's {@code done} and {@code fail}, in the table's order. */
    static final List<String> STEP_ACTIONS = ActionSchema.specs().stream()
            .map(ActionSchema.ActionSpec::kind)
            .filter(k -> !k.equals("done") && !k.equals("fail"))
            .toList();

    /** What a step field means where the table's own description (written for the model) does not fit. */
    private static final Map<String, String> STEP_FIELD_NOTES = Map.of(
            "text",
            "set_text: the new text. type: printable text only, no tab, newline or other control character;"
                    + " press Tab, Enter or Escape with a key step.",
            "keys",
            "A key chord such as ctrl+s or Enter. Chords the desktop takes (super/meta/hyper, ctrl+alt+...,"
                    + " alt+Tab/Escape/space/F1-F12, ctrl+F1-F12, Print) are refused SYSTEM_CHORD.",
            "x",
            "click_at: window coordinates.",
            "y",
            "click_at: window coordinates.");

    private static final String JSON = Json.write(build());

    private InputSchema() {}

    /** The schema as JSON text. */
    public static String json() {
        return JSON;
    }

    /** The schema as a fresh, unmodifiable JSON object tree (integers as {@code Long}). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> tree() {
        return (Map<String, Object>) Json.parse(JSON);
    }

    private static Map<String, Object> build() {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put(
                "instruction",
                obj(
                        "type",
                        "string",
                        "minLength",
                        1,
                        "maxLength",
                        ToolLimits.MAX_INSTRUCTION,
                        "description",
                        "What to do in the granted window, in the user's words."));
        props.put(
                "steps",
                obj(
                        "type",
                        "array",
                        "maxItems",
                        ToolLimits.MAX_STEPS,
                        "description",
                        "Explicit actions run in order without a model. Each names its element by a selector"
                                + " resolved inside the grant's scope; an ambiguous or missing match is an error, never a guess."
                                + " click_at takes x, y in window coordinates and no basis: the step runner captures the window"
                                + " and binds it (pixel grants only).",
                        "items",
                        step()));
        props.put("verifier", verifier());
        props.put(
                "maxSteps",
                obj(
                        "type",
                        "integer",
                        "minimum",
                        1,
                        "maximum",
                        ToolLimits.MAX_MAX_STEPS,
                        "description",
                        "Lowers the grant's step ceiling, never raises it."));
        props.put(
                "timeoutSeconds",
                obj(
                        "type",
                        "integer",
                        "minimum",
                        1,
                        "maximum",
                        ToolLimits.MAX_TIMEOUT_SECONDS,
                        "description",
                        "Lowers the wall-clock ceiling, never raises it."));
        List<String> modes = new ArrayList<>();
        for (Mode m : Mode.values()) modes.add(m.wire());
        props.put(
                "mode",
                obj(
                        "type",
                        "string",
                        "enum",
                        modes,
                        "default",
                        Mode.DEFAULT.wire(),
                        "description",
                        "plan and goal are refused."));
        Map<String, Object> root =
                obj("type", "object", "additionalProperties", false, "required", List.of("instruction"));
        root.put("properties", props);
        root.put("$defs", obj("selector", selector()));
        return root;
    }

    /** One step: {@code action} and the union of the step actions' fields ({@code uid} becomes {@code target}). */
    private static Map<String, Object> step() {
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("action", obj("type", "string", "enum", STEP_ACTIONS));
        props.put("target", obj("$ref", "#/$defs/selector"));
        Map<String, List<ActionSchema.FieldSpec>> fields = new LinkedHashMap<>();
        for (ActionSchema.ActionSpec a : ActionSchema.specs()) {
            if (!STEP_ACTIONS.contains(a.kind())) continue;
            for (ActionSchema.FieldSpec f : a.fields()) {
                if (f.name().equals("uid") || f.name().equals("basis")) continue; // a step cannot know either
                fields.computeIfAbsent(f.name(), n -> new ArrayList<>()).add(f);
            }
        }
        fields.forEach((name, specs) -> props.put(name, field(specs)));
        Map<String, Object> step = obj("type", "object", "required", List.of("action"), "additionalProperties", false);
        step.put("properties", props);
        return step;
    }

    /** A field shared by several actions takes the widest bounds; the parser checks each action's own. */
    private static Map<String, Object> field(List<ActionSchema.FieldSpec> specs) {
        ActionSchema.FieldSpec first = specs.get(0);
        long min = specs.stream().mapToLong(ActionSchema.FieldSpec::min).min().orElseThrow();
        long max = specs.stream().mapToLong(ActionSchema.FieldSpec::max).max().orElseThrow();
        Map<String, Object> p = new LinkedHashMap<>();
        if (first.type() == ActionSchema.FieldType.STRING) {
            p.put("type", "string");
            if (!first.allowed().isEmpty()) {
                p.put("enum", first.allowed());
            } else {
                if (min > 0) p.put("minLength", min);
                p.put("maxLength", max);
            }
        } else {
            p.put("type", "integer");
            p.put("minimum", min);
            p.put("maximum", max);
        }
        String note = STEP_FIELD_NOTES.get(first.name());
        if (note != null) p.put("description", note);
        return p;
    }

    private static Map<String, Object> verifier() {
        Map<String, Object> expect =
                obj("type", "object", "additionalProperties", false, "minProperties", 1, "maxProperties", 1);
        expect.put(
                "properties",
                obj(
                        "text",
                        obj("type", "string"),
                        "textContains",
                        obj("type", "string"),
                        "value",
                        obj("type", "string"),
                        "state",
                        obj("type", "string")));
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("kind", obj("type", "string", "enum", List.of("a11y", "window", "file", "command")));
        props.put("target", obj("$ref", "#/$defs/selector"));
        props.put("expect", expect);
        props.put("titleMatches", obj("type", "string"));
        props.put("path", obj("type", "string"));
        props.put("exists", obj("type", "boolean"));
        props.put("contains", obj("type", "string"));
        props.put("sha256", obj("type", "string", "pattern", "^[0-9a-f]{64}$"));
        props.put("argv", obj("type", "array", "minItems", 1, "items", obj("type", "string")));
        Map<String, Object> v = obj(
                "type",
                "object",
                "description",
                "Required for any run that may give input. The verdict comes only from it.",
                "required",
                List.of("kind"));
        v.put("properties", props);
        return v;
    }

    private static Map<String, Object> selector() {
        Map<String, Object> s = obj("type", "object", "required", List.of("role"), "additionalProperties", false);
        s.put(
                "properties",
                obj(
                        "role",
                                obj(
                                        "type",
                                        "string",
                                        "minLength",
                                        1,
                                        "description",
                                        "Accessibility role in lower case, e.g. push button, text, password text."),
                        "name", obj("type", "string", "description", "Exact accessible name."),
                        "index",
                                obj(
                                        "type",
                                        "integer",
                                        "minimum",
                                        0,
                                        "maximum",
                                        Selector.MAX_INDEX,
                                        "description",
                                        "The n-th match in document order.")));
        return s;
    }

    /** An ordered JSON object from name, value pairs. */
    private static Map<String, Object> obj(Object... pairs) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) m.put((String) pairs[i], pairs[i + 1]);
        return m;
    }
}
