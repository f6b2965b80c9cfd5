package dev.deckhand.platform.linux;

import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.platform.Desktops;
import dev.deckhand.platform.wayland.WaylandDesktop;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;

/**
 * The desktop of this session, opened on first use (see {@link Desktops}): X11 on {@code DISPLAY}; a
 * Wayland session without X through the accessibility bus alone; a session with both (GNOME: Wayland
 * plus XWayland) through both, each app by its own route ({@link MixedDesktop}).
 */
@ApplicationScoped
public class LinuxDesktops implements Desktops {

    /** How this session is driven, from its environment. */
    public enum Session {
        X11,
        WAYLAND,
        MIXED;

        public static Session of(Map<String, String> env) {
            boolean wayland = !blank(env.get("WAYLAND_DISPLAY"));
            boolean x11 = !blank(env.get("DISPLAY"));
            if (wayland && x11) return MIXED;
            return wayland ? WAYLAND : X11;
        }

        private static boolean blank(String s) {
            return s == null || s.isBlank();
        }
    }

    /** The open driver: its port, and how it is closed. */
    private record Opened(Desktop desktop, AutoCloseable driver) {}

    private Opened opened;

    @Override
    public synchronized Desktop desktop() {
        if (opened == null) opened = open(Session.of(System.getenv()));
        return opened.desktop();
    }

    private static Opened open(Session session) {
        switch (session) {
            case WAYLAND:
                LinuxDesktop.requireLinux();
                WaylandDesktop wayland = WaylandDesktop.open();
                return new Opened(wayland.desktop(), wayland);
            case MIXED:
                MixedDesktop mixed = MixedDesktop.open();
                return new Opened(mixed.desktop(), mixed);
            default:
                LinuxDesktop x11 = LinuxDesktop.open();
                return new Opened(x11.desktop(), x11);
        }
    }

    synchronized void close(@Observes ShutdownEvent event) throws Exception {
        if (opened != null) opened.driver().close();
        opened = null;
    }
}
