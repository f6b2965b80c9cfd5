package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What a read of the core keyboard mapping offers for typing: no keypad key, and where Num Lock sits. */
@Tag("pure")
class KeymapTest {

    @Test
    void keypadKeysNeverTypeAndNumLockIsFound() {
        long kpDelete = 0xff9fL, numLock = 0xff7fL;
        long[] syms = {
            '.',
            '>', // keycode 10
            kpDelete,
            ',', // 11: the keypad's decimal key under kpdl:comma; Num Lock decides its level
            numLock,
            0, // 12
            0,
            0 // 13: a spare
        };
        KeyboardMapping.Keymap map = new KeyboardMapping.Keymap(10, 4, 2, syms);
        assertArrayEquals(new int[] {10, 0}, map.byKeysym.get((long) '.'));
        assertNull(map.byKeysym.get((long) ','), "a character only a keypad key has gets a spare, not the keypad key");
        assertNull(map.byKeysym.get(kpDelete));
        assertEquals(Set.of(12), map.numLock);
        assertEquals(List.of(13), map.spares);
    }
}
