package dev.deckhand.presence;

import dev.deckhand.doctor.DoctorCheck;
import dev.deckhand.owner.GrantService;
import dev.deckhand.platform.x11.StopKeyGrab;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * The global Stop shortcut: a chord grabbed on the X root window at start that does exactly what the
 * web page's Stop does (the run ends, the grant is revoked, Stop latches until the person mints again).
 * Registration failure is logged and reported by the doctor, never fatal. A lost connection to the display (any
 * client may close another's) stops too, and the grab connects again.
 */
@ApplicationScoped
public class StopShortcut implements DoctorCheck {

    static final String ID = "stop-shortcut";
    static final String TITLE = "Global Stop shortcut";
    /** The reason the grant broker records. */
    public static final String REASON = "the Stop shortcut";
    /** The reason when a connection of the shortcut's to the X display was lost (another client may close it). */
    public static final String LOST = "the Stop shortcut's connection to the X display being lost";

    private static final Logger LOG = Logger.getLogger(StopShortcut.class);

    @Inject
    PresenceConfig config;

    @Inject
    GrantService grants;

    private volatile StopKeyGrab grab;

    void start(@Observes StartupEvent event) {
        if (!config.stopShortcut().enabled()) return;
        String display = System.getenv("DISPLAY");
        if (display == null || display.isBlank()) {
            LOG.infof("Stop shortcut not registered: no X display (DISPLAY is unset)");
            return;
        }
        try {
            grab = StopKeyGrab.start(config.stopShortcut().keys(), System.getenv(), this::press, this::lost);
        } catch (RuntimeException | LinkageError e) {
            LOG.warnf("Stop shortcut not registered: %s", e);
        }
    }

    /** What a press does: the page's Stop. */
    void press() {
        grants.broker().stop(REASON);
    }

    /** A lost connection is Stop too: no run goes on, and none starts until the person mints, without the shortcut. */
    void lost() {
        grants.broker().stop(LOST);
    }

    @Override
    public Result check() {
        try {
            String keys = config.stopShortcut().keys();
            if (!config.stopShortcut().enabled()) {
                return Result.failed(
                        ID,
                        TITLE,
                        "turned off (deckhand.presence.stop-shortcut.enabled=false)",
                        "set deckhand.presence.stop-shortcut.enabled=true; the web page's Stop works meanwhile");
            }
            StopKeyGrab g = grab;
            if (g == null) {
                return Result.failed(
                        ID,
                        TITLE,
                        "not registered: no X display when Deckhand started",
                        "start Deckhand on an X11 display; the web page's Stop works meanwhile");
            }
            StopKeyGrab.Status s = g.status();
            if (s.registered()) return Result.ok(ID, TITLE, keys + " stops the run: " + s.detail());
            return Result.failed(
                    ID,
                    TITLE,
                    keys + " is not registered: " + s.detail(),
                    "choose a free chord in deckhand.presence.stop-shortcut.keys and restart; the web page's Stop works meanwhile");
        } catch (RuntimeException e) {
            return Result.failed(ID, TITLE, "cannot be read: " + e, "see the log");
        }
    }

    void stop(@Observes ShutdownEvent event) {
        StopKeyGrab g = grab;
        grab = null;
        if (g != null) g.close();
    }
}
