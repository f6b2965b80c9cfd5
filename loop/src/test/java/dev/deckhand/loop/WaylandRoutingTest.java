package dev.deckhand.loop;

import static dev.deckhand.loop.LoopFixture.click;
import static dev.deckhand.loop.LoopFixture.done;
import static dev.deckhand.loop.LoopFixture.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusalCode;
import dev.deckhand.loop.fakes.ScriptedDecider;
import dev.deckhand.loop.route.Route;
import dev.deckhand.loop.route.Routing;
import dev.deckhand.loop.steps.StepParser;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** On a window without synthetic input (native Wayland, docs/wayland.md) the model is never offered key, type or click_at. */
@Tag("pure")
class WaylandRoutingTest {

    private final LoopFixture f = new LoopFixture();

    @Test
    void theSchemaAndTheRequestOfferNoSyntheticInputAndActionsByUidStillRun() {
        f.desktop.syntheticInput(false);
        ScriptedDecider model = ScriptedDecider.of(click("r1-ok"), done("pressed OK"));
        RunResult r = f.run(model, request("Press OK"));

        assertEquals(Outcome.Kind.COMPLETED, r.outcome().kind(), r.summary());
        assertEquals(Optional.of(Route.UID), r.route());
        assertEquals(List.of("click r1-ok"), f.desktop.delivered());
        DecisionRequest first = model.requests().get(0);
        assertFalse(first.syntheticInput(), "the request says the window takes no synthetic input");
        assertTrue(
                first.actionSchema()
                        .contains("\"enum\":[\"click\",\"set_text\",\"focus\",\"scroll\",\"select\","
                                + "\"wait\",\"done\",\"fail\"]"),
                "the actions offered: " + first.actionSchema());
        for (String field : List.of("\"keys\"", "\"basis\"", "\"x\"")) {
            assertFalse(first.actionSchema().contains(field), field + " is not in the schema: " + first.actionSchema());
        }
    }

    @Test
    void aKeyTheModelReturnsAnywayIsRejectedAndNeverReachesTheDesktop() {
        f.desktop.syntheticInput(false);
        ScriptedDecider model = ScriptedDecider.of(
                "{\"action\": \"key\", \"keys\": \"ctrl+s\"}",
                "{\"action\": \"type\", \"text\": \"x\"}",
                "{\"action\": \"key\", \"keys\": \"ctrl+s\"}");
        RunResult r = f.run(model, request("Save the file"));

        assertFalse(r.outcome().kind() == Outcome.Kind.COMPLETED, r.summary());
        assertEquals(List.of(), f.desktop.delivered(), "no input reached the desktop");
    }

    @Test
    void explicitStepsWithAKeyAreRefusedBeforeAnyStepRuns() {
        f.desktop.syntheticInput(false);
        RunResult r = f.run(
                new ScriptedDecider(),
                request("Press OK")
                        .withSteps(StepParser.parse(
                                "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"OK\"}},"
                                        + "{\"action\":\"key\",\"keys\":\"Return\"}]")));

        assertEquals(
                Optional.of(RefusalCode.WAYLAND_INPUT_UNSUPPORTED),
                r.outcome().refusal().map(x -> x.code()),
                r.summary());
        assertEquals(List.of(), f.desktop.delivered(), "not even the click ran");
    }

    @Test
    void theSameRunOnAnX11WindowStillOffersKeys() {
        ScriptedDecider model = ScriptedDecider.of(click("r1-ok"), done("pressed OK"));
        f.run(model, request("Press OK"));
        assertTrue(model.requests().get(0).syntheticInput());
        assertTrue(
                model.requests().get(0).actionSchema().contains("\"key\""),
                model.requests().get(0).actionSchema());
    }

    @Test
    void routingWithoutSyntheticInputDropsThePixelsRouteAndCaptures() {
        Routing uid = new Routing(Route.UID, false, "tree").withoutSyntheticInput();
        assertFalse(uid.permittedActions().contains("key"));
        assertFalse(uid.permittedActions().contains("type"));
        assertFalse(uid.permittedActions().contains("click_at"));
        assertTrue(uid.permittedActions().contains("click"));
        Routing readOnly = new Routing(Route.READ_ONLY, true, "no tree").withoutSyntheticInput();
        assertFalse(readOnly.captures(), "no captures on Wayland");
        dev.deckhand.grant.RefusedException e = org.junit.jupiter.api.Assertions.assertThrows(
                dev.deckhand.grant.RefusedException.class,
                () -> new Routing(Route.PIXELS, true, "no tree").withoutSyntheticInput());
        assertEquals(RefusalCode.WAYLAND_INPUT_UNSUPPORTED, e.code());
    }
}
