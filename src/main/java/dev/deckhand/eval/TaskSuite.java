package dev.deckhand.eval;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The tasks of one or more suite folders, in id order: every {@code *.json} below each folder,
 * searched recursively, except below a folder named {@value #PENDING} (tasks waiting for other work;
 * name such a folder itself to run them). A file that cannot be read, or a second file with an id
 * already taken, becomes an {@link Entry#invalid} entry that the run reports as an error.
 */
public final class TaskSuite {

    public static final String PENDING = "pending";

    /** A task, or why its file could not be used. */
    public record Entry(String id, TaskSpec task, String invalid) {
        static Entry of(TaskSpec t) {
            return new Entry(t.id(), t, null);
        }
    }

    private TaskSuite() {}

    /** @throws IOException a folder that does not exist or cannot be listed */
    public static List<Entry> load(List<Path> roots, List<String> only) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path root : roots) {
            if (Files.isRegularFile(root)) {
                files.add(root);
                continue;
            }
            if (!Files.isDirectory(root)) throw new IOException("no such suite folder: " + root.toAbsolutePath());
            try (Stream<Path> walk = Files.walk(root)) {
                walk.filter(p -> Files.isRegularFile(p)
                                && p.getFileName().toString().endsWith(".json"))
                        .filter(p -> !skipped(root, p))
                        .sorted()
                        .forEach(files::add);
            }
        }
        List<PathMatcher> globs = only.stream()
                .map(g -> FileSystems.getDefault().getPathMatcher("glob:" + g))
                .toList();
        Map<String, Path> seen = new HashMap<>();
        List<Entry> out = new ArrayList<>();
        for (Path f : files) {
            Entry e;
            try {
                TaskSpec t = TaskFile.read(f);
                Path first = seen.putIfAbsent(t.id(), f);
                e = first == null
                        ? Entry.of(t)
                        : new Entry(t.id(), null, "duplicate id " + t.id() + ": also in " + first);
            } catch (TaskFile.Invalid invalid) {
                e = new Entry(invalid.id(), null, invalid.getMessage());
            }
            String id = e.id();
            if (globs.isEmpty() || globs.stream().anyMatch(g -> g.matches(Path.of(id)))) out.add(e);
        }
        out.sort(Comparator.comparing(Entry::id));
        return out;
    }

    private static boolean skipped(Path root, Path file) {
        Path rel = root.relativize(file);
        for (int i = 0; i < rel.getNameCount() - 1; i++) {
            String part = rel.getName(i).toString();
            if (part.equals(PENDING) || part.startsWith(".")) return true;
        }
        return false;
    }
}
