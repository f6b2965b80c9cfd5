package dev.deckhand.home;

import dev.deckhand.grant.OwnSecrets;

/**
 * The matcher of Deckhand's secrets that {@link KnownSecrets} published last, for the code that withholds
 * them where no bean can be injected: the log filter (made by Quarkus outside CDI) and the audit rows
 * (also written by processes without a server). A plain class with no dependency beyond the matcher, so
 * that such a process can load it. Nothing is withheld before a server published its secrets.
 */
public final class PublishedSecrets {

    private static volatile OwnSecrets current = OwnSecrets.none();

    private PublishedSecrets() {}

    static void publish(OwnSecrets secrets) {
        current = secrets;
    }

    public static OwnSecrets current() {
        return current;
    }

    /** {@code text} with every published secret withheld ({@link OwnSecrets#withhold}). */
    public static String withhold(String text) {
        return current.withhold(text);
    }
}
