package dev.deckhand.platform;

import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/** What {@code /proc} says of processes, for every driver: a process's start time, the names of those running. */
public final class Processes {

    private Processes() {
    }

    /** Field 22 of {@code /proc/PID/stat} (start time in clock ticks after boot), -1 when unreadable. */
    public static long start(int pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Integer.toString(pid), "stat"));
            // the command name (field 2) is in parentheses and may hold spaces: count from after its ')'
            String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(rest[19]);
        } catch (IOException | RuntimeException gone) {
            return -1;
        }
    }

    /** Executable names of running processes (lower case): a credential app may run without a window. */
    public static Set<String> names() {
        Set<String> names = new HashSet<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).forEach(p -> {
                try {
                    names.add(Files.readString(p.resolve("comm")).trim().toLowerCase(Locale.ROOT));
                } catch (IOException | RuntimeException gone) {
                    // the process ended while we listed it
                }
            });
        } catch (IOException e) {
            throw new RefusedException(Refusal.preflightFailed("cannot list processes: " + e.getMessage()));
        }
        return names;
    }
}
