package dev.deckhand.loop.json;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small strict JSON (RFC 8259) reader and writer, JDK only.
 *
 * <p>Reading maps objects to {@code Map<String, Object>} (insertion ordered, unmodifiable), arrays to
 * {@code List<Object>}, strings to {@link String}, integers to {@link Long} (or {@link BigInteger}
 * when they do not fit), other numbers to {@link BigDecimal}, {@code true}/{@code false} to
 * {@link Boolean} and {@code null} to Java {@code null}. Strict: exactly one value with only
 * whitespace around it, no duplicate keys, no comments, no trailing commas, no leading zeros, no
 * control characters in strings, nesting at most {@value #MAX_DEPTH} deep. Every error is a
 * {@link WireFormatException} naming the offset.
 */
public final class Json {

    public static final int MAX_DEPTH = 64;

    private final String s;
    private int pos;

    private Json(String s) {
        this.s = s;
    }

    /** Parses exactly one JSON value; anything but whitespace before or after it is refused. */
    public static Object parse(String text) {
        if (text == null) throw new WireFormatException("malformed JSON: no input");
        Json p = new Json(text);
        p.ws();
        if (p.pos >= text.length()) throw new WireFormatException("malformed JSON: empty input");
        Object v = p.value(0);
        p.ws();
        if (p.pos != text.length()) throw p.error("unexpected text after the JSON value");
        return v;
    }

    private WireFormatException error(String what) {
        return new WireFormatException("malformed JSON at offset " + pos + ": " + what);
    }

    private void ws() {
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') pos++;
            else break;
        }
    }

    private Object value(int depth) {
        if (depth > MAX_DEPTH) throw error("nesting deeper than " + MAX_DEPTH);
        if (pos >= s.length()) throw error("unexpected end of input");
        char c = s.charAt(pos);
        switch (c) {
            case '{': return object(depth);
            case '[': return array(depth);
            case '"': return string();
            case 't': literal("true"); return Boolean.TRUE;
            case 'f': literal("false"); return Boolean.FALSE;
            case 'n': literal("null"); return null;
            default:
                if (c == '-' || (c >= '0' && c <= '9')) return number();
                throw error("unexpected character '" + printable(c) + "'");
        }
    }

    private static String printable(char c) {
        return c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c);
    }

    private void literal(String word) {
        if (!s.startsWith(word, pos)) throw error("unexpected token");
        pos += word.length();
    }

    private Map<String, Object> object(int depth) {
        pos++; // {
        Map<String, Object> map = new LinkedHashMap<>();
        ws();
        if (peek() == '}') {
            pos++;
            return Collections.unmodifiableMap(map);
        }
        while (true) {
            ws();
            if (peek() != '"') throw error("expected a string key");
            int keyAt = pos;
            String key = string();
            ws();
            if (peek() != ':') throw error("expected ':'");
            pos++;
            ws();
            Object v = value(depth + 1);
            if (map.containsKey(key)) {
                pos = keyAt;
                throw error("duplicate key \"" + key + "\"");
            }
            map.put(key, v);
            ws();
            char c = peek();
            pos++;
            if (c == '}') return Collections.unmodifiableMap(map);
            if (c != ',') { pos--; throw error("expected ',' or '}'"); }
        }
    }

    private List<Object> array(int depth) {
        pos++; // [
        List<Object> list = new ArrayList<>();
        ws();
        if (peek() == ']') {
            pos++;
            return Collections.unmodifiableList(list);
        }
        while (true) {
            ws();
            list.add(value(depth + 1));
            ws();
            char c = peek();
            pos++;
            if (c == ']') return Collections.unmodifiableList(list);
            if (c != ',') { pos--; throw error("expected ',' or ']'"); }
        }
    }

    private char peek() {
        if (pos >= s.length()) throw error("unexpected end of input");
        return s.charAt(pos);
    }

    private String string() {
        pos++; // opening quote
        StringBuilder b = new StringBuilder();
        while (true) {
            if (pos >= s.length()) throw error("unterminated string");
            char c = s.charAt(pos++);
            if (c == '"') return b.toString();
            if (c < 0x20) { pos--; throw error("control character in string"); }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            if (pos >= s.length()) throw error("unterminated escape");
            char e = s.charAt(pos++);
            switch (e) {
                case '"': b.append('"'); break;
                case '\\': b.append('\\'); break;
                case '/': b.append('/'); break;
                case 'b': b.append('\b'); break;
                case 'f': b.append('\f'); break;
                case 'n': b.append('\n'); break;
                case 'r': b.append('\r'); break;
                case 't': b.append('\t'); break;
                case 'u':
                    if (pos + 4 > s.length()) throw error("short \\u escape");
                    int cp = 0;
                    for (int i = 0; i < 4; i++) {
                        int d = Character.digit(s.charAt(pos++), 16);
                        if (d < 0) { pos--; throw error("bad \\u escape"); }
                        cp = cp * 16 + d;
                    }
                    b.append((char) cp);
                    break;
                default:
                    pos--;
                    throw error("bad escape '\\" + printable(e) + "'");
            }
        }
    }

    private Object number() {
        int start = pos;
        if (s.charAt(pos) == '-') pos++;
        if (pos >= s.length()) throw error("bad number");
        if (s.charAt(pos) == '0') {
            pos++;
            if (pos < s.length() && Character.isDigit(s.charAt(pos))) throw error("leading zero in number");
        } else if (!digits()) {
            throw error("bad number");
        }
        boolean integral = true;
        if (pos < s.length() && s.charAt(pos) == '.') {
            pos++;
            integral = false;
            if (!digits()) throw error("bad fraction");
        }
        if (pos < s.length() && (s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
            pos++;
            integral = false;
            if (pos < s.length() && (s.charAt(pos) == '+' || s.charAt(pos) == '-')) pos++;
            if (!digits()) throw error("bad exponent");
        }
        String lit = s.substring(start, pos);
        if (!integral) return new BigDecimal(lit);
        BigInteger big = new BigInteger(lit);
        return big.bitLength() < 64 ? (Object) big.longValue() : big;
    }

    private boolean digits() {
        int start = pos;
        while (pos < s.length() && s.charAt(pos) >= '0' && s.charAt(pos) <= '9') pos++;
        return pos > start;
    }

    // ---------------------------------------------------------------- writing

    /**
     * Writes {@code value} compactly. Accepts what {@link #parse} produces plus any {@link Map} with
     * string keys, {@link Iterable}, {@link Number}, {@link Boolean}, {@link CharSequence},
     * {@link Enum} (its name) and {@code null}.
     */
    public static String write(Object value) {
        StringBuilder b = new StringBuilder();
        write(b, value, 0);
        return b.toString();
    }

    private static void write(StringBuilder b, Object v, int depth) {
        if (depth > MAX_DEPTH) throw new IllegalArgumentException("value nested deeper than " + MAX_DEPTH);
        if (v == null) {
            b.append("null");
        } else if (v instanceof CharSequence || v instanceof Enum<?>) {
            quote(b, v.toString());
        } else if (v instanceof Boolean) {
            b.append(v);
        } else if (v instanceof Number) {
            if (v instanceof Double || v instanceof Float) {
                double d = ((Number) v).doubleValue();
                if (Double.isNaN(d) || Double.isInfinite(d)) throw new IllegalArgumentException("not a JSON number: " + d);
            }
            b.append(v);
        } else if (v instanceof Map<?, ?>) {
            b.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                if (!(e.getKey() instanceof String)) throw new IllegalArgumentException("JSON object keys must be strings");
                if (!first) b.append(',');
                first = false;
                quote(b, (String) e.getKey());
                b.append(':');
                write(b, e.getValue(), depth + 1);
            }
            b.append('}');
        } else if (v instanceof Iterable<?>) {
            b.append('[');
            boolean first = true;
            for (Object o : (Iterable<?>) v) {
                if (!first) b.append(',');
                first = false;
                write(b, o, depth + 1);
            }
            b.append(']');
        } else {
            throw new IllegalArgumentException("cannot write " + v.getClass().getName() + " as JSON");
        }
    }

    /** Appends {@code text} as a JSON string literal. */
    public static void quote(StringBuilder b, String text) {
        b.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
            }
        }
        b.append('"');
    }
}
