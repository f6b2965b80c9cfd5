package dev.deckhand.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding a suite's tasks: recursive, in id order, pending folders apart, bad files kept as errors. */
@Tag("pure")
class TaskSuiteTest {

    @TempDir
    Path root;

    private void task(String path, String id) throws Exception {
        Path f = root.resolve(path);
        Files.createDirectories(f.getParent());
        Files.writeString(f, TaskFileTest.GOOD.replace("mousepad-replace-word", id));
    }

    @Test
    void findsTasksRecursivelyInIdOrderAndLeavesPendingOut() throws Exception {
        task("b/zeta.json", "zeta");
        task("a/deep/alpha.json", "alpha");
        task("pending/waiting.json", "waiting");
        task("c/pending/later.json", "later");
        task(".hidden/secret.json", "secret");
        Files.writeString(root.resolve("a/notes.txt"), "not a task");
        assertEquals(List.of("alpha", "zeta"), ids(TaskSuite.load(List.of(root), List.of())));
        assertEquals(
                List.of("waiting"),
                ids(TaskSuite.load(List.of(root.resolve("pending")), List.of())),
                "a pending folder named itself runs");
        assertEquals(
                List.of("alpha", "waiting", "zeta"),
                ids(TaskSuite.load(List.of(root, root.resolve("pending")), List.of())));
        assertEquals(List.of("zeta"), ids(TaskSuite.load(List.of(root), List.of("z*"))));
        assertEquals(List.of("alpha", "zeta"), ids(TaskSuite.load(List.of(root), List.of("z*", "al?ha"))));
    }

    @Test
    void aBadFileOrADuplicateIdIsAnEntryWithWhyAndTheOthersStay() throws Exception {
        task("a.json", "one");
        task("b.json", "one");
        Files.writeString(root.resolve("c.json"), "{\"id\": \"broken\"}");
        List<TaskSuite.Entry> entries = TaskSuite.load(List.of(root), List.of());
        assertEquals(List.of("broken", "one", "one"), ids(entries));
        assertTrue(
                entries.get(0).invalid().contains("app is required"),
                entries.get(0).invalid());
        assertEquals(null, entries.get(1).invalid());
        assertTrue(
                entries.get(2).invalid().startsWith("duplicate id one: also in"),
                entries.get(2).invalid());
    }

    @Test
    void aMissingFolderIsAnError() {
        assertTrue(
                assertThrows(java.io.IOException.class, () -> TaskSuite.load(List.of(root.resolve("nope")), List.of()))
                        .getMessage()
                        .startsWith("no such suite folder"));
    }

    private static List<String> ids(List<TaskSuite.Entry> entries) {
        return entries.stream().map(TaskSuite.Entry::id).toList();
    }
}
