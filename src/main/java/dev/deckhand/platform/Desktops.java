package dev.deckhand.platform;

import dev.deckhand.loop.desktop.Desktop;

/**
 * Opens the platform's desktop driver on first use and keeps it. Every failure is a refusal with
 * its code ({@code HEADLESS}, {@code A11Y_UNAVAILABLE}, {@code PLATFORM_UNSUPPORTED}, ...), thrown as
 * {@link dev.deckhand.grant.RefusedException}; a later call tries again.
 */
public interface Desktops {

    Desktop desktop();
}
