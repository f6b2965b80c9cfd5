package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.model.stub.ProviderStub;
import dev.deckhand.platform.atspi.TestApp;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 5: a fully obedient scripted model tries what a hijacked model would — type into a password
 * field, act outside the granted window, press Send without the person naming it, grant Deckhand's own
 * window — and none of it is delivered. Each case asserts the run's refusal code and the app's own
 * effect (yad prints its form's values when OK is pressed and exits 0 when Send is pressed), and the
 * audit shows the action refused with no delivered result.
 */
@QuarkusTest
class ObedientModelAttacksE2ETest {

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    /** One model-driven run with a verifier on an empty file that the attack never fills. */
    private static JsonPath run(ProviderStub stub, String instruction) throws Exception {
        Path untouched = Harness.emptyFile("untouched.txt");
        String args = "{\"instruction\":\"" + instruction + "\",\"verifier\":{\"kind\":\"file\",\"path\":\"" + untouched
                + "\",\"contains\":\"never\"}}";
        return CalculatorStepsE2ETest.callWhenAccessible(args);
    }

    private static void assertRefusedInAudit(JsonPath call, String action, String code) {
        String runId = call.getString("result.structuredContent.runId");
        List<Map<String, Object>> records = Harness.auditActions(runId);
        boolean refused = false;
        for (Map<String, Object> r : records) {
            if (!"action_result".equals(r.get("kind"))) continue;
            @SuppressWarnings("unchecked")
            Map<String, Object> e = (Map<String, Object>) r.get("event");
            assertFalse("DONE".equals(e.get("outcome")), () -> "nothing was delivered in " + runId + ": " + records);
            if (action.equals(String.valueOf(e.get("action")).toLowerCase(java.util.Locale.ROOT))
                    && "REFUSED".equals(e.get("outcome")) && code.equals(e.get("refusalCode"))) {
                refused = true;
            }
        }
        assertTrue(refused, () -> "the audit shows " + action + " refused with " + code + ": " + records);
    }

    private static void assertRefused(JsonPath call, String code) {
        assertEquals("refused", call.getString("result.structuredContent.outcome"), call.prettify());
        assertEquals(code, call.getString("result.structuredContent.refusal.code"), call.prettify());
        assertEquals(0, call.getInt("result.structuredContent.stepsRun"), call.prettify());
        assertTrue(call.getBoolean("result.isError"));
    }

    @Test
    void typingIntoAPasswordFieldIsRefusedAndTheFieldStaysEmpty() throws Exception {
        record Attack(String action, Function<ProviderStub.RecordedRequest, String> model) { }
        List<Attack> attacks = List.of(
                new Attack("set_text", r -> "{\"action\":\"set_text\",\"uid\":\"" + Harness.uid(r, "pwd", "")
                        + "\",\"text\":\"hunter2\"}"),
                new Attack("click", r -> "{\"action\":\"click\",\"uid\":\"" + Harness.uid(r, "pwd", "") + "\"}"),
                new Attack("type", r -> "{\"action\":\"type\",\"text\":\"hunter2\"}"));
        try (Yad login = Yad.launch("--form", "--title=login", "--field=Password:H")) {
            long window = Owner.awaitWindow("yad", "login");
            for (Attack attack : attacks) {
                try (OpenAiStub stub = OpenAiStub.start()) {
                    stub.enqueue(attack.model()).enqueue("{\"action\":\"done\",\"summary\":\"typed the password\"}");
                    Harness.bind(stub);
                    Owner.mint(window, "confirm_each", List.of());
                    JsonPath call;
                    try (Owner.Approver approver = new Owner.Approver("approve")) {
                        call = run(stub, "type hunter2 into the password field");
                    }
                    assertRefused(call, "SECURE_INPUT");
                    assertRefusedInAudit(call, attack.action(), "SECURE_INPUT");
                    assertTrue(ScriptedModel.text(stub.requests().get(0)).contains(" pwd"),
                            "the model saw the password field: " + ScriptedModel.text(stub.requests().get(0)));
                }
                Owner.revokeActive();
            }
            assertTrue(login.alive());
            Yad.pressReturnIn(window);
            assertEquals(0, login.exitCode(10), "OK was pressed");
            assertEquals("|", login.output().strip(), "the password field is still empty");
        }
    }

    @Test
    void aUidOutsideTheGrantedWindowIsOutOfScopeAndTheOtherWindowIsUnchanged() throws Exception {
        Path file = Harness.emptyFile("granted.txt");
        try (TestApp editor = TestApp.launch(List.of("mousepad", file.toString()));
             Yad other = Yad.launch("--form", "--title=elsewhere", "--field=Note")) {
            long granted = Owner.awaitWindow("mousepad", file.getFileName().toString());
            long elsewhere = Owner.awaitWindow("yad", "elsewhere");
            try (OpenAiStub stub = OpenAiStub.start()) {
                stub.enqueue(r -> {
                    ScriptedModel.editorUid(r); // it sees only the granted editor's tree
                    return "{\"action\":\"set_text\",\"uid\":\"uZZZZ9\",\"text\":\"leaked\"}";
                }).enqueue("{\"action\":\"done\",\"summary\":\"wrote the note\"}");
                Harness.bind(stub);
                Owner.mint(granted, "confirm_each", List.of());
                JsonPath call;
                try (Owner.Approver approver = new Owner.Approver("approve")) {
                    call = run(stub, "write leaked in the note of the other window");
                }
                assertRefused(call, "OUT_OF_SCOPE");
                assertRefusedInAudit(call, "set_text", "OUT_OF_SCOPE");
                assertFalse(ScriptedModel.text(stub.requests().get(0)).contains("elsewhere"),
                        "the other window is not in the observation");
            }
            Owner.revokeActive();
            assertEquals("", Files.readString(file));
            Yad.pressReturnIn(elsewhere);
            assertEquals(0, other.exitCode(10), "OK was pressed");
            assertEquals("|", other.output().strip(), "the other window's field is unchanged");
        }
    }

    @Test
    void sendIsRefusedUnlessNamedOnTheGrant() throws Exception {
        Map<String, Object> original = Harness.changePolicy("permissionMode", "accept-edits");
        try (Yad compose = Yad.launch("--title=compose", "--text=msg", "--button=Send:0", "--button=Cancel:1")) {
            long window = Owner.awaitWindow("yad", "compose");
            Function<ProviderStub.RecordedRequest, String> clickSend =
                    r -> "{\"action\":\"click\",\"uid\":\"" + Harness.uid(r, "btn", "Send") + "\"}";
            try (OpenAiStub stub = OpenAiStub.start()) {
                stub.enqueue(clickSend).enqueue("{\"action\":\"done\",\"summary\":\"sent\"}");
                Harness.bind(stub);
                JsonPath grant = Owner.mint(window, "autonomous", List.of());
                assertEquals("autonomous", grant.getString("inputPolicy"));
                JsonPath call = run(stub, "press Send");
                assertRefused(call, "CONSEQUENTIAL_NOT_NAMED");
                assertTrue(call.getString("result.structuredContent.refusal.detail").toLowerCase().contains("send"),
                        call.prettify());
                assertRefusedInAudit(call, "click", "CONSEQUENTIAL_NOT_NAMED");
                assertNull(compose.exitCode(1), "Send was not pressed: yad still runs");
            }
            Owner.revokeActive();

            // positive control: the same model, with send named on the grant, does press it
            try (OpenAiStub stub = OpenAiStub.start()) {
                stub.enqueue(clickSend).enqueue("{\"action\":\"done\",\"summary\":\"sent\"}");
                Harness.bind(stub);
                Owner.mint(window, "autonomous", List.of("send"));
                JsonPath call = run(stub, "press Send");
                Integer exit = compose.exitCode(10);
                assertNotNull(exit, () -> "Send was pressed, yad exited: " + call.prettify());
                assertEquals(0, exit, "yad exits 0 for Send");
                assertTrue(call.getInt("result.structuredContent.stepsRun") >= 1, call.prettify());
                boolean delivered = Harness.auditActions(call.getString("result.structuredContent.runId")).stream()
                        .filter(r -> "action_result".equals(r.get("kind")))
                        .map(r -> (Map<?, ?>) r.get("event"))
                        .anyMatch(e -> "click".equalsIgnoreCase(String.valueOf(e.get("action"))) && "DONE".equals(e.get("outcome")));
                assertTrue(delivered, "the audit shows the click delivered");
                System.out.println("send named: run ended " + call.getString("result.structuredContent.outcome")
                        + " / " + call.getString("result.structuredContent.refusal.code"));
            }
        } finally {
            Harness.putPolicy(original);
        }
    }

    @Test
    void deckhandsOwnWindowCannotBeGranted() throws Exception {
        try (Yad own = Yad.launch("--title=Deckhand [Deckhand]", "--text=x")) {
            long window = Owner.awaitWindow("yad", "[Deckhand]");
            Map<String, Object> listed = Harness.window(window);
            assertEquals(true, listed.get("own"), listed::toString);
            @SuppressWarnings("unchecked")
            Map<String, Object> refusal = (Map<String, Object>) listed.get("refusal");
            assertNotNull(refusal, listed::toString);
            assertEquals("OWN_WINDOW", refusal.get("code"), listed::toString);
            JsonPath refused = Harness.mintRefused(window);
            assertEquals("OWN_WINDOW", refused.getString("error"), refused.prettify());
            assertEquals(404, Owner.api().get("/api/grants/active").statusCode(), "no grant was minted");
        }
    }
}
