package dev.deckhand.loop.action;

import dev.deckhand.loop.json.Json;
import dev.deckhand.loop.json.JsonFields;
import dev.deckhand.loop.json.WireFormatException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads one action strictly, against {@link ActionSchema}: the whole text must be exactly one JSON
 * object (whitespace around it is allowed; code fences, prose or a second value are not) of the flat
 * shape {@link ActionSchema#json(Collection)} describes; null fields count as absent. An unknown,
 * missing or unpermitted {@code action}, unknown keys, non-null fields of another action, missing
 * fields, wrong types, out-of-range values, empty uids/keys and over-long text are refused with a
 * {@link WireFormatException} naming the field and the action.
 */
public final class ActionParser {

    /** Longest raw model output read at all. */
    public static final int MAX_RAW = 65_536;

    private ActionParser() {}

    /** Parses any action. */
    public static Action parse(String raw) {
        return parse(raw, ActionSchema.kinds());
    }

    /** Parses an action whose kind must be in {@code permitted} (e.g. a route's actions). */
    public static Action parse(String raw, Collection<String> permitted) {
        if (raw == null || raw.isBlank())
            throw new WireFormatException("the output is empty; expected one JSON object");
        if (raw.length() > MAX_RAW)
            throw new WireFormatException("the output is longer than " + MAX_RAW + " characters");
        String trimmed = raw.strip();
        if (!trimmed.startsWith("{")) {
            throw new WireFormatException(
                    "the output must be exactly one JSON object with no text or code fences around it");
        }
        Object value = Json.parse(raw);
        return fromJson(value, permitted, "action");
    }

    /**
     * Reads an already parsed JSON object (e.g. from another JSON library) as an action, in the shape of
     * {@link ActionSchema#json(Collection)}: {@code action} must name a permitted kind; every key must be
     * in {@link ActionSchema#properties(Collection) the flat property set} of the permitted kinds (else
     * "unknown field"); a key whose value is null counts as absent, so both the strict form (every
     * property present, unused ones null) and the compact form (only the action's own fields) parse; a
     * non-null field the action does not take is refused ("text is not a field of click"); then each of
     * the action's fields is checked (required, type, bounds).
     *
     * @param owner what the object is, for messages (e.g. "step 2"); the action kind is appended
     */
    public static Action fromJson(Object value, Collection<String> permitted, String owner) {
        JsonFields obj = JsonFields.of(value, owner);
        Object kindValue = obj.has("action") ? obj.required("action") : null;
        if (kindValue == null) throw new WireFormatException("action is required for " + owner);
        if (!(kindValue instanceof String)) throw new WireFormatException("action must be a string for " + owner);
        String kind = (String) kindValue;
        ActionSchema.ActionSpec spec = ActionSchema.spec(kind)
                .orElseThrow(() -> new WireFormatException("unknown action \"" + abbreviate(kind)
                        + "\"; expected one of " + new TreeSet<>(ActionSchema.kinds())));
        if (!permitted.contains(kind)) {
            throw new WireFormatException(kind + " is not permitted here; permitted: " + new TreeSet<>(permitted));
        }
        String label = owner.equals("action") ? kind : owner + " (" + kind + ")";
        JsonFields.of(value, label).allowOnly(ActionSchema.properties(permitted));
        Set<String> own = new HashSet<>();
        own.add("action");
        spec.fields().forEach(f -> own.add(f.name()));
        Map<String, Object> present = new HashMap<>();
        TreeSet<String> foreign = new TreeSet<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
            if (e.getValue() == null) continue;
            String key = (String) e.getKey();
            if (!own.contains(key)) foreign.add(key);
            present.put(key, e.getValue());
        }
        if (!foreign.isEmpty()) throw new WireFormatException(foreign.first() + " is not a field of " + label);
        return build(spec, JsonFields.of(present, label));
    }

    static Action build(ActionSchema.ActionSpec spec, JsonFields fields) {
        Map<String, Object> values = new HashMap<>();
        for (ActionSchema.FieldSpec f : spec.fields()) {
            if (f.type() == ActionSchema.FieldType.STRING) {
                String v = f.allowed().isEmpty()
                        ? fields.string(f.name(), (int) f.min(), (int) f.max())
                        : fields.string(f.name(), 0, Integer.MAX_VALUE);
                if (!f.allowed().isEmpty() && !f.allowed().contains(v)) {
                    throw new WireFormatException(
                            f.name() + " must be one of " + String.join(", ", f.allowed()) + " for " + fields.owner());
                }
                values.put(f.name(), v);
            } else {
                values.put(f.name(), fields.integer(f.name(), f.min(), f.max()));
            }
        }
        try {
            return spec.factory().apply(values);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new WireFormatException(e.getMessage());
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }
}
