package dev.deckhand.grant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("pure")
class OwnSecretsTest {

    private static final String TOKEN = "Qm9yZWRfb2Zfd2FpdGluZy1mb3ItdGhlLWJ1cy1hZ2Fpbg";
    private static final String API_KEY = "sk-proj-7fJ2kLq9XvB3nR8tYw1ZcD4hG6";

    private final OwnSecrets secrets = OwnSecrets.of(List.of(TOKEN, API_KEY));

    /** Every way of showing a secret this matcher claims to see, generated from the secret itself. */
    static List<String> showings(String secret, Random random) {
        List<String> out = new ArrayList<>();
        String mid = secret.substring(secret.length() - 20);
        out.add(mid);
        out.add("token: " + secret + " (copy)");
        out.add(mid.toUpperCase(Locale.ROOT));
        out.add(String.join(" ", mid.split("")));
        out.add(String.join("\u200b", mid.split("")));
        out.add(String.join("\u00ad", mid.split("")));
        StringBuilder wide = new StringBuilder();
        for (char c : mid.toCharArray()) {
            wide.appendCodePoint(Character.isLetterOrDigit(c) ? c - 0x21 + 0xFF01 : c);
        }
        out.add(wide.toString());
        StringBuilder mixed = new StringBuilder();
        for (char c : mid.toCharArray()) {
            mixed.append(random.nextBoolean() ? Character.toUpperCase(c) : Character.toLowerCase(c));
            if (random.nextInt(4) == 0) mixed.append(random.nextBoolean() ? ' ' : '\n');
        }
        out.add(mixed.toString());
        return out;
    }

    @Test
    void finds_each_secret_in_every_showing_and_withholds_it() {
        Random random = new Random(7);
        for (String secret : List.of(TOKEN, API_KEY)) {
            for (String shown : showings(secret, random)) {
                assertTrue(secrets.foundIn(shown), shown);
                String withheld = secrets.withhold("before " + shown + " after");
                assertFalse(secrets.foundIn(withheld), withheld);
                assertTrue(withheld.startsWith("before ") && withheld.endsWith(" after"), withheld);
                assertTrue(withheld.contains(OwnSecrets.WITHHELD), withheld);
            }
        }
    }

    @Test
    void a_secret_split_across_sibling_texts_is_found_when_joined() {
        String mid = TOKEN.substring(10, 30);
        List<String> siblings = List.of("File", mid.substring(0, 7), mid.substring(7, 13), mid.substring(13), "OK");
        for (String s : siblings) assertFalse(secrets.foundIn(s), s);
        assertTrue(secrets.foundIn(siblings));
    }

    @Test
    void the_provider_prefix_is_not_the_secret_and_short_runs_are_not_matched() {
        assertFalse(secrets.foundIn("sk-proj-"), "the fixed prefix alone");
        assertTrue(secrets.foundIn(API_KEY.substring(8, 8 + OwnSecrets.RUN)));
        assertFalse(secrets.foundIn(API_KEY.substring(8, 8 + OwnSecrets.RUN - 1)));
        assertFalse(secrets.foundIn(TOKEN.substring(3, 3 + OwnSecrets.RUN - 1)));
        assertEquals("7fJ2kLq9XvB3nR8tYw1ZcD4hG6", OwnSecrets.randomPart(API_KEY));
    }

    @Test
    void ordinary_text_is_left_alone() {
        String text = "The quick brown fox jumps over the lazy dog 1234567890 — Save, Send, Open…";
        assertFalse(secrets.foundIn(text));
        assertEquals(text, secrets.withhold(text));
        assertFalse(OwnSecrets.none().foundIn(TOKEN));
        assertEquals(TOKEN, OwnSecrets.none().withhold(TOKEN));
    }

    @Test
    void names_which_secret_it_found() {
        OwnSecrets named = OwnSecrets.named(java.util.Map.of(TOKEN, "owner token", API_KEY, "model API key"));
        assertEquals(java.util.Optional.of("owner token"), named.which("x " + TOKEN.substring(5, 25)));
        assertEquals(
                java.util.Optional.of("model API key"),
                named.which(List.of("a", API_KEY.substring(9, 16), API_KEY.substring(16))));
        assertEquals(java.util.Optional.empty(), named.which("nothing here at all, not one secret"));
    }

    @Test
    void a_secret_too_short_to_match_is_counted() {
        OwnSecrets s = OwnSecrets.of(List.of("sk-short", "", TOKEN));
        assertEquals(1, s.unmatchable());
        assertTrue(s.foundIn(TOKEN));
    }

    @Test
    void folding_is_nfkc_case_and_letters_digits() {
        assertEquals("abc123", OwnSecrets.fold("Ａ b\u200bC-1_2 3"));
        assertEquals("strasse", OwnSecrets.fold("STRASSE"));
        assertEquals("ss", OwnSecrets.fold("ß"));
    }
}
