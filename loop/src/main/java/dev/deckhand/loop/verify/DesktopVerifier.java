package dev.deckhand.loop.verify;

import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.loop.steps.SelectorException;
import dev.deckhand.loop.steps.SelectorResolver;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Checks {@code a11y} and {@code window} verifiers through the {@link Desktop} port, inside the
 * granted window only; hands {@code file} and {@code command} to {@code others} (the application,
 * which does the I/O and knows which commands the person enabled).
 */
public final class DesktopVerifier implements Verifier {

    private final Desktop desktop;
    private final long windowId;
    private final LongSupplier revision;
    private final Verifier others;
    private final BooleanSupplier mayRecheck;

    /** As the five-argument constructor, rechecking whenever a check fails. */
    public DesktopVerifier(Desktop desktop, long windowId, LongSupplier revision, Verifier others) {
        this(desktop, windowId, revision, others, () -> true);
    }

    /**
     * @param mayRecheck asked before every recheck ({@link #RECHECKS}): false (e.g. after Stop) ends
     *     the verification with the reading it has, so a stopped run is not held up waiting for the app
     */
    public DesktopVerifier(
            Desktop desktop, long windowId, LongSupplier revision, Verifier others, BooleanSupplier mayRecheck) {
        this.desktop = Objects.requireNonNull(desktop, "desktop");
        this.windowId = windowId;
        this.revision = Objects.requireNonNull(revision, "revision");
        this.others = Objects.requireNonNull(others, "others");
        this.mayRecheck = Objects.requireNonNull(mayRecheck, "mayRecheck");
    }

    /**
     * How often a failing {@code a11y}, {@code window} or {@code file} check is read again, each time after the app
     * settles (at most {@link #RECHECK_SETTLE}): an app may still be writing its state when the run
     * ends (gnome-calculator writes a result from a worker thread, after the click's events went
     * quiet; galculator rebuilds its keypad 0.6-1.2 s after its Scientific Mode menu item on a loaded machine,
     * while ten rechecks of a quiet app took about 1 s). A check that holds is never read again; one that never
     * holds fails with its last reading, a few seconds later at most (each settle returns after 75 ms without
     * events, so 30 rechecks are at least about 2.3 s).
     */
    public static final int RECHECKS = 30;

    public static final Duration RECHECK_SETTLE = Duration.ofMillis(200);

    /** How long one {@code titleMatches} match may run; past it the verifier fails at once (no recheck). */
    public static final Duration REGEX_TIME_LIMIT = Duration.ofMillis(250);

    @Override
    public VerifierResult verify(VerifierSpec spec) throws Exception {
        if (spec instanceof VerifierSpec.Command) return others.verify(spec); // a command runs once: it may act
        try {
            VerifierResult r = check(spec, true);
            for (int i = 0;
                    i < RECHECKS && !r.passed() && !Thread.currentThread().isInterrupted() && mayRecheck.getAsBoolean();
                    i++) {
                desktop.trees().settle(RECHECK_SETTLE);
                r = check(spec, false);
            }
            return r;
        } catch (BoundedText.TimeLimitExceeded e) {
            return VerifierResult.fail("the titleMatches regex ran past its limit of " + REGEX_TIME_LIMIT.toMillis()
                    + " ms on the window's title and was stopped (counts as fail)");
        }
    }

    /**
     * @param first the first reading, right after the run: its tree may be the one the loop's last observation
     *     read ({@link dev.deckhand.loop.desktop.Trees#latestSnapshot}); a re-check, after a settle, always reads the tree again
     */
    private VerifierResult check(VerifierSpec spec, boolean first) throws Exception {
        // A file is re-read like the others: an app may still be writing it (LibreOffice saves in the background).
        if (spec instanceof VerifierSpec.File) return others.verify(spec);
        if (spec instanceof VerifierSpec.A11y) return a11y((VerifierSpec.A11y) spec, first);
        if (spec instanceof VerifierSpec.Window) return window((VerifierSpec.Window) spec);
        throw new AssertionError(spec);
    }

    private VerifierResult a11y(VerifierSpec.A11y spec, boolean first) {
        long rev = revision.getAsLong();
        ScopedTree tree = first
                ? desktop.trees().latestSnapshot(windowId, rev)
                : desktop.trees().snapshot(windowId, rev);
        Node n;
        try {
            n = SelectorResolver.resolve(spec.target(), tree);
        } catch (SelectorException e) {
            return VerifierResult.fail(e.getMessage());
        }
        // The selector is the caller's own, so it may be echoed; what the element shows is the window's and
        // the expected text may be a secret the caller typed: both are reported as lengths only.
        String what = spec.target().describe();
        String text = n.value() != null ? n.value() : n.name();
        String expected = "the expected text (" + chars(spec.operand()) + ")";
        switch (spec.check()) {
            case TEXT:
                return result(text.equals(spec.operand()), what + " text (" + chars(text) + ") equals " + expected);
            case TEXT_CONTAINS:
                return result(text.contains(spec.operand()), what + " text (" + chars(text) + ") contains " + expected);
            case VALUE:
                if (n.value() == null) return VerifierResult.fail(what + " has no readable value");
                return result(
                        n.value().equals(spec.operand()),
                        what + " value (" + chars(n.value()) + ") equals " + expected);
            case STATE:
                return result(state(n, spec.operand()), what + " is " + spec.operand());
            default:
                throw new AssertionError(spec.check());
        }
    }

    static boolean state(Node n, String state) {
        if (state.startsWith("!")) return !state(n, state.substring(1));
        switch (state) {
            case "enabled":
                return n.enabled();
            case "disabled":
                return !n.enabled();
            case "focused":
                return n.focused();
            case "editable":
                return n.editable();
            case "showing":
                return n.showing();
            case "single-line":
                return n.singleLine() || n.states().contains(state);
            case "is-default":
                return n.isDefault() || n.states().contains(state);
            default:
                return n.states().contains(state);
        }
    }

    private VerifierResult window(VerifierSpec.Window spec) {
        Optional<WindowInfo> w = desktop.display().windows().stream()
                .filter(x -> x.id() == windowId)
                .findFirst();
        if (w.isEmpty()) return VerifierResult.fail("the granted window " + windowId + " no longer exists");
        String title = w.get().title();
        BoundedText bounded = new BoundedText(title, System.nanoTime() + REGEX_TIME_LIMIT.toNanos(), System::nanoTime);
        return result(
                spec.pattern().matcher(bounded).find(),
                "the window's title (" + chars(title) + ") matches the titleMatches pattern ("
                        + chars(spec.titleMatches()) + ")");
    }

    private static VerifierResult result(boolean ok, String claim) {
        return ok ? VerifierResult.pass(claim) : VerifierResult.fail("not: " + claim);
    }

    /** A text as its length, the only fact of it a detail carries. */
    static String chars(String s) {
        int n = s.codePointCount(0, s.length());
        return n + (n == 1 ? " character" : " characters");
    }
}
