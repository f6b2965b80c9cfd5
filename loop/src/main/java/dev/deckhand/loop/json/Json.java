package dev.deckhand.loop.json;

import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Strict JSON (RFC 8259) for the wire shapes of the loop, on Jackson.
 *
 * <p>Reading maps objects to {@code Map<String, Object>} (insertion ordered), arrays to
 * {@code List<Object>}, strings to {@link String}, integers to {@link Long} (or {@link BigInteger}
 * when they do not fit), other numbers to {@link BigDecimal}, {@code true}/{@code false} to
 * {@link Boolean} and {@code null} to Java {@code null}. Strict: exactly one value with only
 * whitespace around it, no duplicate keys, no comments, no trailing commas, no leading zeros, no
 * single quotes, no NaN, no control characters in strings, nesting at most {@value #MAX_DEPTH} deep.
 * Every error is a {@link WireFormatException} naming where it was found.
 */
public final class Json {

    public static final int MAX_DEPTH = 64;

    /** Escapes U+2028 and U+2029 as well, so written text is also a safe JavaScript literal. */
    private static final CharacterEscapes LINE_SEPARATORS = new CharacterEscapes() {
        private final int[] ascii = standardAsciiEscapesForJSON();

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            if (ch == 0x2028) return new SerializedString("\\u2028");
            if (ch == 0x2029) return new SerializedString("\\u2029");
            return null;
        }
    };

    private static final ObjectMapper MAPPER = JsonMappers.builder(new JsonFactoryBuilder()
                    .characterEscapes(LINE_SEPARATORS)
                    // a value at depth MAX_DEPTH may still be a container: MAX_DEPTH + 1 open containers
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_DEPTH + 1)
                            .build())
                    .build())
            // parse() finds text after the value itself, to name its offset (the parsers' tests quote it)
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    private Json() {}

    /** Parses exactly one JSON value; anything but whitespace before or after it is refused. */
    public static Object parse(String text) {
        if (text == null) throw new WireFormatException("malformed JSON: no input");
        if (text.isBlank()) throw new WireFormatException("malformed JSON: empty input");
        try (JsonParser parser = MAPPER.createParser(text)) {
            Object value = MAPPER.readValue(parser, Object.class);
            long end = parser.currentLocation().getCharOffset();
            boolean more;
            try {
                more = parser.nextToken() != null;
            } catch (JsonProcessingException e) {
                more = true;
            }
            if (more)
                throw new WireFormatException(
                        "malformed JSON at offset " + end + ": unexpected text after the JSON value");
            return normalised(value);
        } catch (JsonProcessingException e) {
            throw new WireFormatException("malformed JSON at offset " + offset(e) + ": " + reason(e));
        } catch (java.io.IOException e) {
            throw new WireFormatException("malformed JSON: " + e.getMessage());
        }
    }

    /** Integers as {@link Long} (or {@link BigInteger}); objects and arrays unmodifiable. */
    private static Object normalised(Object v) {
        if (v instanceof Integer i) return i.longValue();
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put((String) k, normalised(x)));
            return Collections.unmodifiableMap(out);
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (Object x : l) out.add(normalised(x));
            return Collections.unmodifiableList(out);
        }
        return v;
    }

    private static long offset(JsonProcessingException e) {
        return e.getLocation() == null ? -1 : e.getLocation().getCharOffset();
    }

    private static String reason(JsonProcessingException e) {
        String why = e.getOriginalMessage();
        if (why.contains("nesting depth")) return "nesting deeper than " + MAX_DEPTH;
        int cut = why.indexOf('\n');
        return cut < 0 ? why : why.substring(0, cut);
    }

    /**
     * Writes {@code value} compactly. Accepts what {@link #parse} produces plus any {@code Map} with
     * string keys, {@code Iterable}, {@code Number}, {@code Boolean}, {@code CharSequence}, {@code Enum}
     * (its name) and {@code null}.
     */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value instanceof CharSequence c ? c.toString() : value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "cannot write " + value.getClass().getName() + " as JSON: " + e.getOriginalMessage(), e);
        }
    }
}
