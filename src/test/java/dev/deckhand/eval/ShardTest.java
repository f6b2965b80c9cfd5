package dev.deckhand.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code --shard I/N} (docs/design.md#task-format): 0-based, position in id order modulo N, and only that spelling. */
@Tag("pure")
class ShardTest {

    @Test
    void readsIndexSlashCount() {
        assertEquals(new Shard(0, 3), Shard.parse("0/3"));
        assertEquals(new Shard(2, 3), Shard.parse("2/3"));
        assertEquals(new Shard(0, 1), Shard.parse("0/1"));
        assertEquals("2/3", Shard.parse("2/3").toString());
    }

    @Test
    void refusesEveryOtherSpellingNamingTheFlag() {
        for (String bad : List.of(
                "",
                "/",
                "3",
                "1/",
                "/3",
                "-1/3",
                "1/-3",
                "+1/3",
                " 1/3",
                "1/3 ",
                "1 /3",
                "1/3/",
                "1/3\n",
                "a/3",
                "1/b",
                "1.0/3",
                "0x1/3",
                "1/3,2/3",
                "\u0661/3",
                "1\uFF0F3",
                "1234567890/3",
                "1/99999999999")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Shard.parse(bad), bad);
            assertTrue(e.getMessage().startsWith("--shard"), e.getMessage());
        }
        assertEquals(
                "--shard's I must be in 0..2 (0-based), was 3",
                assertThrows(IllegalArgumentException.class, () -> Shard.parse("3/3"))
                        .getMessage());
        assertEquals(
                "--shard's N must be in 1..10000, was 0",
                assertThrows(IllegalArgumentException.class, () -> Shard.parse("0/0"))
                        .getMessage());
        assertThrows(IllegalArgumentException.class, () -> Shard.parse("0/10001"));
    }

    @Test
    void theShardsOfASuiteAreDisjointCoverItAndFollowThePositionModuloN() {
        for (int size = 0; size <= 23; size++) {
            List<Integer> suite = IntStream.range(0, size).boxed().toList();
            for (int n = 1; n <= 7; n++) {
                List<Integer> union = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    Shard shard = new Shard(i, n);
                    List<Integer> slice = shard.of(suite);
                    for (int position : slice) {
                        assertEquals(i, position % n, "position " + position + " in shard " + shard);
                        assertTrue(shard.holds(position));
                    }
                    assertTrue(
                            slice.size() == size / n || slice.size() == size / n + 1,
                            "shards differ by one task at most");
                    union.addAll(slice);
                }
                union.sort(null);
                assertEquals(suite, union, size + " tasks in " + n + " shards: each exactly once");
            }
        }
        assertEquals(
                List.of("b", "e"),
                new Shard(1, 3).of(List.of("a", "b", "c", "d", "e", "f").subList(0, 5)));
    }
}
