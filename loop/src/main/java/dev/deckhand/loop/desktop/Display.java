package dev.deckhand.loop.desktop;

import java.util.List;

/**
 * The display and its windows: which windows there are, which one is active, whether the display is a private
 * one and whether a window can take synthetic input. A part of the {@link Desktop} port.
 */
public interface Display {

    /** All top-level client windows, bottom to top. */
    List<WindowInfo> windows();

    /**
     * The top-level window active on the display now (X11: the window manager's {@code _NET_ACTIVE_WINDOW}),
     * named as {@link #windows()} names it; 0 when none is active or the platform cannot tell. Only read:
     * the guard reads it before a {@code focus} and around each delivered action, because Deckhand never
     * moves the person's focus (docs/security.md).
     */
    long activeWindow();

    /**
     * Whether this display is a private virtual desktop Deckhand started ({@code DECKHAND_PRIVATE_DESKTOP=1},
     * set by {@code scripts/desktop.sh} and the eval's desktops): nobody works on it, so there is no person's
     * focus to keep. Never true of the person's display.
     */
    boolean privateDesktop();

    /**
     * Whether the window can take synthetic input at all ({@code key}, {@code type}, {@code click_at}). False
     * for a native Wayland window (docs/wayland.md): routing then never offers those actions to the model.
     */
    boolean syntheticInput(long windowId);
}
