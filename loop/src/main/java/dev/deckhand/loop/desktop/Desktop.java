package dev.deckhand.loop.desktop;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * The narrow port to the desktop. Implementations live in the application's platform package (the
 * only code that touches native libraries). Every method either does what it says or throws
 * {@link dev.deckhand.grant.RefusedException} with its code ({@code HEADLESS},
 * {@code A11Y_UNAVAILABLE}, {@code BASIS_STALE}, {@code POINTER_WARP_REFUSED},
 * {@code WAYLAND_INPUT_UNSUPPORTED}, {@code PLATFORM_UNSUPPORTED}, {@code SECURE_INPUT}, ...);
 * none is ever a silent no-op reported as success.
 */
public interface Desktop {

    /** All top-level client windows, bottom to top. */
    List<WindowInfo> windows();

    /** The accessibility tree of one window, uids minted for {@code grantRevision}. */
    ScopedTree snapshot(long windowId, long grantRevision);

    /**
     * {@link #snapshot}, or the tree the desktop's last snapshot read when nothing can have changed since
     * (the verifier's first read right after the loop's observation, docs/driver-atspi.md#the-verifiers-first-read-may-reuse-the-loops-last-walk). An implementation returns an
     * earlier read only while it can tell that the read was complete, of this window and {@code grantRevision},
     * began after the last action it delivered, that the window (title, geometry, state, process) is the same
     * and no accessibility event of any app arrived since it began, and that it is younger than a bound the
     * implementation documents; else it walks. It never returns a tree of another window, revision or grant.
     * A read that waits for the app to catch up (a re-check) calls {@link #snapshot}. By default
     * {@link #snapshot}; a decorator forwards it explicitly.
     */
    default ScopedTree latestSnapshot(long windowId, long grantRevision) {
        return snapshot(windowId, grantRevision);
    }

    /** Click / press / activate / toggle the element. */
    void click(String uid);

    /** Replace the element's text (AT-SPI {@code set_text_contents}). */
    void setText(String uid, String text);

    void focus(String uid);

    /** @param direction up, down, left or right */
    void scroll(String uid, String direction, int amount);

    /** Select the child option named {@code option} of a list, combo box or menu. */
    void select(String uid, String option);

    /**
     * Key chord (normalised, {@link dev.deckhand.grant.Chord}) to the window, without moving the pointer or
     * stealing focus.
     */
    void key(long windowId, dev.deckhand.grant.Chord chord);

    /**
     * Type printable text into the window's focused element, in short chunks, asking {@code gate} before
     * each chunk and stopping at the first refusal (thrown as {@link dev.deckhand.grant.RefusedException});
     * the chunks typed before it stay typed.
     */
    void type(long windowId, String text, DeliveryGate gate);

    /**
     * Starts showing where the next action lands (the drawn cursor travels to the element, and shows a
     * press when {@code press}); returns at once, {@link #awaitShown()} waits for the arrival. Never decides
     * anything and never fails; by default nothing.
     */
    default void showElement(String uid, boolean press) {
    }

    /**
     * Returns once what {@link #showElement} or {@link #showPoint} started is shown (at once where the
     * showing is not paced). The loop calls it after its checks and before the last check. By default nothing.
     */
    default void awaitShown() {
    }

    /** {@link #showElement} for capture pixel {@code (x, y)} of {@code basis}. */
    default void showPoint(int x, int y, Basis basis) {
    }

    /**
     * Whether the window can take synthetic input at all ({@code key}, {@code type}, {@code click_at}). False
     * for a native Wayland window (docs/wayland.md): routing then never offers those actions to the model. No
     * default: a decorator that forgot it would answer true for a Wayland window.
     */
    boolean syntheticInput(long windowId);

    /**
     * The keyboard accelerators of the window's menu items, read now, collapsed menus included: a {@code key}
     * chord that is one is judged as a click on its item. {@link dev.deckhand.grant.Accelerators#UNKNOWN} where
     * the platform reads none (no accessibility tree, Wayland frames). No default: a decorator that forgot it
     * would hide every accelerator from the policy.
     */
    dev.deckhand.grant.Accelerators accelerators(long windowId);

    /** Click at capture pixels {@code (x, y)} of {@code basis}; re-measures first ({@code BASIS_STALE}). */
    void clickAt(int x, int y, Basis basis);

    /** Scope-cropped window pixels, downscaled to {@code longEdge}, with their basis. */
    Capture capture(long windowId, long grantRevision, int longEdge);

    /** Re-measure: does {@code basis} still hold on screen? */
    boolean basisValid(Basis basis);

    /**
     * The facts the policy needs, current: read now, or kept from an earlier read while no event says they
     * changed (an implementation that keeps them says how long a fact no event announces may be kept).
     */
    DesktopFacts facts();

    /**
     * {@link #facts()} with those behind the absolute refusals read now: the focused element and whether it
     * is a password field, another client's keyboard grab, the window list (Deckhand's own windows) and the X
     * focus, popups and screen lock. The guard's last check before a native call and its check before a
     * capture read these. No default: a decorator that forgot it would serve kept facts to the last check.
     */
    DesktopFacts freshFacts();

    /**
     * The top-level window active on the display now (X11: the window manager's {@code _NET_ACTIVE_WINDOW}),
     * named as {@link #windows()} names it; 0 when none is active or the platform cannot tell. Only read:
     * the guard reads it before a {@code focus} and around each delivered action, because Deckhand never
     * moves the person's focus (docs/security.md). No default: a decorator that forgot it would answer for
     * no display at all.
     */
    long activeWindow();

    /**
     * Whether this display is a private virtual desktop Deckhand started ({@code DECKHAND_PRIVATE_DESKTOP=1},
     * set by {@code scripts/desktop.sh} and the eval's desktops): nobody works on it, so there is no person's
     * focus to keep. No default: a decorator that forgot it must not exempt the person's display.
     */
    boolean privateDesktop();

    /**
     * Whether the window's app is expected on the accessibility bus (its process loads an accessibility
     * bridge) but shows no window there yet: it is starting. False by default.
     */
    default boolean starting(long windowId) {
        return false;
    }

    /**
     * Waits at most {@code max} for a {@link #starting} window's app to register, returning as soon as it
     * has; true once it has (or was never starting), false when it still has not.
     */
    default boolean awaitRegistered(long windowId, Duration max) {
        return !starting(windowId);
    }

    /** Wait (at most {@code max}) until the app's accessibility events go quiet. */
    void settle(Duration max);

    /**
     * Wait (at most {@code max}) for the last action to land: return once the burst of the first event of one
     * of {@code landings} since that action is over, else once the events go quiet. By default
     * {@link #settle(Duration)}.
     */
    default void settle(Duration max, Set<Landing> landings) {
        settle(max);
    }
}
