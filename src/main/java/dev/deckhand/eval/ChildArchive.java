package dev.deckhand.eval;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One class-data archive (the JVM's dynamic CDS) that the task children of one eval share: every task starts the
 * packaged app again, and most of its start is loading the same classes. The first child to start writes the
 * archive as it exits ({@code -XX:ArchiveClassesAtExit}); children started once it is there map it ({@code
 * -XX:SharedArchiveFile}); children started meanwhile run without one. The JVM checks the archive against the class
 * path and runs without it if they differ, so a wrong archive costs time, never a verdict. The directory is the
 * eval's own and is removed with {@link #close()}. Measured in docs/eval.md.
 */
final class ChildArchive implements AutoCloseable {

    private final Path dir; // null: no archive (the temporary directory could not be made)
    private final Path archive;
    private final Path writing;
    private final AtomicBoolean claimed = new AtomicBoolean();

    private ChildArchive(Path dir) {
        this.dir = dir;
        this.archive = dir == null ? null : dir.resolve("child.jsa");
        this.writing = dir == null ? null : dir.resolve("child.jsa.writing");
    }

    /**
     * Writing the archive costs the first child about 2.5 s and saves each later one about 0.5 s (docs/eval.md): it
     * pays from this many runs on.
     */
    static final int WORTH_FROM_RUNS = 8;

    /**
     * An archive in a new temporary directory for an eval of {@code runs} task runs; none for fewer than {@link
     * #WORTH_FROM_RUNS}, or if the directory cannot be made (the children then start as before).
     */
    static ChildArchive create(int runs) {
        if (runs < WORTH_FROM_RUNS) return new ChildArchive(null);
        try {
            return new ChildArchive(Files.createTempDirectory("deckhand-eval-cds-"));
        } catch (IOException e) {
            return new ChildArchive(null);
        }
    }

    /** The JVM option for the next child: map the archive, write it, or none while another child writes it. */
    List<String> options() {
        if (dir == null) return List.of();
        if (Files.isRegularFile(archive)) return List.of("-XX:SharedArchiveFile=" + archive);
        if (claimed.compareAndSet(false, true)) return List.of("-XX:ArchiveClassesAtExit=" + writing);
        return List.of();
    }

    /**
     * After a child ended: the archive it wrote becomes the one later children map (moved whole, so none maps a
     * half-written file); a child that wrote none, or was killed (perhaps while writing), lets the next one try.
     */
    void ended(List<String> options, boolean exited) {
        if (dir == null || !options.contains("-XX:ArchiveClassesAtExit=" + writing)) return;
        try {
            if (!exited) Files.deleteIfExists(writing);
            else if (Files.isRegularFile(writing)) {
                Files.move(writing, archive, StandardCopyOption.ATOMIC_MOVE);
                return;
            }
        } catch (IOException e) {
            // the next child tries again
        }
        claimed.set(false);
    }

    @Override
    public void close() {
        if (dir != null) VirtualDesktop.deleteTree(dir);
    }
}
