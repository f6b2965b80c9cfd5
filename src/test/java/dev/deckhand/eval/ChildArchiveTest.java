package dev.deckhand.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The eval children's class-data archive: one child writes it, later ones map it, none maps a half-written one. */
@Tag("pure")
class ChildArchiveTest {

    private static final String WRITE = "-XX:ArchiveClassesAtExit=";
    private static final String MAP = "-XX:SharedArchiveFile=";

    @Test
    void theFirstChildWritesItOthersMeanwhileRunWithoutAndLaterOnesMapIt() throws Exception {
        try (ChildArchive archive = ChildArchive.create(ChildArchive.WORTH_FROM_RUNS)) {
            List<String> first = archive.options();
            assertEquals(1, first.size());
            assertTrue(first.get(0).startsWith(WRITE), first.toString());
            assertEquals(List.of(), archive.options(), "while the first child writes, the next runs without");
            Path writing = Path.of(first.get(0).substring(WRITE.length()));
            Files.writeString(writing, "archive"); // as the JVM writes it at exit
            archive.ended(first, true);
            List<String> later = archive.options();
            assertEquals(1, later.size());
            assertTrue(later.get(0).startsWith(MAP), later.toString());
            Path mapped = Path.of(later.get(0).substring(MAP.length()));
            assertEquals("archive", Files.readString(mapped));
            assertFalse(Files.exists(writing), "moved whole, never mapped while written");
            archive.ended(later, true);
            assertEquals(later, archive.options(), "every later child maps it");
            archive.close();
            assertFalse(Files.exists(mapped.getParent()), "the eval's directory is removed");
        }
    }

    @Test
    void aChildKilledWhileWritingLeavesNothingAndTheNextOneWrites() throws Exception {
        try (ChildArchive archive = ChildArchive.create(20)) {
            List<String> first = archive.options();
            Path writing = Path.of(first.get(0).substring(WRITE.length()));
            Files.writeString(writing, "half");
            archive.ended(first, false);
            assertFalse(Files.exists(writing), "a half-written archive is removed");
            List<String> next = archive.options();
            assertEquals(first, next, "the next child writes it");
            archive.ended(next, true); // it exited and wrote nothing (it failed early): the claim is free again
            assertEquals(first, archive.options());
        }
    }

    @Test
    void aShortEvalHasNone() {
        try (ChildArchive archive = ChildArchive.create(ChildArchive.WORTH_FROM_RUNS - 1)) {
            assertEquals(List.of(), archive.options());
            archive.ended(List.of(), true);
            assertEquals(List.of(), archive.options());
        }
    }
}
