package dev.deckhand.platform.linux;

import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.platform.Desktops;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/** The desktop of the display named by {@code DISPLAY}, opened on first use (see {@link Desktops}). */
@ApplicationScoped
public class LinuxDesktops implements Desktops {

    private LinuxDesktop desktop;

    @Override
    public synchronized Desktop desktop() {
        if (desktop == null) desktop = LinuxDesktop.open();
        return desktop;
    }

    synchronized void close(@Observes ShutdownEvent event) {
        if (desktop != null) {
            desktop.close();
            desktop = null;
        }
    }
}
