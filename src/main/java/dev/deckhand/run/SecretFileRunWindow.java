package dev.deckhand.run;

import dev.deckhand.home.SecretFileReads;
import dev.deckhand.loop.desktop.SecretFileWindow;
import java.util.Optional;

/** A run's {@link SecretFileWindow} over the server's watch of the secret files ({@link SecretFileReads}). */
final class SecretFileRunWindow implements SecretFileWindow {

    private boolean open;
    private long mark;

    @Override
    public synchronized void acted() {
        if (open) return;
        mark = SecretFileReads.arm();
        open = true;
    }

    @Override
    public synchronized Optional<String> closed() {
        if (!open) return Optional.empty();
        Optional<String> which = peek();
        open = false;
        SecretFileReads.disarm();
        return which;
    }

    @Override
    public synchronized Optional<String> peek() {
        if (!open) return Optional.empty();
        return SecretFileReads.foreignSince(mark).stream().findFirst().map(SecretFileReads::called);
    }

    @Override
    public synchronized void end() {
        if (!open) return;
        open = false;
        SecretFileReads.disarm();
    }
}
