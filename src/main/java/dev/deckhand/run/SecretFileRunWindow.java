package dev.deckhand.run;

import dev.deckhand.home.SecretFileReads;
import dev.deckhand.loop.desktop.SecretFileWindow;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * A run's {@link SecretFileWindow} over the server's watch of the secret files ({@link SecretFileReads}),
 * opened only while the granted app runs commands ({@code Processes.runsCommands}: it or a descendant holds a
 * pseudo-terminal): an app that runs no commands cannot read a file it is not shown, and the person's own
 * scripts, which read the owner token whenever they like, are not taken for it.
 */
final class SecretFileRunWindow implements SecretFileWindow {

    private static final long RECHECK_NANOS = 1_000_000_000L;

    private final BooleanSupplier runsCommands;
    private boolean commands;
    private long checked = Long.MIN_VALUE;
    private boolean open;
    private long mark;

    SecretFileRunWindow(BooleanSupplier runsCommands) {
        this.runsCommands = Objects.requireNonNull(runsCommands, "runsCommands");
    }

    @Override
    public synchronized void acted() {
        if (open || !commands()) return;
        mark = SecretFileReads.arm();
        open = true;
    }

    /** Once an app runs commands it is taken to for the rest of the run; until then asked at most once a second. */
    private boolean commands() {
        long now = System.nanoTime();
        if (!commands && (checked == Long.MIN_VALUE || now - checked >= RECHECK_NANOS)) {
            checked = now;
            commands = runsCommands.getAsBoolean();
        }
        return commands;
    }

    @Override
    public synchronized Optional<String> closed() {
        if (!open) return Optional.empty();
        Optional<String> which = peek();
        end();
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
