package dev.deckhand.audit;

/** Validation shared by the record types: identifiers are short, single-line tokens. */
final class Fields {
    static final int MAX_ID = 256;
    static final int MAX_INSTRUCTION = 20_000;

    private Fields() {}

    /** Requires a non-blank identifier of at most 256 chars without control characters. */
    static String id(String field, String value) {
        if (value == null) {
            throw new IllegalArgumentException(field + " is required");
        }
        return optId(field, value);
    }

    /** Like {@link #id} but allows null. */
    static String optId(String field, String value) {
        if (value == null) {
            return null;
        }
        if (value.isBlank()) {
            throw new IllegalArgumentException(field + " must not be blank");
        }
        if (value.length() > MAX_ID) {
            throw new IllegalArgumentException(field + " must be at most " + MAX_ID + " characters");
        }
        for (int i = 0; i < value.length(); i++) {
            if (Character.isISOControl(value.charAt(i))) {
                throw new IllegalArgumentException(field + " must not contain control characters");
            }
        }
        return value;
    }

    static <T> T required(String field, T value) {
        if (value == null) {
            throw new IllegalArgumentException(field + " is required");
        }
        return value;
    }

    static long nonNegative(String field, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " must be >= 0");
        }
        return value;
    }
}
