package dev.deckhand.presence;

import dev.deckhand.loop.Outcome;
import dev.deckhand.loop.desktop.Desktop;
import dev.deckhand.platform.CursorDesktop;
import dev.deckhand.platform.DrawnCursor;
import dev.deckhand.platform.x11.CursorOverlay;
import dev.deckhand.platform.x11.X11Display;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * Wraps one run in presence: Focus on from the start, the drawn cursor on the desktop the loop acts
 * through, the voice line before the first action and at the finish, and Focus restored when the run's
 * {@link Run} closes — on every exit path, since the caller closes it in a {@code finally}. Nothing
 * here throws into the run or decides anything in it.
 */
@ApplicationScoped
public class Presence {

    private static final Logger LOG = Logger.getLogger(Presence.class);

    @Inject
    PresenceConfig config;

    /** How presence runs its commands; tests give it another environment (a private session bus). */
    CommandRunner runner = CommandRunner.PROCESSES;

    @Inject
    java.time.Clock clock;

    private CursorOverlay overlay;
    private VoiceLine voice;
    private FocusMode.Absences absences;

    /** Daemons found not running are asked again after 5 s, not before every run. */
    private synchronized FocusMode.Absences absences() {
        if (absences == null) absences = new FocusMode.Absences(clock, ABSENCE_WINDOW);
        return absences;
    }

    static final Duration ABSENCE_WINDOW = Duration.ofSeconds(5);

    /** One run's presence; close it when the run ends, whatever way it ends. */
    public static final class Run implements AutoCloseable {
        private final FocusMode.Hold focus;
        private final Desktop desktop;
        private final VoiceLine speaker;
        private Optional<Outcome.Kind> outcome = Optional.empty();
        private boolean closed;

        private Run(FocusMode.Hold focus, Desktop desktop, VoiceLine speaker) {
            this.focus = focus;
            this.desktop = desktop;
            this.speaker = speaker;
        }

        /** The desktop the loop should act through (the cursor shows each action). */
        public Desktop desktop() {
            return desktop;
        }

        /** Records how the run ended, for the finishing line. */
        public void finished(Outcome outcome) {
            this.outcome = Optional.ofNullable(outcome).map(Outcome::kind);
        }

        /** What Focus did in this run (empty with Focus off). */
        public List<String> focusEvents() {
            return focus == null ? List.of() : focus.events();
        }

        @Override
        public void close() {
            if (closed) return;
            closed = true;
            try {
                if (speaker != null) speaker.say(VoiceLine.finished(outcome.orElse(null)));
            } catch (RuntimeException e) {
                LOG.debugf("voice line at the finish failed: %s", e);
            }
            try {
                if (focus != null) focus.restore();
            } catch (RuntimeException e) {
                LOG.warnf("Focus could not be restored: %s", e);
            }
        }
    }

    /** Starts a run's presence around {@code real}; never throws. */
    public Run begin(Desktop real) {
        FocusMode.Hold hold = null;
        try {
            if (config.focus().enabled()) hold = focusMode().silence();
        } catch (RuntimeException e) {
            LOG.warnf("Focus could not be turned on: %s", e);
        }
        VoiceLine speaker = voice();
        DrawnCursor cursor = cursor();
        Desktop shown = real;
        try {
            PresenceConfig.Cursor c = config.cursor();
            boolean paced =
                    c.pacing().paces("1".equals(System.getenv(X11Display.PRIVATE_DESKTOP_ENV)), c.travelMillis());
            shown = CursorDesktop.over(
                    real,
                    cursor,
                    () -> {
                        if (speaker != null) speaker.say(VoiceLine.STARTING);
                    },
                    paced);
        } catch (RuntimeException e) {
            LOG.warnf("the drawn cursor is off for this run: %s", e);
        }
        return new Run(hold, shown, speaker);
    }

    FocusMode focusMode() {
        PresenceConfig.Focus f = config.focus();
        List<FocusMode.Flavour> flavours = new ArrayList<>();
        PresenceConfig.Gnome g = f.gnome();
        if (g.enabled()) {
            flavours.add(new FocusMode.Flavour("gnome", g.check(), g.checkOutput(), g.state(), g.silenced(), g.set()));
        }
        PresenceConfig.Dunst d = f.dunst();
        if (d.enabled()) {
            flavours.add(new FocusMode.Flavour("dunst", d.check(), d.checkOutput(), d.state(), d.silenced(), d.set()));
        }
        return new FocusMode(flavours, runner, Duration.ofMillis(f.commandTimeoutMillis()), absences());
    }

    private synchronized VoiceLine voice() {
        if (!config.voice().enabled()) return null;
        try {
            if (voice == null) {
                voice = new VoiceLine(
                        config.voice().command(),
                        runner,
                        Duration.ofMillis(config.voice().timeoutMillis()));
            }
            return voice;
        } catch (RuntimeException e) {
            LOG.warnf("the voice line is off: %s", e);
            return null;
        }
    }

    private synchronized DrawnCursor cursor() {
        PresenceConfig.Cursor c = config.cursor();
        String display = System.getenv("DISPLAY");
        if (!c.enabled() || display == null || display.isBlank()) return DrawnCursor.NONE;
        try {
            if (overlay == null || overlay.broken()) {
                if (overlay != null) overlay.close();
                overlay = CursorOverlay.start(
                        System.getenv(),
                        new CursorOverlay.Timing(
                                Duration.ofMillis(c.travelMillis()),
                                Duration.ofMillis(c.pressMillis()),
                                Duration.ofMillis(c.lingerMillis())));
            }
            return overlay;
        } catch (RuntimeException | LinkageError e) {
            LOG.warnf("the drawn cursor is off: %s", e);
            return DrawnCursor.NONE;
        }
    }

    synchronized void close(@Observes ShutdownEvent event) {
        if (overlay != null) overlay.close();
        overlay = null;
        if (voice != null) voice.close();
        voice = null;
    }
}
