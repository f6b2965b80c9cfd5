package dev.deckhand.loop.steps;

import dev.deckhand.loop.json.JsonFields;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Names an element in scope without a uid: {@code {"role": "push button", "name": "=", "index": 0}}.
 *
 * @param role the platform's accessibility role in lower case (AT-SPI: {@code push button},
 *     {@code text}, {@code password text}, ...)
 * @param name matched exactly when present
 * @param index picks the n-th match (0-based) in document order when present; without it the
 *     selector must match exactly one element
 */
public record Selector(String role, Optional<String> name, Optional<Integer> index) {

    public static final int MAX_INDEX = 10_000;

    public Selector {
        if (role == null || role.isEmpty()) throw new IllegalArgumentException("role is required for target");
        if (!role.equals(role.toLowerCase(Locale.ROOT)))
            throw new IllegalArgumentException("role must be lower case for target");
        if (role.length() > 64) throw new IllegalArgumentException("role must be at most 64 characters for target");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(index, "index");
        if (name.isPresent() && name.get().length() > 1_000) {
            throw new IllegalArgumentException("name must be at most 1000 characters for target");
        }
        if (index.isPresent() && (index.get() < 0 || index.get() > MAX_INDEX)) {
            throw new IllegalArgumentException("index must be between 0 and " + MAX_INDEX + " for target");
        }
    }

    public static Selector of(String role, String name) {
        return new Selector(role, Optional.of(name), Optional.empty());
    }

    public static Selector of(String role, String name, int index) {
        return new Selector(role, Optional.of(name), Optional.of(index));
    }

    public static Selector ofRole(String role, int index) {
        return new Selector(role, Optional.empty(), Optional.of(index));
    }

    /** Reads a selector object strictly ({@code role} required; {@code name}, {@code index} optional). */
    public static Selector fromJson(Object value, String owner) {
        JsonFields f = JsonFields.of(value, owner).allowOnly(List.of("role", "name", "index"));
        String role = f.string("role", 1, 64);
        if (!role.equals(role.toLowerCase(Locale.ROOT))) {
            throw new dev.deckhand.loop.json.WireFormatException("role must be lower case for " + owner);
        }
        Optional<String> name = f.optionalString("name", 0, 1_000);
        Optional<Integer> index = f.optionalInteger("index", 0, MAX_INDEX).map(Long::intValue);
        return new Selector(role, name, index);
    }

    /** For messages: {@code push button named "=" #0}. */
    public String describe() {
        return role
                + name.map(n -> " named \"" + n + "\"").orElse("")
                + index.map(i -> " #" + i).orElse("");
    }
}
