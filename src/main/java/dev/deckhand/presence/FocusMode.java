package dev.deckhand.presence;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.jboss.logging.Logger;

/**
 * Focus: notifications silenced for the length of a run, checked rather than assumed. Each flavour (a
 * notification daemon) is used only when its check says it runs; its state is read before, set to
 * silent, read again to verify, and set back to what it was on {@link Hold#restore()}, again verified.
 * A flavour already silent is left alone (the person silenced it; a run must not un-silence it). Every
 * command is bounded; nothing here throws.
 */
public final class FocusMode {

    private static final Logger LOG = Logger.getLogger(FocusMode.class);

    /**
     * One notification daemon's commands (see {@link PresenceConfig.Gnome}).
     *
     * @param set the command that sets a state; the argument {@code {state}} is replaced by it
     */
    public record Flavour(
            String name,
            List<String> check,
            String checkOutput,
            List<String> state,
            String silenced,
            List<String> set) {
        public Flavour {
            Objects.requireNonNull(name, "name");
            check = List.copyOf(check);
            Objects.requireNonNull(checkOutput, "checkOutput");
            state = List.copyOf(state);
            Objects.requireNonNull(silenced, "silenced");
            set = List.copyOf(set);
            if (check.isEmpty()) throw new IllegalArgumentException("check of focus flavour " + name + " is empty");
            if (state.isEmpty()) throw new IllegalArgumentException("state of focus flavour " + name + " is empty");
            if (set.isEmpty()) throw new IllegalArgumentException("set of focus flavour " + name + " is empty");
        }

        List<String> set(String value) {
            return set.stream().map(a -> a.replace("{state}", value)).toList();
        }
    }

    /**
     * Which daemons were found not running, and when: a run right after another does not spend
     * a subprocess per daemon asking again. A daemon that starts meanwhile is silenced from the first run
     * after {@code window}. Thread-safe; one per server.
     */
    public static final class Absences {
        private final java.time.Clock clock;
        private final Duration window;
        private final java.util.Map<String, java.time.Instant> seen = new java.util.concurrent.ConcurrentHashMap<>();

        public Absences(java.time.Clock clock, Duration window) {
            this.clock = Objects.requireNonNull(clock, "clock");
            this.window = Objects.requireNonNull(window, "window");
        }

        boolean recent(String name) {
            java.time.Instant at = seen.get(name);
            return at != null && clock.instant().isBefore(at.plus(window));
        }

        void absent(String name) {
            seen.put(name, clock.instant());
        }

        void present(String name) {
            seen.remove(name);
        }
    }

    private final List<Flavour> flavours;
    private final CommandRunner runner;
    private final Duration bound;
    private final Absences absences;

    /** Checks every daemon on every run. */
    public FocusMode(List<Flavour> flavours, CommandRunner runner, Duration bound) {
        this(flavours, runner, bound, new Absences(java.time.Clock.systemUTC(), Duration.ZERO));
    }

    /** @param absences daemons recently found not running, which are not asked again until their window passed */
    public FocusMode(List<Flavour> flavours, CommandRunner runner, Duration bound, Absences absences) {
        this.flavours = List.copyOf(flavours);
        this.runner = Objects.requireNonNull(runner, "runner");
        this.bound = Objects.requireNonNull(bound, "bound");
        this.absences = Objects.requireNonNull(absences, "absences");
    }

    /** What one run silenced, to restore; and what happened, in words (for logs and tests). */
    public final class Hold {
        private final List<String[]> toRestore = new ArrayList<>(); // {flavour index, previous state}
        private final List<String> events = Collections.synchronizedList(new ArrayList<>());
        private boolean restored;

        /** Sets every silenced flavour back to the state it had, newest first; idempotent. */
        public synchronized void restore() {
            if (restored) return;
            restored = true;
            for (int i = toRestore.size() - 1; i >= 0; i--) {
                Flavour f = flavours.get(Integer.parseInt(toRestore.get(i)[0]));
                String previous = toRestore.get(i)[1];
                try {
                    runner.run(f.set(previous), bound);
                    String now = read(f);
                    if (previous.equals(now)) {
                        note(f.name() + ": restored " + previous);
                    } else {
                        warn(f.name() + ": restore to " + previous + " did not take (state reads " + now + ")");
                    }
                } catch (RuntimeException e) {
                    warn(f.name() + ": restore failed: " + e);
                }
            }
        }

        /** What was done, in order. */
        public List<String> events() {
            return List.copyOf(events);
        }

        private void note(String s) {
            events.add(s);
            LOG.debug("focus " + s);
        }

        private void warn(String s) {
            events.add(s);
            LOG.warn("focus " + s);
        }
    }

    /** Silences every flavour that applies; never throws. */
    public Hold silence() {
        Hold hold = new Hold();
        for (int i = 0; i < flavours.size(); i++) {
            Flavour f = flavours.get(i);
            try {
                if (absences.recent(f.name())) {
                    hold.note(f.name() + ": not running (as a recent check found)");
                    continue;
                }
                CommandRunner.Result check = runner.run(f.check(), bound);
                if (!check.ok() || !check.output().contains(f.checkOutput())) {
                    absences.absent(f.name());
                    hold.note(f.name() + ": not running");
                    continue;
                }
                absences.present(f.name());
                String before = read(f);
                if (before == null) {
                    hold.warn(f.name() + ": its state cannot be read; left alone");
                    continue;
                }
                if (before.equals(f.silenced())) {
                    hold.note(f.name() + ": already silent; left alone");
                    continue;
                }
                hold.toRestore.add(new String[] {String.valueOf(i), before});
                runner.run(f.set(f.silenced()), bound);
                String now = read(f);
                if (f.silenced().equals(now)) {
                    hold.note(f.name() + ": silenced (was " + before + ")");
                } else {
                    hold.warn(f.name() + ": silencing did not take (state reads " + now + ")");
                }
            } catch (RuntimeException e) {
                hold.warn(f.name() + ": " + e);
            }
        }
        return hold;
    }

    /** The flavour's state, trimmed (gsettings prints {@code true}, dunstctl {@code false}); null when unreadable. */
    private String read(Flavour f) {
        CommandRunner.Result r = runner.run(f.state(), bound);
        return r.ok() ? r.output().strip() : null;
    }
}
