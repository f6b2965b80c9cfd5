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
     * The processes started at or after {@code ticks} ({@link #nowTicks}) that run now and descend from {@code root},
     * were adopted by one of {@code adopters} ({@link #adopters}: a command that detached itself with {@code setsid}
     * or a double fork), or run on a terminal (a controlling terminal: a command a multiplexer's pane ran for the
     * granted terminal, whose server is no descendant of it — {@code tmux}, {@code screen}), by pid with their start
     * (a pid given again later has another start); Deckhand's own process left out.
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
            long[] terminal = terminalFields(pid);
            boolean under = adopters.contains(parents.getOrDefault(pid, -1)) || terminal != null && terminal[2] != 0;
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
        Map<Integer, List<Integer>> children = children();
        if (children == null) return true;
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

    /**
     * Whether a program other than a shell at its prompt reads the keys of a terminal that process {@code pid} or a
     * descendant runs (it holds the pseudo-terminal's master side): for each session that terminal started — a
     * child that leads its own session on a terminal — the terminal's foreground process group is another than the
     * session's (a job: {@code vim} started from the shell, a script, {@code less}), or the session's leader is no
     * shell the system lists in {@code /etc/shells} ({@code xterm -e vim}). There any letter may be a command. False
     * where no such session is found (no terminal); true where {@code /etc/shells} cannot be read (every leader is
     * then a program).
     */
    public static boolean programReadsKeys(int pid) {
        if (pid <= 0) return false;
        Map<Integer, List<Integer>> children = children();
        if (children == null) return false;
        Set<Path> shells = shells();
        ArrayDeque<Integer> todo = new ArrayDeque<>(List.of(pid));
        Set<Integer> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            int p = todo.pop();
            if (!seen.add(p)) continue;
            List<Integer> kids = children.getOrDefault(p, List.of());
            if (holdsPtyMaster(p)) {
                for (int session : kids) {
                    long[] f = terminalFields(session);
                    // a session leader on a terminal: its process group and session are its own pid
                    if (f == null || f[1] != session || f[2] == 0) continue;
                    if (f[3] != f[0] || !shells.contains(exe(session))) return true;
                }
            }
            todo.addAll(kids);
        }
        return false;
    }

    /** The login shells {@code /etc/shells} lists, as real paths; none when it cannot be read. */
    private static Set<Path> shells() {
        Set<Path> out = new HashSet<>();
        try {
            for (String line : Files.readAllLines(Path.of("/etc/shells"))) {
                String l = line.strip();
                if (l.isEmpty() || l.startsWith("#")) continue;
                try {
                    out.add(Path.of(l).toRealPath());
                } catch (IOException | RuntimeException missing) {
                    // listed, not installed
                }
            }
        } catch (IOException unreadable) {
            return Set.of();
        }
        return out;
    }

    private static Path exe(int pid) {
        try {
            return Path.of("/proc", Integer.toString(pid), "exe").toRealPath();
        } catch (IOException | RuntimeException gone) {
            return Path.of("/");
        }
    }

    /**
     * Fields 5, 6, 7 and 8 of {@code /proc/PID/stat}: process group, session, controlling terminal and the
     * terminal's foreground process group; null when unreadable.
     */
    private static long[] terminalFields(int pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Integer.toString(pid), "stat"));
            String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ", 7);
            return new long[] {
                Long.parseLong(rest[2]), Long.parseLong(rest[3]), Long.parseLong(rest[4]), Long.parseLong(rest[5])
            };
        } catch (IOException | RuntimeException gone) {
            return null;
        }
    }

    /** Every running process's children, by parent pid; null when {@code /proc} cannot be listed. */
    private static Map<Integer, List<Integer>> children() {
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
            return null;
        }
        return children;
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
