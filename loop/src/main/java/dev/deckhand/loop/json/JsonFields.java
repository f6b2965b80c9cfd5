package dev.deckhand.loop.json;

import java.math.BigInteger;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Strict reading of one JSON object's fields, with errors that name the field and what it belongs
 * to: {@code uid is required for click}, {@code amount must be between 1 and 50 for scroll}. Accepts
 * the shapes {@link Json#parse} produces and the equivalent ones of other JSON libraries (any
 * {@code Map} with string keys, {@code List}, boxed integers).
 */
public final class JsonFields {

    private final Map<?, ?> map;
    private final String owner;

    private JsonFields(Map<?, ?> map, String owner) {
        this.map = map;
        this.owner = owner;
    }

    /**
     * @param value a parsed JSON value that must be an object
     * @param owner what the object is, for messages ("click", "step 2 (click)", "a11y verifier")
     */
    public static JsonFields of(Object value, String owner) {
        if (!(value instanceof Map<?, ?>)) throw new WireFormatException(owner + " must be a JSON object");
        for (Object k : ((Map<?, ?>) value).keySet()) {
            if (!(k instanceof String)) throw new WireFormatException(owner + " has a non-string key");
        }
        return new JsonFields((Map<?, ?>) value, owner);
    }

    public String owner() {
        return owner;
    }

    public boolean has(String field) {
        return map.containsKey(field);
    }

    /** Refuses any field not in {@code allowed}, naming the first (alphabetically) unknown one. */
    public JsonFields allowOnly(Collection<String> allowed) {
        TreeSet<String> unknown = new TreeSet<>();
        for (Object k : map.keySet()) if (!allowed.contains(k)) unknown.add((String) k);
        if (!unknown.isEmpty()) {
            throw new WireFormatException("unknown field \"" + unknown.first() + "\" for " + owner);
        }
        return this;
    }

    /** The raw value of a field that must be present (null is not a value). */
    public Object required(String field) {
        if (!map.containsKey(field) || map.get(field) == null) {
            throw new WireFormatException(field + " is required for " + owner);
        }
        return map.get(field);
    }

    public String string(String field, int minLength, int maxLength) {
        Object v = required(field);
        if (!(v instanceof String)) throw new WireFormatException(field + " must be a string for " + owner);
        String s = (String) v;
        if (s.length() < minLength) {
            throw new WireFormatException(
                    minLength == 1
                            ? field + " must not be empty for " + owner
                            : field + " must be at least " + minLength + " characters for " + owner);
        }
        if (s.length() > maxLength) {
            throw new WireFormatException(field + " must be at most " + maxLength + " characters for " + owner);
        }
        return s;
    }

    public Optional<String> optionalString(String field, int minLength, int maxLength) {
        return has(field) ? Optional.of(string(field, minLength, maxLength)) : Optional.empty();
    }

    public long integer(String field, long min, long max) {
        Object v = required(field);
        Long n = asLong(v);
        if (n == null) throw new WireFormatException(field + " must be an integer for " + owner);
        if (n < min || n > max) {
            throw new WireFormatException(field + " must be between " + min + " and " + max + " for " + owner);
        }
        return n;
    }

    public Optional<Long> optionalInteger(String field, long min, long max) {
        return has(field) ? Optional.of(integer(field, min, max)) : Optional.empty();
    }

    public boolean bool(String field) {
        Object v = required(field);
        if (!(v instanceof Boolean)) throw new WireFormatException(field + " must be true or false for " + owner);
        return (Boolean) v;
    }

    public List<?> array(String field, int minSize, int maxSize) {
        Object v = required(field);
        if (!(v instanceof List<?>)) throw new WireFormatException(field + " must be an array for " + owner);
        List<?> l = (List<?>) v;
        if (l.size() < minSize)
            throw new WireFormatException(field + " must have at least " + minSize + " element(s) for " + owner);
        if (l.size() > maxSize)
            throw new WireFormatException(field + " must have at most " + maxSize + " elements for " + owner);
        return l;
    }

    private static Long asLong(Object v) {
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof BigInteger) {
            BigInteger b = (BigInteger) v;
            return b.bitLength() < 64 ? b.longValue() : (b.signum() > 0 ? Long.MAX_VALUE : Long.MIN_VALUE);
        }
        return null;
    }
}
