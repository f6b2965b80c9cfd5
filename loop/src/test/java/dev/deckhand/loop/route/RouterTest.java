package dev.deckhand.loop.route;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.CaptureMode;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.fakes.Trees;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("pure")
class RouterTest {

    @Test
    void readOnlyInstructions() {
        for (String s : List.of(
                "Verify the total is 84",
                "verify: the file saved",
                "Please check whether the box is ticked",
                "check that the title says Saved",
                "What is the result?",
                "Is the Save button enabled?",
                "Inspect the dialog",
                "Tell me the window title",
                "How many items are in the list",
                "List the menu items",
                "Read the status bar")) {
            assertTrue(Router.readOnlyInstruction(s), s);
            assertFalse(Router.requiresVerifier(s, false), s);
            assertTrue(Router.requiresVerifier(s, true), "steps always may give input: " + s);
        }
        for (String s : List.of(
                "Compute 12×7",
                "check the Remember me box",
                "Can you click Save",
                "Confirm the dialog",
                "Type hello and save",
                "Do a search for cats",
                "",
                "   ",
                "Please save the file",
                "ensure the box is checked")) {
            assertFalse(Router.readOnlyInstruction(s), s);
            assertTrue(Router.requiresVerifier(s, false), s);
        }
    }

    @Test
    void usableTree() {
        assertTrue(Router.usable(Trees.calculator(1, 1, "0")));
        assertFalse(Router.usable(Trees.partial(1, 1)), "partial");
        assertFalse(
                Router.usable(new dev.deckhand.loop.desktop.ScopedTree(
                        1, 1, List.of(Trees.node("a", 0, "frame", "F"), Trees.node("b", 1, "label", "hi")), false)),
                "nothing interactive");
    }

    @Test
    void theRule() {
        // verification never gives input, whatever the tree or capture mode; a pixels grant sees pixels
        for (boolean usable : new boolean[] {true, false}) {
            for (CaptureMode m : CaptureMode.values()) {
                Routing r = Router.route("Verify the total", false, false, usable, m);
                assertEquals(Route.READ_ONLY, r.route());
                assertEquals(
                        m == CaptureMode.PIXELS, r.captures(), "captures on every pixels grant: " + usable + " " + m);
                assertEquals(java.util.Set.of("wait", "done", "fail"), r.route().permittedActions());
            }
        }
        // a usable tree on an a11y_only grant is driven by uid: no capture, no click_at
        Routing uid = Router.route("Save the file", false, true, true, CaptureMode.A11Y_ONLY);
        assertEquals(Route.UID, uid.route());
        assertFalse(uid.captures());
        assertFalse(uid.route().permittedActions().contains("click_at"));
        // a usable tree on a pixels grant: the tree and a capture together, uids and click_at
        Routing hybrid = Router.route("Draw a dot on the canvas", false, true, true, CaptureMode.PIXELS);
        assertEquals(Route.HYBRID, hybrid.route());
        assertTrue(hybrid.captures());
        assertTrue(hybrid.route()
                .permittedActions()
                .containsAll(java.util.Set.of("click_at", "click", "set_text", "key")));
        // no usable tree on a pixels grant: pixels alone
        Routing px = Router.route("Draw a line", false, true, false, CaptureMode.PIXELS);
        assertEquals(Route.PIXELS, px.route());
        assertTrue(px.captures());
        assertTrue(px.route().permittedActions().contains("click_at"));
        // no tree and no pixels: nothing to act on
        assertEquals(
                RefusalCode.A11Y_UNAVAILABLE,
                assertThrows(
                                RefusedException.class,
                                () -> Router.route("Draw a line", false, true, false, CaptureMode.A11Y_ONLY))
                        .code());
        // steps need the tree
        assertEquals(
                Route.UID,
                Router.route("Verify 12×7", true, true, true, CaptureMode.PIXELS)
                        .route());
        assertEquals(
                RefusalCode.A11Y_UNAVAILABLE,
                assertThrows(RefusedException.class, () -> Router.route("x", true, true, false, CaptureMode.PIXELS))
                        .code());
        // input without a verifier, on every route that gives input
        for (boolean usable : new boolean[] {true, false}) {
            assertEquals(
                    RefusalCode.NO_VERIFIER,
                    assertThrows(
                                    RefusedException.class,
                                    () -> Router.route("Save the file", false, false, usable, CaptureMode.PIXELS))
                            .code());
        }
        assertEquals(
                RefusalCode.NO_VERIFIER,
                assertThrows(
                                RefusedException.class,
                                () -> Router.route("Save the file", false, false, true, CaptureMode.A11Y_ONLY))
                        .code());
    }

    @Test
    void stepsWithPointsNeedPixelsAndMixWithSelectorsOnAUsableTree() {
        // selectors and points in one list on a window with a tree: the hybrid route
        Routing mixed = Router.routeSteps(true, true, true, true, CaptureMode.PIXELS);
        assertEquals(Route.HYBRID, mixed.route());
        assertTrue(mixed.captures());
        // points alone on a window without a tree: pixels
        assertEquals(
                Route.PIXELS,
                Router.routeSteps(false, true, true, false, CaptureMode.PIXELS).route());
        // points alone on a window with a tree: still both (the hit test reads the tree)
        assertEquals(
                Route.HYBRID,
                Router.routeSteps(false, true, true, true, CaptureMode.PIXELS).route());
        // selectors need the tree even beside points
        assertEquals(
                RefusalCode.A11Y_UNAVAILABLE,
                assertThrows(
                                RefusedException.class,
                                () -> Router.routeSteps(true, true, true, false, CaptureMode.PIXELS))
                        .code());
        // points need a pixels grant, before anything runs
        assertEquals(
                RefusalCode.OUT_OF_SCOPE,
                assertThrows(
                                RefusedException.class,
                                () -> Router.routeSteps(true, true, true, true, CaptureMode.A11Y_ONLY))
                        .code());
        // and a verifier
        assertEquals(
                RefusalCode.NO_VERIFIER,
                assertThrows(
                                RefusedException.class,
                                () -> Router.routeSteps(true, true, false, true, CaptureMode.PIXELS))
                        .code());
        // steps without points: the uid route, whatever the grant
        assertEquals(
                Route.UID,
                Router.routeSteps(true, false, true, true, CaptureMode.PIXELS).route());
    }

    @Test
    void keysAndTextAloneTakeThePixelRouteOnAWindowWithoutATreeOnAPixelsGrant() {
        // issue 28: type and key steps on an xterm were A11Y_UNAVAILABLE unless a click_at came first; now they run,
        // as blind input the grant must allow (grant.Policy.blind)
        Routing keys = Router.routeSteps(false, false, true, false, CaptureMode.PIXELS);
        assertEquals(Route.PIXELS, keys.route());
        assertTrue(keys.captures());
        assertTrue(keys.reason().contains("keys and text"), keys.reason());
        // without pixels nothing can be given there
        assertEquals(
                RefusalCode.A11Y_UNAVAILABLE,
                assertThrows(
                                RefusedException.class,
                                () -> Router.routeSteps(false, false, true, false, CaptureMode.A11Y_ONLY))
                        .code());
        // still needs a verifier
        assertEquals(
                RefusalCode.NO_VERIFIER,
                assertThrows(
                                RefusedException.class,
                                () -> Router.routeSteps(false, false, false, false, CaptureMode.PIXELS))
                        .code());
        // on a window with a tree, keys alone keep the uid route
        assertEquals(
                Route.UID,
                Router.routeSteps(false, false, true, true, CaptureMode.PIXELS).route());
    }

    @Test
    void aHybridRouteOnAWindowWithoutSyntheticInputIsTheUidRouteWithoutPixels() {
        Routing wayland = Router.route("Draw a dot", false, true, true, CaptureMode.PIXELS)
                .withoutSyntheticInput();
        assertEquals(Route.UID, wayland.route());
        assertFalse(wayland.captures());
        assertFalse(wayland.permittedActions().contains("click_at"));
        assertThrows(
                IllegalArgumentException.class,
                () -> new Routing(Route.HYBRID, false, "no captures"),
                "the hybrid route always takes captures");
    }
}
