package dev.deckhand.grant;

import java.security.SecureRandom;
import java.util.function.Supplier;

/** Opaque random ids ({@code prefix} + 16 lower-case base-32 characters, 80 bits). */
final class Ids {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz234567".toCharArray();

    private Ids() {}

    static Supplier<String> random(String prefix) {
        return () -> {
            byte[] b = new byte[16];
            RANDOM.nextBytes(b);
            StringBuilder sb = new StringBuilder(prefix);
            for (byte x : b) {
                sb.append(ALPHABET[(x & 0xff) % 32]);
            }
            return sb.toString();
        };
    }
}
