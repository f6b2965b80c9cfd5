package dev.deckhand.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Approval cards show the element a step names, read back from the guard's step line. */
@Tag("pure")
class StepTargetTest {

    @Test
    void readsRoleAndNameFromAStepLine() {
        assertEquals(
                Optional.of(new StepTarget("push button", "7 7")), StepTarget.parse("1. click → push button \"7 7\""));
        assertEquals(
                Optional.of(new StepTarget("text", "Subject \"draft\"")),
                StepTarget.parse("set_text → text \"Subject \"draft\"\" (12 characters)"));
    }

    @Test
    void stepsWithoutAnElementHaveNone() {
        assertEquals(Optional.empty(), StepTarget.parse("2. wait → the window"));
        assertEquals(Optional.empty(), StepTarget.parse("1. click → push button \"OK\" (not on screen yet)"));
        assertEquals(Optional.empty(), StepTarget.parse("key → the focused element (ctrl+s)"));
    }
}
