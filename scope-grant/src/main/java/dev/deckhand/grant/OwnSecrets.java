package dev.deckhand.grant;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Deckhand's own secrets (its tokens, the seal key, the bound API key, sign-in codes), as a matcher that
 * finds any of them in text shown on screen or about to leave the server.
 *
 * <p>A secret is matched by its random part — a leading provider prefix such as {@code sk-} or
 * {@code sk-proj-} is not secret and is dropped — as any run of {@link #RUN} characters of it, after folding
 * both sides the same way: NFKC per code point (full-width and compatibility forms become their plain
 * letters), case folded, and everything that is not a letter or a digit removed (whitespace, zero-width and
 * other format characters, punctuation, the {@code -} and {@code _} of base64url). Texts joined with
 * nothing between them ({@link #foundIn(List)}) also match a secret split across sibling nodes.
 *
 * <p>Immutable; {@link #none()} matches nothing.
 */
public final class OwnSecrets {

    /** The shortest run of a secret's folded random part that counts as the secret. */
    public static final int RUN = 12;

    /** What {@link #withhold} writes in place of a secret. */
    public static final String WITHHELD = "[withheld]";

    /** A provider's fixed prefix: words of letters (and a version digit) each ending in - or _. */
    private static final Pattern PREFIX = Pattern.compile("^(?:[A-Za-z]{1,12}[0-9]{0,2}[-_])+");

    private static final OwnSecrets NONE = new OwnSecrets(Map.of(), 0);

    /** Every run of every secret, to the secret's name ("owner token", ...). */
    private final Map<String, String> runs;

    private final int unmatchable;

    private OwnSecrets(Map<String, String> runs, int unmatchable) {
        this.runs = runs;
        this.unmatchable = unmatchable;
    }

    public static OwnSecrets none() {
        return NONE;
    }

    /** The matcher of {@code secrets}, each named "secret"; null and blank entries are skipped. */
    public static OwnSecrets of(Collection<String> secrets) {
        Map<String, String> named = new LinkedHashMap<>();
        for (String s : secrets) if (s != null) named.put(s, "secret");
        return named(named);
    }

    /**
     * The matcher of the secrets that are the keys of {@code secrets}, each known by its value (what a
     * refusal names: "owner token", never the secret); null and blank secrets are skipped.
     */
    public static OwnSecrets named(Map<String, String> secrets) {
        Map<String, String> runs = new HashMap<>();
        int unmatchable = 0;
        for (Map.Entry<String, String> e : secrets.entrySet()) {
            String secret = e.getKey();
            if (secret == null || secret.isBlank()) continue;
            String folded = fold(randomPart(secret.strip()));
            if (folded.length() < RUN) {
                unmatchable++;
                continue;
            }
            for (int i = 0; i + RUN <= folded.length(); i++)
                runs.putIfAbsent(folded.substring(i, i + RUN), e.getValue());
        }
        return runs.isEmpty() && unmatchable == 0 ? NONE : new OwnSecrets(Map.copyOf(runs), unmatchable);
    }

    /** The secret without a provider's fixed prefix (kept whole when the prefix would leave too little). */
    static String randomPart(String secret) {
        String rest = PREFIX.matcher(secret).replaceFirst("");
        return fold(rest).length() >= RUN ? rest : secret;
    }

    /** How many secrets were too short to be matched (their random part folds to fewer than {@link #RUN}). */
    public int unmatchable() {
        return unmatchable;
    }

    public boolean isEmpty() {
        return runs.isEmpty();
    }

    /** The text as it is compared: NFKC per code point, case folded, letters and digits only. */
    public static String fold(String text) {
        return Folded.of(text).text;
    }

    /** Whether {@code text} carries one of the secrets. */
    public boolean foundIn(String text) {
        return which(text).isPresent();
    }

    /** Whether the texts, joined with nothing between them (sibling nodes), carry one of the secrets. */
    public boolean foundIn(List<String> texts) {
        return which(texts).isPresent();
    }

    /** The name of the first secret {@code text} carries. */
    public Optional<String> which(String text) {
        if (runs.isEmpty() || text == null) return Optional.empty();
        String folded = fold(text);
        int at = first(folded, 0);
        return at < 0 ? Optional.empty() : Optional.of(runs.get(folded.substring(at, at + RUN)));
    }

    /** {@link #which(String)} of the texts joined with nothing between them (sibling nodes). */
    public Optional<String> which(List<String> texts) {
        if (runs.isEmpty()) return Optional.empty();
        StringBuilder joined = new StringBuilder();
        for (String t : texts) if (t != null) joined.append(fold(t));
        return which(joined.toString());
    }

    /**
     * {@code text} with every secret replaced by {@link #WITHHELD}: the span of the original text from the
     * first to the last character of each matched run (spaced out, upper-cased or full-width forms included).
     */
    public String withhold(String text) {
        if (runs.isEmpty() || text == null) return text;
        Folded f = Folded.of(text);
        List<int[]> spans = new ArrayList<>();
        int at = first(f.text, 0);
        while (at >= 0) {
            int end = at + RUN;
            while (end < f.text.length() && runs.containsKey(f.text.substring(end - RUN + 1, end + 1))) end++;
            int from = f.source[at];
            int to = f.sourceEnd[end - 1];
            if (!spans.isEmpty() && spans.get(spans.size() - 1)[1] >= from) spans.get(spans.size() - 1)[1] = to;
            else spans.add(new int[] {from, to});
            at = first(f.text, end);
        }
        if (spans.isEmpty()) return text;
        StringBuilder out = new StringBuilder(text.length());
        int last = 0;
        for (int[] s : spans) {
            out.append(text, last, s[0]).append(WITHHELD);
            last = s[1];
        }
        return out.append(text, last, text.length()).toString();
    }

    private int first(String folded, int from) {
        for (int i = from; i + RUN <= folded.length(); i++) {
            if (runs.containsKey(folded.substring(i, i + RUN))) return i;
        }
        return -1;
    }

    /** A folded text, each of its chars mapped back to the code point of the original it came from. */
    private static final class Folded {
        final String text;
        final int[] source;
        final int[] sourceEnd;

        private Folded(String text, int[] source, int[] sourceEnd) {
            this.text = text;
            this.source = source;
            this.sourceEnd = sourceEnd;
        }

        static Folded of(String original) {
            Objects.requireNonNull(original, "text");
            StringBuilder out = new StringBuilder(original.length());
            int[] source = new int[original.length() * 4 + 4];
            int[] sourceEnd = new int[source.length];
            for (int i = 0; i < original.length(); ) {
                int cp = original.codePointAt(i);
                int next = i + Character.charCount(cp);
                String one = Normalizer.normalize(original.substring(i, next), Normalizer.Form.NFKC);
                String lower = one.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
                for (int j = 0; j < lower.length(); ) {
                    int c = lower.codePointAt(j);
                    j += Character.charCount(c);
                    if (!Character.isLetterOrDigit(c)) continue;
                    if (out.length() + 2 > source.length) {
                        source = java.util.Arrays.copyOf(source, source.length * 2);
                        sourceEnd = java.util.Arrays.copyOf(sourceEnd, sourceEnd.length * 2);
                    }
                    int start = out.length();
                    out.appendCodePoint(c);
                    for (int k = start; k < out.length(); k++) {
                        source[k] = i;
                        sourceEnd[k] = next;
                    }
                }
                i = next;
            }
            return new Folded(out.toString(), source, sourceEnd);
        }
    }
}
