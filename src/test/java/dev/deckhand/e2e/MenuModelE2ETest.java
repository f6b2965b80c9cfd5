package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.model.stub.ProviderStub;
import dev.deckhand.platform.atspi.TestApp;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A model that opens an app's own menu and picks its item, end to end through MCP with a scripted model behind the
 * OpenAI wire format (issue 28): it finds the menu and then the item by their uids in the observation it is sent,
 * as a model reads them, so an item that only shows once its menu is open must be there in the next turn: GTK 3's
 * galculator, View ▸ Scientific Mode, and the verifier reads the effect the app shows. (Qt 5's featherpad was tried
 * the same way on 2026-12-07: Edit ▸ Select All was clicked, and the Edit menu clicked again showed no items in
 * the next turn, so Qt is not proven through a model yet.)
 */
@QuarkusTest
@Tag("e2e")
class MenuModelE2ETest {

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    /** The model's click on the element of abbreviated role {@code role} named {@code name} in this turn. */
    private static String click(ProviderStub.RecordedRequest r, String role, String name) {
        Matcher m = Pattern.compile(
                        "(?m)^\\s*(u[0-9A-Za-z]{3,16}) " + Pattern.quote(role) + " \"" + Pattern.quote(name) + "\"")
                .matcher(ScriptedModel.text(r));
        if (!m.find()) {
            throw new AssertionError(
                    "no " + role + " \"" + name + "\" in the turn the model was sent:\n" + ScriptedModel.text(r));
        }
        return "{\"action\":\"click\",\"uid\":\"" + m.group(1) + "\"}";
    }

    private static JsonPath run(String instruction, String verifier) throws Exception {
        return CalculatorStepsE2ETest.callWhenAccessible(
                "{\"instruction\":\"" + instruction + "\",\"verifier\":" + verifier + "}");
    }

    @Test
    void aModelOpensAGtk3MenuAndPicksItsItem() throws Exception {
        try (TestApp app = TestApp.launch(List.of("galculator"));
                OpenAiStub stub = OpenAiStub.start()) {
            long window = Owner.awaitWindow("galculator", "galculator");
            stub.enqueue(r -> click(r, "menu", "View"))
                    .enqueue(r -> click(r, "rmi", "Scientific Mode"))
                    .enqueue("{\"action\":\"done\",\"summary\":\"scientific mode is on\"}");
            Harness.bind(stub);
            Owner.mint(window, "confirm_each", List.of());
            JsonPath result;
            try (Owner.Approver approver = new Owner.Approver("approve")) {
                result = run(
                        "switch to scientific mode through the View menu",
                        "{\"kind\":\"a11y\",\"target\":{\"role\":\"toggle button\",\"name\":\"sin\"},"
                                + "\"expect\":{\"state\":\"showing\"}}");
            }
            assertEquals("completed", result.getString("result.structuredContent.outcome"), result.prettify());
            assertEquals("pass", result.getString("result.structuredContent.verdict"), result.prettify());
            assertEquals(2, result.getInt("result.structuredContent.stepsRun"), result.prettify());
            assertTrue(
                    ScriptedModel.text(stub.requests().get(1)).contains("rmi \"Scientific Mode\""),
                    "the open menu's item is in the next turn");
        }
    }
}
