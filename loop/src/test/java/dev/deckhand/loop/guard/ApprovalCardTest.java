package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.action.Action;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What an approval card says about an action: the text to be typed, bounded, and the chord in its normal form. */
@Tag("pure")
class ApprovalCardTest {

    @Test
    void theCardShowsTheTextToBeTypedUpTo200CharactersAndTheChord() {
        assertEquals(": \"hello world\" (11 characters)", GrantGuard.note(new Action.Type("hello world")));
        String longText = "x".repeat(199) + "😀" + "y".repeat(100);
        String note = GrantGuard.note(new Action.Type(longText));
        assertTrue(note.startsWith(": \"" + "x".repeat(199) + "😀…\""), note);
        assertTrue(note.endsWith("(300 characters)"), note);
        assertEquals(": alt+shift+s", GrantGuard.note(new Action.Key("alt+S")));
        assertEquals(
                ": option \"Delete the originals\" (20 characters)",
                GrantGuard.note(new Action.Select("u1", "Delete the originals")));
    }
}
