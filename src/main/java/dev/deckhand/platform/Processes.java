package dev.deckhand.platform;

import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/** What {@code /proc} says of processes, for every driver: a process's start time, the names of those running. */
public final class Processes {

    private Processes() {}

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

    /**
     * Now, in the unit of {@link #start}: clock ticks since boot ({@code /proc/uptime} at Linux's fixed
     * {@code USER_HZ} of 100); -1 when unreadable.
     */
    public static long nowTicks() {
        try {
            String up = Files.readString(Path.of("/proc/uptime")).trim().split(" ")[0];
            return (long) (Double.parseDouble(up) * 100);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * Where the orphans of {@code root}'s commands can go: Linux gives an orphan to the nearest ancestor that made
     * itself a subreaper (a service manager, a container's or a CI runner's supervisor), else to init, and shows no
     * flag for a subreaper; so every ancestor of {@code root} counts, init always, Deckhand's own process never (it
     * adopts nothing). Taken while {@code root} runs: once it ends its chain cannot be read.
     */
    public static Set<Integer> adopters(int root) {
        Set<Integer> out = new HashSet<>();
        out.add(1);
        long self = ProcessHandle.current().pid();
        for (int hops = 0, q = parent(root); hops < 64 && q > 1; hops++, q = parent(q)) {
            if (q != self) out.add(q);
        }
        return out;
    }

    /**
     * The processes started at or after {@code ticks} ({@link #nowTicks}) that run now and descend from {@code root}
     * or were adopted by one of {@code adopters} ({@link #adopters}: a command that detached itself with
     * {@code setsid} or a double fork), by pid with their start (a pid given again later has another start);
     * Deckhand's own process left out.
     */
    public static Map<Integer, Long> startedSinceUnder(long ticks, int root, Set<Integer> adopters) {
        Map<Integer, Long> out = new HashMap<>();
        Map<Integer, Integer> parents = new HashMap<>();
        long self = ProcessHandle.current().pid();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            procs.map(p -> p.getFileName().toString())
                    .filter(n -> !n.isEmpty() && n.chars().allMatch(Character::isDigit))
                    .forEach(n -> parents.put(Integer.parseInt(n), parent(Integer.parseInt(n))));
        } catch (IOException e) {
            return out;
        }
        for (int pid : parents.keySet()) {
            long start = start(pid);
            if (pid == self || start < ticks) continue;
            boolean under = adopters.contains(parents.getOrDefault(pid, -1));
            for (int hops = 0, q = pid; hops < 64 && q > 1 && !under; hops++, q = parents.getOrDefault(q, -1)) {
                under = q == root;
            }
            if (under) out.put(pid, start);
        }
        return out;
    }

    /** Whether process {@code pid} still runs and is the one that started at {@code start}. */
    public static boolean runs(int pid, long start) {
        return start(pid) == start;
    }

    /** Executable names of running processes (lower case): a credential app may run without a window. */
    public static Set<String> names() {
        Set<String> names = new HashSet<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit))
                    .forEach(p -> {
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

    /**
     * Whether process {@code pid} or one of its descendants holds a pseudo-terminal's master side
     * ({@code /dev/ptmx} among its open files): it runs commands for a shell — a terminal emulator, an editor
     * with a terminal open. An unknown process ({@code pid <= 0}) counts as one (the rule that asks fails closed).
     */
    public static boolean runsCommands(int pid) {
        if (pid <= 0) return true;
        Map<Integer, List<Integer>> children = new HashMap<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            procs.map(p -> p.getFileName().toString())
                    .filter(n -> !n.isEmpty() && n.chars().allMatch(Character::isDigit))
                    .forEach(n -> {
                        int child = Integer.parseInt(n);
                        int parent = parent(child);
                        if (parent > 0)
                            children.computeIfAbsent(parent, k -> new ArrayList<>())
                                    .add(child);
                    });
        } catch (IOException e) {
            return true;
        }
        ArrayDeque<Integer> todo = new ArrayDeque<>(List.of(pid));
        Set<Integer> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            int p = todo.pop();
            if (!seen.add(p)) continue;
            if (holdsPtyMaster(p)) return true;
            todo.addAll(children.getOrDefault(p, List.of()));
        }
        return false;
    }

    private static int parent(int pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Integer.toString(pid), "stat"));
            return Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ", 3)[1]);
        } catch (IOException | RuntimeException gone) {
            return -1;
        }
    }

    private static boolean holdsPtyMaster(int pid) {
        try (Stream<Path> fds = Files.list(Path.of("/proc", Integer.toString(pid), "fd"))) {
            return fds.anyMatch(fd -> {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    return target.equals("/dev/ptmx") || target.equals("/dev/pts/ptmx");
                } catch (IOException | RuntimeException gone) {
                    return false;
                }
            });
        } catch (IOException | RuntimeException unreadable) {
            // another user's process, or gone: not ours to judge
            return false;
        }
    }
}
