package dev.deckhand.loop.desktop;

import dev.deckhand.grant.Chord;

/**
 * The native calls that give input to a window: by element uid, by key chord or text, or at a captured pixel.
 * Each one is delivered after the loop's last check; none is ever a silent no-op reported as success. A part
 * of the {@link Desktop} port.
 */
public interface Input {

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
     * Key chord (normalised, {@link Chord}) to the window, without moving the pointer or stealing focus.
     */
    void key(long windowId, Chord chord);

    /**
     * Type printable text into the window's focused element, in short chunks, asking {@code gate} before
     * each chunk and stopping at the first refusal (thrown as {@link dev.deckhand.grant.RefusedException});
     * the chunks typed before it stay typed.
     */
    void type(long windowId, String text, DeliveryGate gate);

    /** Click at capture pixels {@code (x, y)} of {@code basis}; re-measures first ({@code BASIS_STALE}). */
    void clickAt(int x, int y, Basis basis);
}
