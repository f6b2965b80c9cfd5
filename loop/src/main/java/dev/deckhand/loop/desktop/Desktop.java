package dev.deckhand.loop.desktop;

import java.time.Duration;
import java.util.List;

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

    /** Click / press / activate / toggle the element. */
    void click(String uid);

    /** Replace the element's text (AT-SPI {@code set_text_contents}). */
    void setText(String uid, String text);

    void focus(String uid);

    /** @param direction up, down, left or right */
    void scroll(String uid, String direction, int amount);

    /** Select the child option named {@code option} of a list, combo box or menu. */
    void select(String uid, String option);

    /** Key chord (e.g. {@code ctrl+s}) to the window, without moving the pointer or stealing focus. */
    void key(long windowId, String keys);

    /** Type text into the window's focused element. */
    void type(long windowId, String text);

    /** Click at capture pixels {@code (x, y)} of {@code basis}; re-measures first ({@code BASIS_STALE}). */
    void clickAt(int x, int y, Basis basis);

    /** Scope-cropped window pixels, downscaled to {@code longEdge}, with their basis. */
    Capture capture(long windowId, long grantRevision, int longEdge);

    /** Re-measure: does {@code basis} still hold on screen? */
    boolean basisValid(Basis basis);

    /** The facts the policy needs, read now. */
    DesktopFacts facts();

    /** Wait (at most {@code max}) until the app's accessibility events go quiet. */
    void settle(Duration max);
}
