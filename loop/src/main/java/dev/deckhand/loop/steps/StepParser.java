package dev.deckhand.loop.steps;

import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.action.ActionSchema;
import dev.deckhand.loop.json.Json;
import dev.deckhand.loop.json.JsonFields;
import dev.deckhand.loop.json.WireFormatException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Reads explicit {@code steps}: a JSON array of actions in the wire form of docs/contract.md#actions where an
 * element action's {@code uid} is replaced by {@code target} holding a {@link Selector}, e.g.
 * {@code {"action": "set_text", "target": {"role": "text", "index": 0}, "text": "hello"}}.
 * Strict like {@link dev.deckhand.loop.action.ActionParser}; {@code uid} is refused in steps (a step
 * cannot know a uid). {@code click_at} takes {@code x}, {@code y} in window coordinates and no
 * {@code basis} (a step cannot know a capture): the step runner captures and binds it ({@link Step#WINDOW_POINT}).
 */
public final class StepParser {

    /** {@link dev.deckhand.loop.ToolLimits#MAX_STEPS}. */
    public static final int MAX_STEPS = dev.deckhand.loop.ToolLimits.MAX_STEPS;

    private StepParser() {}

    public static List<Step> parse(String json) {
        return fromJson(Json.parse(json));
    }

    /** Reads an already parsed JSON array (from this module's {@link Json} or another JSON library). */
    public static List<Step> fromJson(Object value) {
        if (!(value instanceof List<?>)) throw new WireFormatException("steps must be a JSON array");
        List<?> list = (List<?>) value;
        if (list.isEmpty()) throw new WireFormatException("steps must not be empty when given");
        if (list.size() > MAX_STEPS)
            throw new WireFormatException("steps must have at most " + MAX_STEPS + " elements");
        List<Step> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) out.add(step(list.get(i), "step " + (i + 1)));
        return List.copyOf(out);
    }

    private static Step step(Object value, String owner) {
        JsonFields obj = JsonFields.of(value, owner);
        Object kindValue = obj.required("action");
        if (!(kindValue instanceof String)) throw new WireFormatException("action must be a string for " + owner);
        String kind = (String) kindValue;
        ActionSchema.ActionSpec spec = ActionSchema.spec(kind)
                .orElseThrow(() -> new WireFormatException("unknown action \"" + kind + "\" for " + owner
                        + "; expected one of " + new TreeSet<>(ActionSchema.kinds())));
        String label = owner + " (" + kind + ")";
        if (spec.type() == Action.ClickAt.class) return windowPoint(value, owner, label);
        if (obj.has("uid")) throw new WireFormatException("uid is not allowed in steps; use target for " + label);
        List<String> allowed = new ArrayList<>();
        allowed.add("action");
        spec.fields().forEach(f -> {
            if (!f.name().equals("uid")) allowed.add(f.name());
        });
        if (spec.targetsElement()) allowed.add("target");
        JsonFields fields = JsonFields.of(value, label).allowOnly(allowed);
        Optional<Selector> target = Optional.empty();
        Object forBuild = value;
        if (spec.targetsElement()) {
            target = Optional.of(Selector.fromJson(fields.required("target"), "target of " + label));
            Map<String, Object> copy = new HashMap<>(castMap(value));
            copy.remove("target");
            copy.put("uid", Step.UNRESOLVED);
            forBuild = copy;
        }
        Action action = dev.deckhand.loop.action.ActionParser.fromJson(forBuild, ActionSchema.kinds(), owner);
        return new Step(action, target);
    }

    /** {@code click_at} in window coordinates: {@code x}, {@code y} and nothing else. */
    private static Step windowPoint(Object value, String owner, String label) {
        JsonFields fields = JsonFields.of(value, label);
        if (fields.has("basis")) {
            throw new WireFormatException(
                    "basis is not allowed in steps: the step runner captures the window and binds it for " + label
                            + "; give x, y in window coordinates");
        }
        fields.allowOnly(List.of("action", "x", "y"));
        Map<String, Object> copy = new HashMap<>(castMap(value));
        copy.put("basis", Step.WINDOW_POINT);
        Action action = dev.deckhand.loop.action.ActionParser.fromJson(copy, ActionSchema.kinds(), owner);
        return new Step(action, Optional.empty());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object value) {
        return (Map<String, Object>) value;
    }
}
