package dev.deckhand.home;

/**
 * Where a secret that lives only in memory (a sign-in code, a session id, a CSRF token) is made known while
 * it is valid, so that it is screened like the secrets on disk ({@link KnownSecrets}).
 */
public interface HeldSecrets {

    /** Nothing is screened: for code that runs without a server. */
    HeldSecrets NONE = new HeldSecrets() {
        @Override
        public void hold(String secret, String name) {}

        @Override
        public void release(String secret) {}
    };

    /** @param name what a refusal calls it ("sign-in code"), never the secret */
    void hold(String secret, String name);

    void release(String secret);
}
