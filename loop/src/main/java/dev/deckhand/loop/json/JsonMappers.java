package dev.deckhand.loop.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one place Deckhand's own Jackson mappers are configured. Every mapper Deckhand builds itself — the
 * loop's wire JSON ({@link Json}), the policy file, the model binding files, task files, the provider
 * client, {@code deckhand signin} — starts from {@link #strict()} (or {@link #builder(JsonFactory)} when a
 * caller needs its own factory), so that what each of them accepts is one decision. The Quarkus-managed
 * mapper (REST bodies, MCP) is Quarkus's, not built here.
 *
 * <p>Strict, and why:
 * <ul>
 *   <li><b>Duplicate keys are refused</b> ({@code STRICT_DUPLICATE_DETECTION}): with two values for one key,
 *       two readers (a checker and a user) may each see a different one. No caller accepts them today: the
 *       loop's parser and task files refused them already; a policy or model file with a duplicated key is
 *       now refused as invalid like any other malformed file ({@code CONFIG_MISSING} for the policy).
 *   <li><b>Text after the value is refused</b> ({@code FAIL_ON_TRAILING_TOKENS}): a file or body is one
 *       value. ({@link Json} turns it off and checks this itself, to name the offset in its message.)
 *   <li><b>Unknown properties are refused</b> ({@code FAIL_ON_UNKNOWN_PROPERTIES}) when binding to a type:
 *       the policy and model binding files relied on it (tests refuse a misspelt field); tree reads are
 *       unaffected, and their callers check field names themselves.
 *   <li><b>{@code null} for a primitive is refused</b> ({@code FAIL_ON_NULL_FOR_PRIMITIVES}) rather than
 *       read as zero: the policy file relied on it.
 *   <li><b>No lenient syntax</b>: comments, single quotes, unquoted names, trailing commas, leading zeros,
 *       NaN, unescaped control characters and the like are off (most are off in Jackson by default; they
 *       are named here so that no other default can turn them on).
 * </ul>
 * What stays with a caller: output formatting (the policy file is indented), {@link Json}'s escapes,
 * nesting limit and big-decimal floats.
 */
public final class JsonMappers {

    private JsonMappers() {}

    /** A new strict mapper. */
    public static ObjectMapper strict() {
        return builder(new JsonFactory()).build();
    }

    /** The strict settings on {@code factory}, for a caller that adds its own before {@code build()}. */
    public static JsonMapper.Builder builder(JsonFactory factory) {
        return JsonMapper.builder(factory)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(
                        DeserializationFeature.FAIL_ON_TRAILING_TOKENS,
                        DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES,
                        DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .disable(
                        JsonReadFeature.ALLOW_JAVA_COMMENTS,
                        JsonReadFeature.ALLOW_YAML_COMMENTS,
                        JsonReadFeature.ALLOW_SINGLE_QUOTES,
                        JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES,
                        JsonReadFeature.ALLOW_TRAILING_COMMA,
                        JsonReadFeature.ALLOW_MISSING_VALUES,
                        JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS,
                        JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS,
                        JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS,
                        JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER,
                        JsonReadFeature.ALLOW_LEADING_DECIMAL_POINT_FOR_NUMBERS,
                        JsonReadFeature.ALLOW_TRAILING_DECIMAL_POINT_FOR_NUMBERS,
                        JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS);
    }
}
