package dev.deckhand.loop.desktop;

/**
 * A kind of accessibility event that is an action's effect: settling returns soon after the
 * first of the kinds the action names instead of waiting for the app to go quiet. Only events that are
 * the effect itself count, never the by-products a press announces on its way (a button's pressed,
 * armed, checked or focused state, another element's sensitivity), which can come well before the effect.
 */
public enum Landing {
    /** Text inserted into an element (a deletion alone is the first half of a replacement, not a landing). */
    TEXT,
    /** A value (slider, spin button, scroll bar) changed. */
    VALUE,
    /** The element acted on gained the focus (the effect of a focus action only). */
    FOCUS,
    /** Children added (a list filled, a dialog or a new top-level of the app); a removal alone is not one. */
    CHILDREN,
    /** An element's name changed (a window title among them). */
    NAME,
    /** What an element shows changed (scrolled, redrawn content). */
    VISIBLE
}
