package dev.deckhand.grant;

import java.util.Locale;

/** Wire-name lookup shared by the small enums of this package. */
final class Wire {

    private Wire() {}

    interface Named {
        String wire();
    }

    static <E extends Enum<E> & Named> E parse(Class<E> type, String field, String value) {
        if (value == null) {
            throw new IllegalArgumentException(field + " is required");
        }
        String v = value.trim().toLowerCase(Locale.ROOT);
        StringBuilder allowed = new StringBuilder();
        for (E e : type.getEnumConstants()) {
            if (e.wire().equals(v)) {
                return e;
            }
            allowed.append(allowed.length() == 0 ? "" : " | ").append(e.wire());
        }
        throw new IllegalArgumentException(field + " must be one of " + allowed + ", was '" + value + "'");
    }
}
