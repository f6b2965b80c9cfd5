package dev.deckhand.platform.atspi;

import java.security.SecureRandom;
import java.util.function.Predicate;

/** Opaque element uids: {@code u} followed by five random base62 characters from a {@link SecureRandom}. */
final class UidMint {

    private static final char[] BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
    static final int RANDOM_CHARS = 5;

    private final SecureRandom random;

    UidMint(SecureRandom random) {
        this.random = random;
    }

    /** A fresh uid for which {@code taken} is false. */
    String mint(Predicate<String> taken) {
        while (true) {
            char[] c = new char[RANDOM_CHARS + 1];
            c[0] = 'u';
            for (int i = 1; i < c.length; i++) c[i] = BASE62[random.nextInt(BASE62.length)];
            String uid = new String(c);
            if (!taken.test(uid)) return uid;
        }
    }
}
