package dev.deckhand.loop.desktop;

/**
 * A kind of accessibility event that shows an action landed (issue 15): settling returns on the first
 * of the kinds the action names instead of waiting for the app to go quiet.
 */
public enum Landing {
    /** Text inserted or deleted in an element. */
    TEXT,
    /** A value (slider, spin button, scroll bar) changed. */
    VALUE,
    /** A state changed (checked, pressed, selected, expanded, focused, ...). */
    STATE,
    /** Children added or removed (a list filled, a dialog or a new top-level of the app). */
    CHILDREN,
    /** An element's name changed (a window title among them). */
    NAME,
    /** What an element shows changed (scrolled, redrawn content). */
    VISIBLE
}
