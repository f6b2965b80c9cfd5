package dev.deckhand.run;

import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.home.SecretFileReads;
import dev.deckhand.loop.desktop.SecretFileWindow;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A run's {@link SecretFileWindow} over the server's watch of the secret files ({@link SecretFileReads}),
 * opened only while the granted app runs commands ({@code Processes.runsCommands}: it or a descendant holds a
 * pseudo-terminal): an app that runs no commands cannot read a file it is not shown, and the person's own
 * scripts, which read the owner token whenever they like, are not taken for it. Once open it stays open until the
 * run ends — every read of the run reports a foreign open made at any time after the first input, since a command
 * may wait before it reads — and the grant stays watched after the run ({@link CommandGrants}). What no watch of the
 * files sees, a read of the server's memory, is refused instead: no input goes to an app that runs commands while a
 * process of it could read that memory.
 */
final class SecretFileRunWindow implements SecretFileWindow {

    private static final long RECHECK_NANOS = 1_000_000_000L;

    private final BooleanSupplier runsCommands;
    private final Runnable watchGrant;
    private final Supplier<Optional<String>> memoryReader;
    private boolean commands;
    private long checked = Long.MIN_VALUE;
    private boolean open;
    private long mark;

    /**
     * @param runsCommands whether the granted app runs commands, asked at inputs until it does
     * @param watchGrant called once, when the window opens: keeps the grant watched after the run
     * @param memoryReader why a process of the granted app could read the server's memory, asked before every input
     *     once the app runs commands; empty when none could
     */
    SecretFileRunWindow(BooleanSupplier runsCommands, Runnable watchGrant, Supplier<Optional<String>> memoryReader) {
        this.runsCommands = Objects.requireNonNull(runsCommands, "runsCommands");
        this.watchGrant = Objects.requireNonNull(watchGrant, "watchGrant");
        this.memoryReader = Objects.requireNonNull(memoryReader, "memoryReader");
    }

    @Override
    public synchronized void acted() {
        if (!commands()) return;
        memoryReader.get().ifPresent(why -> {
            throw new RefusedException(Refusal.outOfScope(why
                    + ": a command typed there could take Deckhand's secrets out of it, which no watch sees; "
                    + "Deckhand gives it no input (run Deckhand and the app as the person, not as root)"));
        });
        if (open) return;
        watchGrant.run();
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

    /** A read was made: what was opened since the first input; the window stays open until the run ends. */
    @Override
    public synchronized Optional<String> closed() {
        return peek();
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
