package dev.deckhand.grant;

import static dev.deckhand.grant.Fixtures.REV;
import static dev.deckhand.grant.Fixtures.TARGET;
import static dev.deckhand.grant.Fixtures.auto;
import static dev.deckhand.grant.Fixtures.autonomous;
import static dev.deckhand.grant.Fixtures.grant;
import static dev.deckhand.grant.Fixtures.quiet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The one chord grammar, its normal form and the SYSTEM_CHORD rule (docs/design.md#absolute-refusals). */
@Tag("pure")
class ChordTest {

    @Test
    void normalFormOrdersModifiersFoldsEnterAliasesAndUpperCaseLetters() {
        assertEquals("ctrl+shift+s", Chord.parse("shift+ctrl+s").toString());
        assertEquals("alt+shift+s", Chord.parse("alt+S").toString());
        assertEquals(Chord.parse("alt+shift+s"), Chord.parse("shift+alt+S"));
        for (String enter : List.of("Enter", "Return", "return", "KP_Enter")) {
            assertEquals("Enter", Chord.parse(enter).toString(), enter);
            assertEquals("ctrl+Enter", Chord.parse("ctrl+" + enter).toString(), enter);
        }
        assertEquals("ctrl+Enter", Chord.parseLenient("Control+RETURN").toString());
        assertEquals("alt+s", Chord.parseLenient("Alt+S").toString());
    }

    @Test
    void unknownKeysAndSpellingsAreInvalidNotSystem() {
        for (String bad : List.of(
                "",
                "ctrl+",
                "+s",
                "ctrl++",
                "Ctrl+s",
                "win+d",
                "cmd+q",
                "super",
                "F13",
                "f5",
                "esc",
                "ctrl+s+s",
                "ctrl+ctrl+s",
                "ctrl+é",
                "ctrl+\u200Bs",
                "XF86",
                "ctrl + s",
                "Print+s",
                "Pause")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Chord.parse(bad), bad);
            assertTrue(e.getMessage().contains("keys"), e.getMessage());
        }
    }

    @Test
    void systemChordsOfTheIssueAreRecognised() {
        for (String c : List.of(
                "super+d",
                "super+Left",
                "meta+a",
                "hyper+x",
                "ctrl+alt+Right",
                "ctrl+alt+t",
                "ctrl+alt+Delete",
                "ctrl+alt+BackSpace",
                "ctrl+alt+F2",
                "alt+Tab",
                "alt+shift+Tab",
                "alt+Escape",
                "alt+space",
                "alt+F1",
                "alt+F2",
                "alt+F4",
                "alt+F12",
                "alt+grave",
                "ctrl+F1",
                "ctrl+F12",
                "ctrl+Escape",
                "Print",
                "alt+Print",
                "SysRq",
                "alt+SysRq",
                "XF86LogOff",
                "XF86Switch_VT_1",
                "ctrl+XF86AudioMute",
                "shift+super+s")) {
            assertTrue(Chord.parse(c).systemReason().isPresent(), c);
        }
        for (String c : List.of(
                "ctrl+s",
                "alt+s",
                "alt+shift+s",
                "Enter",
                "ctrl+Enter",
                "Tab",
                "shift+Tab",
                "Escape",
                "F1",
                "F5",
                "shift+F10",
                "ctrl+Tab",
                "space",
                "ctrl+space",
                "grave",
                "Menu",
                "Insert",
                "ctrl+v")) {
            assertFalse(Chord.parse(c).systemReason().isPresent(), c);
        }
    }

    /**
     * Every chord the grammar admits (every set of modifiers) through the policy on an autonomous grant
     * naming every category and the chord itself: system chords are SYSTEM_CHORD on every grant, and
     * nothing else ever is.
     */
    @Test
    void everyAdmittedChordThroughThePolicy() {
        Set<String> everything = new java.util.TreeSet<>(ConsequentialWords.BUILTIN.keySet());
        Map<String, Integer> counts = new HashMap<>();
        List<String> admitted = Chord.admitted(Chord.Modifier.values().length);
        PolicyConfig config = auto();
        Facts facts = quiet();
        assertTrue(admitted.size() > 6_000, "walked " + admitted.size());
        for (String text : admitted) {
            Chord c = Chord.parse(text);
            Set<String> named = new java.util.TreeSet<>(everything);
            named.add("key:" + c);
            Grant g = grant(ScopeKind.WINDOW, InputPolicy.AUTONOMOUS, CaptureMode.PIXELS, named);
            PolicyDecision d = Policy.check(config, g, facts, ProposedAction.key(c, REV, TARGET, Fixtures.LINE));
            if (c.systemReason().isPresent()) {
                assertEquals(
                        RefusalCode.SYSTEM_CHORD, d.refusal().map(Refusal::code).orElse(null), text);
                assertTrue(
                        d.refusal().get().detail().contains(c.toString()),
                        d.refusal().get().detail());
                PolicyDecision approved = Policy.check(
                        config,
                        autonomous(),
                        facts,
                        ProposedAction.key(c, REV, TARGET, Fixtures.LINE).withApproved(true));
                assertEquals(
                        RefusalCode.SYSTEM_CHORD,
                        approved.refusal().map(Refusal::code).orElse(null),
                        "an approval never reaches a system chord: " + text);
                counts.merge("system", 1, Integer::sum);
            } else {
                assertTrue(d.allowed(), text + " → " + d);
                counts.merge("app", 1, Integer::sum);
            }
        }
        assertTrue(counts.get("system") > 5000 && counts.get("app") > 400, counts.toString());
    }

    /**
     * Round 2 of the review: {@code Escape}, {@code 1}, {@code #} ran a line in bash (readline's insert-comment). In a
     * terminal every key but the line-editing ones and a letter or digit, with at most shift, submits; elsewhere only
     * Enter does.
     */
    @Test
    void inATerminalEveryKeyButLineEditingSubmits() {
        for (String k : java.util.List.of(
                "Escape",
                "F1",
                "F12",
                "Menu",
                "Insert",
                "shift+Insert",
                "Print",
                "XF86Copy",
                "ctrl+o",
                "alt+b",
                "super+a",
                "ctrl+m",
                "KP_Enter",
                "shift+Escape")) {
            org.junit.jupiter.api.Assertions.assertTrue(Chord.parse(k).submits(true), k + " in a terminal");
        }
        for (String k : java.util.List.of(
                "a",
                "shift+a",
                "7",
                "Tab",
                "BackSpace",
                "Delete",
                "Left",
                "Right",
                "Up",
                "Down",
                "Home",
                "End",
                "space",
                "Page_Up",
                "shift+Page_Up",
                "grave")) {
            org.junit.jupiter.api.Assertions.assertFalse(Chord.parse(k).submits(true), k + " only edits the line");
        }
        for (String k : java.util.List.of("Escape", "F1", "ctrl+o", "Menu")) {
            org.junit.jupiter.api.Assertions.assertFalse(Chord.parse(k).submits(false), k + " outside a terminal");
        }
        org.junit.jupiter.api.Assertions.assertTrue(Chord.parse("Return").submits(false));
    }
}
