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
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/** What {@code /proc} says of processes, for every driver: a process's start time, the names of those running. */
public final class Processes {

    private Processes() {}

    /** Field 22 of {@code /proc/PID/stat} (start time in clock ticks after boot), -1 when unreadable. */
    public static long start(int pid) {
        Stat st = stat(pid);
        return st == null ? -1 : st.start();
    }

    /**
     * The fields of {@code /proc/PID/stat} Deckhand reads, from one read: parent (4), process group (5), session (6),
     * controlling terminal (7), the terminal's foreground process group (8) and start time (22).
     */
    private record Stat(int parent, long group, long session, long terminal, long foreground, long start) {}

    /** {@code /proc/PID/stat} read once; null when unreadable (the process is gone). */
    private static Stat stat(int pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Integer.toString(pid), "stat"));
            // the command name (field 2) is in parentheses and may hold spaces: count from after its ')'
            String[] rest = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return new Stat(
                    Integer.parseInt(rest[1]),
                    Long.parseLong(rest[2]),
                    Long.parseLong(rest[3]),
                    Long.parseLong(rest[4]),
                    Long.parseLong(rest[5]),
                    Long.parseLong(rest[19]));
        } catch (IOException | RuntimeException gone) {
            return null;
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
     * The processes started at or after {@code ticks} ({@link #nowTicks}) that run now, by pid with their start (a pid
     * given again later has another start): whatever their parent or terminal — a command the granted app ran, one it
     * detached ({@code setsid}, a double fork, adopted by init or a subreaper), one it handed to a process that ran
     * before ({@code tmux run-shell}, a pane's shell, D-Bus activation, a service manager) — but Deckhand's own process
     * and the kernel's threads (children of {@code kthreadd}, pid 2).
     */
    public static Map<Integer, Long> startedSince(long ticks) {
        Map<Integer, Long> out = new HashMap<>();
        Map<Integer, Stat> stats = stats();
        if (stats == null) return out;
        long self = ProcessHandle.current().pid();
        stats.forEach((pid, st) -> {
            if (pid != self && pid != 2 && st.parent() != 2 && st.start() >= ticks) out.put(pid, st.start());
        });
        return out;
    }

    /**
     * Process {@code pid} and its descendants that run now, by pid with their start; empty when it does not run. The
     * granted app's own processes took the agent's input, and a shell among them can act on it later with builtins
     * alone, starting nothing (round 7: {@code read -t 45 x <>fifo; read -r A <owner-token}).
     */
    public static Map<Integer, Long> runningUnder(int pid) {
        Map<Integer, Long> out = new HashMap<>();
        Map<Integer, Stat> stats = stats();
        if (stats == null || pid <= 1 || !stats.containsKey(pid)) return out;
        for (int p : subtree(pid, children(stats))) {
            Stat st = stats.get(p);
            if (st != null && p != ProcessHandle.current().pid()) out.put(p, st.start());
        }
        return out;
    }

    /** {@code CAP_SYS_PTRACE}: reads any process's memory ({@code /proc/PID/mem}, {@code process_vm_readv}, ptrace). */
    private static final int CAP_SYS_PTRACE = 19;

    /**
     * Why a process of the granted app (process {@code pid} or a descendant) could read this server's memory, where
     * the secret files' watch sees nothing opened (round 8: a granted root shell read both tokens out of
     * {@code /proc/PID/mem}): it runs as root (whose processes get the capability back by an exec, or ask a root
     * service that holds it to run a command), or holds {@code CAP_SYS_PTRACE} in its permitted set, or runs as this
     * server's user while the server is readable by its user. Empty when none could; a reason naming the process's
     * pid and what it holds, never its memory.
     *
     * @param serverReadable whether a process of this server's user could read its memory: it is dumpable
     *     ({@code prctl(PR_GET_DUMPABLE)} is not 0) or its JVM takes attach
     */
    public static Optional<String> memoryReader(int pid, boolean serverReadable) {
        if (pid <= 0) return Optional.of("the granted app's process is not known");
        long ownUid = uids(ProcessHandle.current().pid()).orElse(new long[] {-1, -1})[1];
        for (int p : runningUnder(pid).keySet()) {
            Optional<String> why = memoryReader(p, serverReadable, ownUid);
            if (why.isPresent()) return why;
        }
        return Optional.empty();
    }

    private static Optional<String> memoryReader(int p, boolean serverReadable, long ownUid) {
        Map<String, String> status = status(p);
        if (status.isEmpty()) return Optional.empty(); // ended
        long[] uid = uids(status);
        // root, whatever capabilities it kept, can ask a root process that holds them to run a command (round 9: a
        // root shell without CAP_SYS_PTRACE had the session's D-Bus daemon start a service that read the memory)
        boolean root = uid.length == 0 || java.util.Arrays.stream(uid).anyMatch(u -> u == 0);
        if (root || capability(status.get("CapPrm"), CAP_SYS_PTRACE)) {
            return Optional.of("process " + p + " of the granted app "
                    + (root ? "runs as root" : "holds CAP_SYS_PTRACE") + " and could read Deckhand's memory");
        }
        if (serverReadable && uid.length > 1 && uid[1] == ownUid) {
            return Optional.of("process " + p + " of the granted app runs as Deckhand's user, whose "
                    + "processes could read Deckhand's memory (dumpable, or its JVM takes attach)");
        }
        return Optional.empty();
    }

    /** {@code /proc/PID/status} as name → value; empty when unreadable (the process is gone). */
    private static Map<String, String> status(long pid) {
        Map<String, String> out = new HashMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                int colon = line.indexOf(':');
                if (colon > 0)
                    out.put(line.substring(0, colon), line.substring(colon + 1).strip());
            }
        } catch (IOException | RuntimeException gone) {
            out.clear();
        }
        return out;
    }

    private static Optional<long[]> uids(long pid) {
        long[] uid = uids(status(pid));
        return uid.length == 0 ? Optional.empty() : Optional.of(uid);
    }

    /** Real, effective, saved and file-system uids; empty when unreadable. */
    private static long[] uids(Map<String, String> status) {
        String line = status.get("Uid");
        if (line == null) return new long[0];
        try {
            return java.util.Arrays.stream(line.split("\\s+"))
                    .mapToLong(Long::parseLong)
                    .toArray();
        } catch (NumberFormatException e) {
            return new long[0];
        }
    }

    /** Whether a capability set in {@code /proc/PID/status}'s hex has {@code bit}; unreadable counts as set. */
    private static boolean capability(String hex, int bit) {
        if (hex == null) return true;
        try {
            return (Long.parseUnsignedLong(hex, 16) >>> bit & 1) == 1;
        } catch (NumberFormatException e) {
            return true;
        }
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
        return subtree(pid, children).stream().anyMatch(Processes::holdsPtyMaster);
    }

    /**
     * Whether a program other than a shell at its prompt reads the keys of a terminal that process {@code pid} or a
     * descendant runs (it holds the pseudo-terminal's master side): for each session that terminal started — a
     * child that leads its own session on a terminal — the terminal's foreground process group is another than the
     * session's (a job: {@code vim} started from the shell, a script, {@code less}), or a process of that foreground
     * group is no command interpreter the system lists in {@code /etc/shells} ({@code xterm -e vim}; {@code sh -c vim},
     * where a shell without job control keeps its command in its own group; {@code xterm -e tmux}, whose client relays
     * the keys to a pane any program may read). There any letter may be a command. False
     * where no such session is found (no terminal); true where {@code /etc/shells} cannot be read (every leader is
     * then a program).
     */
    public static boolean programReadsKeys(int pid) {
        if (pid <= 0) return false;
        Map<Integer, Stat> stats = stats();
        if (stats == null) return false;
        Map<Integer, List<Integer>> children = children(stats);
        Set<Path> shells = shells();
        for (int p : subtree(pid, children)) {
            if (!holdsPtyMaster(p)) continue;
            for (int session : children.getOrDefault(p, List.of())) {
                Stat st = stats.get(session);
                // a session leader on a terminal: its session is its own pid
                if (st == null || st.session() != session || st.terminal() == 0) continue;
                if (st.foreground() != st.group()) return true;
                // a shell without job control (sh -c) runs its command in its own group: any member that is no
                // shell reads the keys
                for (int member : subtree(session, children)) {
                    Stat m = stats.get(member);
                    if (m != null && m.group() == st.foreground() && !shells.contains(exe(member))) return true;
                }
                // last, as it starts a process: a shell's own read of single characters
                if (charactersAtATime(st.terminal())) return true;
            }
        }
        return false;
    }

    /**
     * Whether the pseudo-terminal {@code ttyNr} ({@code /proc/PID/stat}'s field 7) hands each character over as it comes
     * and echoes it: non-canonical with echo on. A shell's line editor at its prompt turns echo off and echoes itself;
     * {@code read -n1} in the shell keeps echo on and acts on one letter (round 7: a {@code [y/N]} prompt deleted a
     * folder on a typed {@code y}). Read with {@code stty}; true when it cannot be read (the default refuses). Not
     * seen: a {@code read -s -n1}, whose terminal looks as the prompt's.
     */
    private static boolean charactersAtATime(long ttyNr) {
        long major = (ttyNr >> 8) & 0xfff;
        long minor = (ttyNr & 0xff) | ((ttyNr >> 12) & 0xfff00);
        if (major < 136 || major > 143) return true; // no pseudo-terminal of the Unix 98 kind: unknown
        String tty = "/dev/pts/" + ((major - 136) * 256 + minor);
        try {
            Process p = new ProcessBuilder("stty", "-F", tty, "-a")
                    .redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            // a few hundred bytes: the pipe holds them until it ends
            if (!p.waitFor(2, java.util.concurrent.TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return true;
            }
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
            if (p.exitValue() != 0) return true;
            List<String> flags = List.of(out.split("\\s+"));
            return flags.contains("-icanon") && flags.contains("echo");
        } catch (IOException e) {
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    /** {@code pid} and its descendants, breadth first. */
    private static List<Integer> subtree(int pid, Map<Integer, List<Integer>> children) {
        List<Integer> out = new ArrayList<>();
        ArrayDeque<Integer> todo = new ArrayDeque<>(List.of(pid));
        Set<Integer> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            int p = todo.pop();
            if (!seen.add(p)) continue;
            out.add(p);
            todo.addAll(children.getOrDefault(p, List.of()));
        }
        return out;
    }

    /**
     * The command interpreters a shell prompt may be read from, by their program's file name. {@code /etc/shells}
     * lists login programs, and Debian's packages add {@code tmux} and {@code script} there, which relay the keys to a
     * terminal of their own where any program may read them (round 6: {@code xterm -e tmux} ran vim unseen). So this
     * list says what a shell is, and anything it lacks counts as a program: the default refuses.
     */
    private static final Set<String> INTERPRETERS =
            Set.of("sh", "bash", "dash", "zsh", "ksh", "ksh93", "mksh", "lksh", "tcsh", "csh", "fish", "yash", "posh");

    /** The login shells {@code /etc/shells} lists that are command interpreters, as real paths; none when unreadable. */
    private static Set<Path> shells() {
        Set<Path> out = new HashSet<>();
        try {
            for (String line : Files.readAllLines(Path.of("/etc/shells"))) {
                String l = line.strip();
                if (l.isEmpty() || l.startsWith("#")) continue;
                try {
                    Path real = Path.of(l).toRealPath();
                    if (INTERPRETERS.contains(String.valueOf(real.getFileName()))) out.add(real);
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

    /** Every running process's stat, by pid; null when {@code /proc} cannot be listed. */
    private static Map<Integer, Stat> stats() {
        Map<Integer, Stat> stats = new HashMap<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            procs.map(p -> p.getFileName().toString())
                    .filter(n -> !n.isEmpty() && n.chars().allMatch(Character::isDigit))
                    .forEach(n -> {
                        Stat st = stat(Integer.parseInt(n));
                        if (st != null) stats.put(Integer.parseInt(n), st);
                    });
        } catch (IOException e) {
            return null;
        }
        return stats;
    }

    /** Every running process's children, by parent pid; null when {@code /proc} cannot be listed. */
    private static Map<Integer, List<Integer>> children() {
        Map<Integer, Stat> stats = stats();
        return stats == null ? null : children(stats);
    }

    /** The children in {@code stats}, by parent pid. */
    private static Map<Integer, List<Integer>> children(Map<Integer, Stat> stats) {
        Map<Integer, List<Integer>> children = new HashMap<>();
        stats.forEach((child, st) -> {
            if (st.parent() > 0)
                children.computeIfAbsent(st.parent(), k -> new ArrayList<>()).add(child);
        });
        return children;
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
