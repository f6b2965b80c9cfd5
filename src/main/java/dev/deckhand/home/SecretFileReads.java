package dev.deckhand.home;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Who opens Deckhand's secret files. A granted app that runs what it is given (a shell, a file manager
 * that executes a script) runs as the person and can read the config directory, then show a token in a form
 * no matcher finds (reversed, cut up). What can be measured is the opening itself: the platform watches the
 * secret files ({@link Watch}, inotify on Linux), Deckhand reads them only through {@link #read}, which the
 * watch counts, and every open beyond Deckhand's own is a foreign read, told to the listeners and kept for the
 * runs to see.
 *
 * <p>Static, like {@link PublishedSecrets}, because the commands that run without a server read the same
 * files; without a watch installed (those commands, a platform without one) reads are plain reads.
 */
public final class SecretFileReads {

    /** The platform's watch over the secret files. */
    public interface Watch {

        /** Reads {@code file} as Deckhand's own open, so the watch does not count it as foreign. */
        String ownRead(Path file) throws IOException;

        /** The number of foreign opens seen so far (drained from the kernel first); only ever grows. */
        long foreignCount();

        /** The secret files opened by others after {@code mark} (a {@link #foreignCount} taken earlier). */
        Set<String> foreignSince(long mark);
    }

    /** What a lost event is called: which file was opened is not known. */
    public static final String UNKNOWN = "unknown";

    private static final Map<String, String> CALLED = Map.of(
            DeckhandHome.MCP_TOKEN,
            "MCP token",
            DeckhandHome.OWNER_TOKEN,
            "owner token",
            DeckhandHome.AUDIT_SEAL_KEY,
            "audit seal key",
            DeckhandHome.MODEL_API_KEY,
            "model API key",
            UNKNOWN,
            "secret files (the kernel lost events)");

    private static final java.util.concurrent.atomic.AtomicInteger ACTING =
            new java.util.concurrent.atomic.AtomicInteger();
    private static volatile Watch watch;
    private static volatile Consumer<Set<String>> listener = names -> {};

    private SecretFileReads() {}

    /** Installs the platform's watch (the server, at start). */
    public static void install(Watch w) {
        watch = Objects.requireNonNull(w, "watch");
    }

    /** Removes {@code w} if it is the one installed (the server stopping). */
    public static void uninstall(Watch w) {
        if (watch == w) watch = null;
    }

    /** Whether a watch is installed: without one no foreign read can be seen, and runs must not rely on it. */
    public static boolean watching() {
        return watch != null;
    }

    /** The secret files' names in the config directory: the tokens, the seal key, the model's API key. */
    public static Set<String> files() {
        return Set.of(
                DeckhandHome.MCP_TOKEN,
                DeckhandHome.OWNER_TOKEN,
                DeckhandHome.AUDIT_SEAL_KEY,
                DeckhandHome.MODEL_API_KEY);
    }

    /** What a refusal or a log line calls the file {@code name} (or {@link #UNKNOWN}). */
    public static String called(String name) {
        return CALLED.getOrDefault(name, "secret file");
    }

    /**
     * The one response to foreign reads (the server's, replaced when it starts again), called with the file
     * names each time others opened them, from whichever thread drained the events.
     */
    public static void onForeignRead(Consumer<Set<String>> response) {
        listener = Objects.requireNonNull(response, "response");
    }

    /** The watch tells the response. */
    public static void tell(Set<String> names) {
        listener.accept(names);
    }

    /** Reads a secret file as Deckhand's own open (US-ASCII, stripped). */
    public static String read(Path file) throws IOException {
        Watch w = watch;
        String text = w != null ? w.ownRead(file) : Files.readString(file, StandardCharsets.US_ASCII);
        return text.strip();
    }

    /** A mark to compare later reads against ({@code 0} without a watch). */
    public static long mark() {
        Watch w = watch;
        return w == null ? 0 : w.foreignCount();
    }

    /**
     * A run is about to give input: what was queued before is drained (and told while no window is open, so it
     * counts as the person's), then the window opens. Returns the mark the window's reads are compared with.
     */
    public static long arm() {
        long mark = mark();
        ACTING.incrementAndGet();
        return mark;
    }

    /** The window {@link #arm} opened is closed. */
    public static void disarm() {
        ACTING.decrementAndGet();
    }

    /** Whether some run's input window is open: a foreign read now may be the granted app's doing. */
    public static boolean acting() {
        return ACTING.get() > 0;
    }

    /** The secret files others opened after {@code mark}, the kernel's queue drained first. */
    public static Set<String> foreignSince(long mark) {
        Watch w = watch;
        return w == null ? Set.of() : w.foreignSince(mark);
    }
}
