package dev.deckhand.loop.steps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.fakes.Trees;
import dev.deckhand.loop.json.WireFormatException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("pure")
class StepsTest {

    private final ScopedTree calc = Trees.calculator(1, 1, "0");

    @Test
    void parsesStepsWithTargets() {
        List<Step> steps = StepParser.parse(
                "[{\"action\": \"set_text\", \"target\": {\"role\": \"text\", \"index\": 0}, \"text\": \"hello\"},"
                        + "{\"action\": \"click\", \"target\": {\"role\": \"push button\", \"name\": \"=\"}},"
                        + "{\"action\": \"key\", \"keys\": \"ctrl+s\"}]");
        assertEquals(3, steps.size());
        assertEquals(Optional.of(Selector.ofRole("text", 0)), steps.get(0).target());
        assertEquals(new Action.SetText("u9", "hello"), steps.get(0).resolved("u9"));
        assertEquals(Optional.of(Selector.of("push button", "=")), steps.get(1).target());
        assertEquals(new Action.Key("ctrl+s"), steps.get(2).resolved("ignored"));
    }

    @Test
    void readsStepsParsedByAnotherLibrary() {
        Object jacksonLike =
                List.of(Map.of("action", "click", "target", Map.of("role", "push button", "name", "1", "index", 0)));
        assertEquals(
                Optional.of(Selector.of("push button", "1", 0)),
                StepParser.fromJson(jacksonLike).get(0).target());
    }

    @Test
    void refusesMalformedSteps() {
        assertEquals(
                "uid is not allowed in steps; use target for step 1 (click)",
                msg("[{\"action\":\"click\",\"uid\":\"u1\"}]"));
        assertEquals("target is required for step 1 (click)", msg("[{\"action\":\"click\"}]"));
        assertEquals(
                "unknown field \"target\" for step 1 (key)",
                msg("[{\"action\":\"key\",\"keys\":\"a\",\"target\":{\"role\":\"text\"}}]"));
        assertEquals(
                "basis is not allowed in steps: the step runner captures the window and binds it for step 1 (click_at);"
                        + " give x, y in window coordinates",
                msg("[{\"action\":\"click_at\",\"x\":1,\"y\":1,\"basis\":\"c\"}]"));
        assertEquals(
                "unknown field \"target\" for step 1 (click_at)",
                msg("[{\"action\":\"click_at\",\"x\":1,\"y\":1,\"target\":{\"role\":\"text\"}}]"));
        assertEquals("x is required for step 1 (click_at)", msg("[{\"action\":\"click_at\",\"y\":1}]"));
        assertEquals(
                "x must be between 0 and 100000 for step 1 (click_at)",
                msg("[{\"action\":\"click_at\",\"x\":-3,\"y\":1}]"));
        assertEquals(
                "role must be lower case for target of step 2 (click)",
                msg("[{\"action\":\"wait\",\"ms\":1},{\"action\":\"click\",\"target\":{\"role\":\"Push Button\"}}]"));
        assertEquals(
                "unknown field \"label\" for target of step 1 (click)",
                msg("[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"label\":\"x\"}}]"));
        assertEquals(
                "index must be between 0 and 10000 for target of step 1 (click)",
                msg("[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"index\":-1}}]"));
        assertEquals("steps must be a JSON array", msg("{\"action\":\"wait\",\"ms\":1}"));
        assertEquals("steps must not be empty when given", msg("[]"));
        assertEquals(
                "text is required for step 1 (set_text)",
                msg("[{\"action\":\"set_text\",\"target\":{\"role\":\"text\"}}]"));
    }

    @Test
    void aClickAtStepCarriesWindowCoordinatesAndThePlaceholderBasis() {
        Step s = StepParser.parse("[{\"action\":\"click_at\",\"x\":12,\"y\":34}]")
                .get(0);
        assertEquals(new dev.deckhand.loop.action.Action.ClickAt(12, 34, Step.WINDOW_POINT), s.action());
        assertEquals(Optional.empty(), s.target());
        org.junit.jupiter.api.Assertions.assertTrue(s.windowPoint());
        assertThrows(
                IllegalArgumentException.class,
                () -> new Step(new dev.deckhand.loop.action.Action.ClickAt(1, 1, "c1"), Optional.empty()),
                "a step never carries a real capture id");
    }

    private static String msg(String json) {
        return assertThrows(WireFormatException.class, () -> StepParser.parse(json), json)
                .getMessage();
    }

    @Test
    void resolvesExactlyOneMatch() {
        assertEquals(
                "r1-equals",
                SelectorResolver.resolve(Selector.of("push button", "="), calc).uid());
        // the hidden advanced panel also has a "1": hidden nodes neither match nor make it ambiguous
        assertEquals(
                "r1-d1",
                SelectorResolver.resolve(Selector.of("push button", "1"), calc).uid());
    }

    @Test
    void neverGuesses() {
        SelectorException none = assertThrows(
                SelectorException.class, () -> SelectorResolver.resolve(Selector.of("push button", "÷"), calc));
        assertEquals("no element matches push button named \"÷\" in scope", none.getMessage());
        SelectorException many = assertThrows(
                SelectorException.class,
                () -> SelectorResolver.resolve(new Selector("push button", Optional.empty(), Optional.empty()), calc));
        assertEquals("12 elements match push button in scope; add an index", many.getMessage());
        assertThrows(SelectorException.class, () -> SelectorResolver.resolve(Selector.of("push button", "=", 1), calc));
        // names match exactly, roles too
        assertThrows(SelectorException.class, () -> SelectorResolver.resolve(Selector.of("push button", "= "), calc));
        assertThrows(SelectorException.class, () -> SelectorResolver.resolve(Selector.of("button", "="), calc));
    }

    @Test
    void indexPicksTheNthMatchInDocumentOrder() {
        Selector third = Selector.ofRole("push button", 2);
        assertEquals("r1-d2", SelectorResolver.resolve(third, calc).uid());
        assertEquals(
                "r1-equals",
                SelectorResolver.resolve(Selector.ofRole("push button", 11), calc)
                        .uid());
    }
}
