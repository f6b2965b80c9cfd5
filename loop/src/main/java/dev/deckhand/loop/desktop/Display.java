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
     * The changes other programs made to the person's keyboard since the display was opened: its keysyms (outside
     * keycodes that had none, where Deckhand maps characters the layout lacks), its modifier map, or its enabled
     * controls (AccessX). The guard ends a run on the person's display during which the count moved: a task never
     * needs to remap the keyboard, and a remap can make the person's keys mean something else (docs/security.md).
     * {@link KeyboardChanges#UNWATCHED} where the platform cannot tell (Wayland).
     */
    KeyboardChanges keyboardChanges();

    /**
     * Whether the window can take synthetic input at all ({@code key}, {@code type}, {@code click_at}). False
     * for a native Wayland window (docs/wayland.md): routing then never offers those actions to the model.
     */
    boolean syntheticInput(long windowId);
}
