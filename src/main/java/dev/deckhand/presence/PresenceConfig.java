package dev.deckhand.presence;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;

/**
 * Presence and control (docs/presence.md): the drawn cursor, the global Stop shortcut, Focus during runs and
 * the voice line. Every part can be turned off; none of them can make a run fail.
 */
@ConfigMapping(prefix = "deckhand.presence")
public interface PresenceConfig {

    Cursor cursor();

    StopShortcut stopShortcut();

    Focus focus();

    Voice voice();

    /** The drawn cursor (an X11 overlay that never takes input and never moves the real pointer). */
    interface Cursor {
        @WithDefault("true")
        boolean enabled();

        /** How long the cursor takes to travel to the next element; an action waits at most this plus 150 ms. */
        @WithDefault("150")
        int travelMillis();

        /** How long a press shows (after the action started; it never delays it). */
        @WithDefault("180")
        int pressMillis();

        /** The cursor hides by itself this long after its last move (and always before a capture). */
        @WithDefault("1500")
        int lingerMillis();

        /**
         * Whether an action waits for the cursor to arrive: {@code auto} (the default) on the person's display
         * but not on Deckhand's own private desktop ({@code DECKHAND_PRIVATE_DESKTOP=1}, which nobody
         * watches), {@code on} always, {@code off} never. Unpaced, the cursor is still drawn.
         */
        @WithDefault("auto")
        Pacing pacing();
    }

    /** See {@link Cursor#pacing()}. */
    enum Pacing {
        AUTO,
        ON,
        OFF;

        /** Whether actions wait for the cursor, on a private desktop or the person's display. */
        public boolean paces(boolean privateDesktop, int travelMillis) {
            return this == ON || (this == AUTO && !privateDesktop && travelMillis > 0);
        }
    }

    /** A key chord grabbed on the root window that does what the web page's Stop does. */
    interface StopShortcut {
        @WithDefault("true")
        boolean enabled();

        /**
         * The chord ({@code ctrl+alt+shift+Escape} by default: Escape means stop, three modifiers make an
         * accidental press unlikely, and unlike {@code ctrl+alt+Escape} — KDE's xkill — no common desktop
         * binds it).
         */
        @WithDefault("ctrl+alt+shift+Escape")
        String keys();
    }

    /** Notifications silenced for the length of a run, restored on every exit path. */
    interface Focus {
        @WithDefault("true")
        boolean enabled();

        /** Each command's bound; one that takes longer is ended and counts as failed. */
        @WithDefault("1500")
        int commandTimeoutMillis();

        /** GNOME Shell's banners ({@code org.gnome.desktop.notifications show-banners}), when GNOME Shell is on the bus. */
        Gnome gnome();

        /** dunst ({@code dunstctl set-paused}), when dunst owns the notification name on the bus. */
        Dunst dunst();
    }

    /**
     * One notification daemon: it applies only when {@code check} exits 0 and its output contains
     * {@code check-output}; {@code state} prints the current state; {@code set} (with {@code {state}}
     * replaced) sets one. Silencing sets {@code silenced}, restoring sets the state read before; each is
     * verified by reading the state again.
     */
    interface Gnome {
        @WithDefault("true")
        boolean enabled();

        @WithDefault("dbus-send,--session,--print-reply,--dest=org.freedesktop.DBus,/org/freedesktop/DBus,"
                + "org.freedesktop.DBus.NameHasOwner,string:org.gnome.Shell")
        List<String> check();

        @WithDefault("boolean true")
        String checkOutput();

        @WithDefault("gsettings,get,org.gnome.desktop.notifications,show-banners")
        List<String> state();

        @WithDefault("false")
        String silenced();

        @WithDefault("gsettings,set,org.gnome.desktop.notifications,show-banners,{state}")
        List<String> set();
    }

    /** See {@link Gnome}; dunst's defaults. The check never starts a dunst through D-Bus activation. */
    interface Dunst {
        @WithDefault("true")
        boolean enabled();

        @WithDefault("dbus-send,--session,--print-reply,--dest=org.freedesktop.DBus,/org/freedesktop/DBus,"
                + "org.freedesktop.DBus.NameHasOwner,string:org.freedesktop.Notifications")
        List<String> check();

        @WithDefault("boolean true")
        String checkOutput();

        @WithDefault("dunstctl,is-paused")
        List<String> state();

        @WithDefault("true")
        String silenced();

        @WithDefault("dunstctl,set-paused,{state}")
        List<String> set();
    }

    /** A spoken line before the first action and at the finish; never the typed text. */
    interface Voice {
        @WithDefault("false")
        boolean enabled();

        /** The speech command; {@code {text}} is replaced by the line. */
        @WithDefault("espeak-ng,--,{text}")
        List<String> command();

        /** The speech command's bound (it runs beside the run, never in its way). */
        @WithDefault("10000")
        int timeoutMillis();
    }
}
