package dev.deckhand.loop.verify;

/**
 * Checks one declared verifier against the world. Implementations: {@link DesktopVerifier} for
 * {@code a11y} and {@code window}; the application for {@code file} and {@code command} (I/O).
 * May block; {@link VerifierRunner} caps it. Any exception counts as fail.
 */
@FunctionalInterface
public interface Verifier {

    VerifierResult verify(VerifierSpec spec) throws Exception;
}
