package dev.deckhand.platform.linux;

import com.sun.jna.Library;
import com.sun.jna.Native;
import dev.deckhand.home.DeckhandHome;
import dev.deckhand.home.SecretFileReads;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The secret files of the config directory under inotify: every open of one, through the directory (a
 * watch on it, by name) or through any other link to the same file (a watch on the file itself, set again
 * whenever the file is replaced). Deckhand's own reads go through {@link #ownRead}, which expects their
 * events under the same lock the queue is drained under, so the count is exact: every open beyond those is
 * a foreign read. A lost event (the kernel's queue overflowed) counts as one, so the rule fails closed.
 * A new hard link to one (its link count above one after an attribute change) and a move of one out of its name count
 * as foreign reads too: each is a copy made without an open. Deckhand replaces a file by moving a new one onto its
 * name, which moves no secret file away.
 */
@ApplicationScoped
@Startup
public class SecretFileWatch implements SecretFileReads.Watch {

    private static final Logger LOG = Logger.getLogger(SecretFileWatch.class);

    private static final Set<String> NAMES = SecretFileReads.files();
    private static final String UNKNOWN = SecretFileReads.UNKNOWN;

    interface Inotify extends Library {
        int IN_NONBLOCK = 04000, IN_CLOEXEC = 02000000;
        int IN_ATTRIB = 0x4,
                IN_OPEN = 0x20,
                IN_MOVED_FROM = 0x40,
                IN_MOVED_TO = 0x80,
                IN_CREATE = 0x100,
                IN_IGNORED = 0x8000,
                IN_Q_OVERFLOW = 0x4000,
                IN_ISDIR = 0x40000000;

        int inotify_init1(int flags);

        int inotify_add_watch(int fd, String path, int mask);

        long read(int fd, byte[] buf, long count);

        int close(int fd);
    }

    private record Watched(int wd, Object inode) {}

    private final Path dir;
    private final Inotify c;
    private final int fd;
    private final int dirWd;
    private final Map<Integer, String> fileWds = new HashMap<>();
    private final Map<String, Watched> files = new HashMap<>();
    private final Map<String, Integer> expectedDir = new HashMap<>();
    private final Map<String, Integer> expectedFile = new HashMap<>();
    private final Deque<String> foreign = new ArrayDeque<>();
    private final byte[] buffer = new byte[64 * 1024];
    private long foreignCount;
    private volatile boolean closed;

    @Inject
    public SecretFileWatch(DeckhandHome home) {
        this.dir = home.dir();
        Inotify lib = null;
        int f = -1;
        int d = -1;
        try {
            lib = Native.load("c", Inotify.class);
            f = lib.inotify_init1(Inotify.IN_NONBLOCK | Inotify.IN_CLOEXEC);
            if (f >= 0)
                // IN_MOVED_FROM: a secret file moved away keeps its value under another name with no open (round 9)
                d = lib.inotify_add_watch(
                        f,
                        dir.toString(),
                        Inotify.IN_OPEN | Inotify.IN_CREATE | Inotify.IN_MOVED_TO | Inotify.IN_MOVED_FROM);
        } catch (UnsatisfiedLinkError | RuntimeException e) {
            LOG.warnf(
                    "cannot watch the secret files (%s): a granted app reading them cannot be seen",
                    e.getClass().getSimpleName());
        }
        this.c = lib;
        this.fd = f;
        this.dirWd = d;
        if (d < 0) {
            LOG.warn("cannot watch the config directory: a granted app reading Deckhand's secret files cannot be seen");
            return;
        }
        synchronized (this) {
            for (String name : NAMES) watchFile(name);
        }
        SecretFileReads.install(this);
        Thread t = new Thread(this::pump, "deckhand-secret-file-watch");
        t.setDaemon(true);
        t.start();
    }

    /** Drains the queue twice a second, so a foreign read is told even while no run or request asks. */
    private void pump() {
        while (!closed) {
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                return;
            }
            Set<String> found;
            synchronized (this) {
                found = drain();
            }
            if (!found.isEmpty()) SecretFileReads.tell(found);
        }
    }

    @Override
    public String ownRead(Path file) throws IOException {
        Path abs = file.toAbsolutePath().normalize();
        String name = abs.getFileName().toString();
        if (!abs.getParent().equals(dir) || !NAMES.contains(name))
            return Files.readString(file, StandardCharsets.US_ASCII);
        Set<String> found;
        String text;
        synchronized (this) {
            found = drain();
            boolean fileWatched = watchFile(name);
            expectedDir.merge(name, 1, Integer::sum);
            if (fileWatched) expectedFile.merge(name, 1, Integer::sum);
            try {
                text = Files.readString(abs, StandardCharsets.US_ASCII);
            } catch (NoSuchFileException missing) {
                expectedDir.merge(name, -1, Integer::sum);
                if (fileWatched) expectedFile.merge(name, -1, Integer::sum);
                throw missing;
            } finally {
                found.addAll(drain());
            }
        }
        if (!found.isEmpty()) SecretFileReads.tell(found);
        return text;
    }

    @Override
    public long foreignCount() {
        Set<String> found;
        long count;
        synchronized (this) {
            found = drain();
            count = foreignCount;
        }
        if (!found.isEmpty()) SecretFileReads.tell(found);
        return count;
    }

    @Override
    public Set<String> foreignSince(long mark) {
        Set<String> found;
        Set<String> since = new LinkedHashSet<>();
        synchronized (this) {
            found = drain();
            long first = foreignCount - foreign.size();
            long i = first;
            for (String name : foreign) {
                if (i++ >= mark) since.add(name);
            }
            if (mark < first) since.add(UNKNOWN);
        }
        if (!found.isEmpty()) SecretFileReads.tell(found);
        return since;
    }

    /** Watches the file now behind {@code name} (again, if it was replaced); whether one is watched. */
    private boolean watchFile(String name) {
        Path file = dir.resolve(name);
        Object inode;
        try {
            inode = Files.getAttribute(file, "unix:ino");
        } catch (IOException | UnsupportedOperationException missing) {
            return false;
        }
        Watched w = files.get(name);
        if (w != null && w.inode().equals(inode)) return true;
        // IN_ATTRIB: a hard link (link(2) opens nothing) changes the file's link count (round 8: a granted shell linked
        // owner-token to /tmp, and an app that runs no commands showed it later)
        int wd = c.inotify_add_watch(fd, file.toString(), Inotify.IN_OPEN | Inotify.IN_ATTRIB);
        if (wd < 0) return false;
        files.put(name, new Watched(wd, inode));
        fileWds.put(wd, name);
        return true;
    }

    /** Reads every queued event; returns the secret files others opened. Holds the lock. */
    private Set<String> drain() {
        Set<String> found = new LinkedHashSet<>();
        while (!closed) {
            long n = c.read(fd, buffer, buffer.length);
            if (n <= 0) break;
            ByteBuffer b = ByteBuffer.wrap(buffer, 0, (int) n).order(ByteOrder.nativeOrder());
            while (b.remaining() >= 16) {
                int wd = b.getInt();
                int mask = b.getInt();
                b.getInt();
                int len = b.getInt();
                String name = "";
                if (len > 0) {
                    byte[] raw = new byte[len];
                    b.get(raw);
                    int end = 0;
                    while (end < len && raw[end] != 0) end++;
                    name = new String(raw, 0, end, StandardCharsets.UTF_8);
                }
                event(wd, mask, name, found);
            }
        }
        return found;
    }

    private void event(int wd, int mask, String name, Set<String> found) {
        if ((mask & Inotify.IN_Q_OVERFLOW) != 0) {
            foreign(UNKNOWN, found);
            return;
        }
        if (wd == dirWd) {
            if (!NAMES.contains(name) || (mask & Inotify.IN_ISDIR) != 0) return;
            if ((mask & (Inotify.IN_CREATE | Inotify.IN_MOVED_TO)) != 0) watchFile(name);
            if ((mask & Inotify.IN_OPEN) != 0 && !expected(expectedDir, name)) foreign(name, found);
            if ((mask & Inotify.IN_MOVED_FROM) != 0) foreign(name, found);
            return;
        }
        String file = fileWds.get(wd);
        if (file == null) return;
        if ((mask & Inotify.IN_IGNORED) != 0) {
            fileWds.remove(wd);
            return;
        }
        if ((mask & Inotify.IN_OPEN) != 0 && !expected(expectedFile, file)) foreign(file, found);
        if ((mask & Inotify.IN_ATTRIB) != 0 && linked(file)) foreign(file, found);
    }

    /** Whether the secret file {@code name} has another name: a hard link is a copy no open shows. */
    private boolean linked(String name) {
        try {
            return ((Number) Files.getAttribute(dir.resolve(name), "unix:nlink")).intValue() > 1;
        } catch (IOException | UnsupportedOperationException | ClassCastException gone) {
            return false;
        }
    }

    private static boolean expected(Map<String, Integer> counts, String name) {
        int left = counts.getOrDefault(name, 0);
        if (left <= 0) return false;
        counts.put(name, left - 1);
        return true;
    }

    private void foreign(String name, Set<String> found) {
        foreignCount++;
        foreign.addLast(name);
        if (foreign.size() > 1_000) foreign.removeFirst();
        found.add(name);
        LOG.debugf("a process other than Deckhand opened %s", name);
    }

    @PreDestroy
    public synchronized void close() {
        if (closed) return;
        closed = true;
        SecretFileReads.uninstall(this);
        if (fd >= 0) c.close(fd);
    }
}
