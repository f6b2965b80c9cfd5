package dev.deckhand.loop.route;

import dev.deckhand.grant.CaptureMode;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.observe.Roles;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The routing rule (pure). Applied in this order:
 * <ol>
 *   <li>Explicit {@code steps} → {@link Route#UID} (steps name elements by selector, so they need the
 *       tree); without a usable tree → {@code A11Y_UNAVAILABLE}. Steps with a {@code click_at} in window
 *       coordinates ({@link #routeSteps}) need a pixels grant and take {@link Route#HYBRID} on a window with a
 *       usable tree (selectors and points in one list), {@link Route#PIXELS} on one without; steps that name no
 *       element and no point (keys, text, waits) take {@link Route#PIXELS} on a window without a usable tree on a
 *       pixels grant (blind input, which the grant must allow).
 *   <li>A read-only instruction ({@link #readOnlyInstruction}) → {@link Route#READ_ONLY}, whatever the
 *       tree or capture mode: no input is ever given. Captures whenever the grant allows pixels.
 *   <li>A usable tree ({@link #usable}) on an {@code a11y_only} grant → {@link Route#UID}, no captures.
 *   <li>A usable tree on a {@code pixels} grant → {@link Route#HYBRID}: the tree and a capture every turn, uid
 *       actions and {@code click_at} (for what the tree does not show: a canvas, a custom widget).
 *   <li>No usable tree, a {@code pixels} grant → {@link Route#PIXELS} (captures and {@code click_at}).
 *   <li>Otherwise → {@code A11Y_UNAVAILABLE}: nothing to act on and no pixels allowed.
 * </ol>
 * A route that gives input requires a declared verifier ({@code NO_VERIFIER} otherwise); whether one
 * is needed is known before the tree is read: {@link #requiresVerifier}.
 */
public final class Router {

    /** Leading words that make an instruction a question or a check, not a task. */
    static final Set<String> READ_ONLY_VERBS = Set.of(
            "verify",
            "inspect",
            "describe",
            "read",
            "report",
            "tell",
            "what",
            "what's",
            "whats",
            "which",
            "who",
            "where",
            "when",
            "why",
            "how",
            "is",
            "are",
            "was",
            "were",
            "does",
            "did",
            "list",
            "count");

    /** Words after "check" that make it a check rather than ticking a check box. */
    static final Set<String> CHECK_OBJECTS = Set.of("whether", "that", "if");

    private Router() {}

    /**
     * Whether the instruction asks only to verify or inspect: its first word (after an optional
     * "please") is one of {@link #READ_ONLY_VERBS}, or it starts with "check whether|that|if".
     * Anything else (including "check the box", "can you click", "confirm the dialog") may give input.
     */
    public static boolean readOnlyInstruction(String instruction) {
        String[] w = Objects.requireNonNull(instruction, "instruction")
                .strip()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N}' ]+", " ")
                .strip()
                .split("\\s+");
        int i = 0;
        if (w.length > 0 && w[0].equals("please")) i++;
        if (i >= w.length || w[i].isEmpty()) return false;
        if (READ_ONLY_VERBS.contains(w[i])) return true;
        return w[i].equals("check") && i + 1 < w.length && CHECK_OBJECTS.contains(w[i + 1]);
    }

    /** A run may give input unless it has no steps and its instruction is read-only. */
    public static boolean requiresVerifier(String instruction, boolean hasSteps) {
        return hasSteps || !readOnlyInstruction(instruction);
    }

    /**
     * {@code NO_VERIFIER}, decided here only: a run that may give input ({@link #requiresVerifier}) without
     * a declared verifier. Known before any tree is read, so the loop refuses it before the run starts;
     * {@link #route} gives the same refusal for a route that gives input.
     */
    public static Optional<Refusal> verifierMissing(String instruction, boolean hasSteps, boolean hasVerifier) {
        return !hasVerifier && requiresVerifier(instruction, hasSteps) ? Optional.of(noVerifier()) : Optional.empty();
    }

    private static Refusal noVerifier() {
        return Refusal.noVerifier("a run that may give input needs a declared verifier");
    }

    /** Usable: complete (not partial) and with at least one showing, interactive element. */
    public static boolean usable(ScopedTree tree) {
        if (tree.partial()) return false;
        for (Node n : tree.nodes()) if (n.showing() && Roles.interactive(n.role())) return true;
        return false;
    }

    /**
     * The route of explicit steps. Steps without {@code click_at} take {@link #route}'s steps rule.
     * With a {@code click_at} (window coordinates, each bound to a capture of its own by the step runner) they
     * need a pixels grant ({@code OUT_OF_SCOPE} otherwise, before any step runs), and the tree only when another
     * step names an element by selector; the route is {@link Route#HYBRID} on a window with a usable tree and
     * {@link Route#PIXELS} on one without.
     *
     * @param targetsElements whether any step names an element by selector
     * @param windowPoints whether any step is a {@code click_at}
     */
    public static Routing routeSteps(
            boolean targetsElements,
            boolean windowPoints,
            boolean hasVerifier,
            boolean treeUsable,
            CaptureMode captureMode) {
        Objects.requireNonNull(captureMode, "captureMode");
        // keys and text alone need no tree on a pixels grant: they go to the window (blind input, which the grant
        // must allow: Policy.blind)
        boolean blindOnly = !windowPoints && !targetsElements && !treeUsable && captureMode == CaptureMode.PIXELS;
        if (!windowPoints && !blindOnly) return route("(explicit steps)", true, hasVerifier, treeUsable, captureMode);
        if (captureMode != CaptureMode.PIXELS) {
            throw new RefusedException(Refusal.outOfScope(
                    "click_at steps need a pixels grant; this grant captures no pixels (a11y_only)"));
        }
        if (targetsElements && !treeUsable) {
            throw new RefusedException(Refusal.a11yUnavailable(
                    "steps that name elements need the window's accessibility tree, which is missing or partial"));
        }
        if (!hasVerifier) throw new RefusedException(noVerifier());
        return treeUsable
                ? new Routing(
                        Route.HYBRID,
                        true,
                        "explicit steps name elements and click at window coordinates; the grant allows pixels")
                : new Routing(
                        Route.PIXELS,
                        true,
                        blindOnly
                                ? "explicit steps give keys and text to a window without a usable tree; the grant"
                                        + " allows pixels"
                                : "explicit steps click at window coordinates; the grant allows pixels");
    }

    /**
     * @throws RefusedException {@code A11Y_UNAVAILABLE} when nothing can be acted on, {@code NO_VERIFIER}
     *     when the route gives input and no verifier was declared
     */
    public static Routing route(
            String instruction, boolean hasSteps, boolean hasVerifier, boolean treeUsable, CaptureMode captureMode) {
        Objects.requireNonNull(captureMode, "captureMode");
        Routing r;
        if (hasSteps) {
            if (!treeUsable) {
                throw new RefusedException(Refusal.a11yUnavailable(
                        "explicit steps need the window's accessibility tree, which is missing or partial"));
            }
            r = new Routing(Route.UID, false, "explicit steps are resolved against the accessibility tree");
        } else if (readOnlyInstruction(instruction)) {
            r = new Routing(
                    Route.READ_ONLY,
                    captureMode == CaptureMode.PIXELS,
                    "a verify/inspect instruction never gives input");
        } else if (treeUsable && captureMode == CaptureMode.PIXELS) {
            r = new Routing(
                    Route.HYBRID,
                    true,
                    "the window has a usable accessibility tree and the grant allows pixels:"
                            + " the tree and a capture, uids and click_at");
        } else if (treeUsable) {
            r = new Routing(
                    Route.UID,
                    false,
                    "the window has a usable accessibility tree; the grant captures no pixels (a11y_only)");
        } else if (captureMode == CaptureMode.PIXELS) {
            r = new Routing(Route.PIXELS, true, "no usable accessibility tree; the grant allows pixels");
        } else {
            throw new RefusedException(Refusal.a11yUnavailable(
                    "the window has no usable accessibility tree and the grant captures no pixels (a11y_only);"
                            + " a pixels grant would allow the vision route (capture and click_at)"));
        }
        if (r.route().givesInput() && !hasVerifier) {
            throw new RefusedException(noVerifier());
        }
        return r;
    }
}
