package dev.deckhand.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.model.stub.OpenAiStub;
import dev.deckhand.model.stub.ProviderStub;
import dev.deckhand.platform.atspi.TestApp;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A model that opens an app's own menu and picks its item, end to end through MCP with a scripted model behind the
 * OpenAI wire format (issue 28): it finds the menu and then the item by their uids in the observation it is sent,
 * as a model reads them, so an item that only shows once its menu is open must be there in the next turn:
 * LibreOffice Writer's Edit ▸ Select All, then Format ▸ Text ▸ UPPERCASE through its submenu, and the verifier reads
 * the paragraph. Tried the same way on 2026-12-07 and not kept, because the run does not do it reliably yet (see
 * docs/eval.md, galculator): GTK 3's galculator, View ▸ Scientific Mode (one run in three, the item's click was
 * delivered eight times and the new keypad never showed: since found to be libatspi's cache, which kept it hidden,
 * and fixed; docs/driver-atspi.md, "A state read in passing"), and Qt 5's featherpad (the Edit menu clicked a second time showed no items
 * in the next turn). Runs only when asked ({@code -De2e.lomenus=true}): in two of three full runs on
 * 2026-12-07 (and once in CI), Writer's window showed its document and sidebar but no menu bar and no toolbars
 * for the run's whole length after another Writer test had run (KeysE2ETest), so the model found no Edit menu; run
 * alone it passed. Run after KeysE2ETest once more with that fix in: the same (the observation ended in the
 * formatting toolbar, no menu bar, the tree not partial). The cause is not known (docs/testing.md).
 */
@QuarkusTest
@Tag("e2e")
@EnabledIfSystemProperty(named = "e2e.lomenus", matches = "true")
class MenuModelE2ETest {

    @AfterEach
    void revoke() {
        Owner.revokeActive();
    }

    /** The uid of the element of abbreviated role {@code role} named {@code name} in this turn, if shown. */
    private static Optional<String> uid(ProviderStub.RecordedRequest r, String role, String name) {
        Matcher m = Pattern.compile(
                        "(?m)^\\s*(u[0-9A-Za-z]{3,16}) " + Pattern.quote(role) + " \"" + Pattern.quote(name) + "\"")
                .matcher(ScriptedModel.text(r));
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /**
     * A model that clicks {@code targets} (role, name) in order, each by its uid in the turn it is sent, and waits
     * 500 ms in a turn that does not show the next one yet (Writer's menu bar can come after its document), as a
     * model would; at most {@code MAX_WAITS} waits in all, then done.
     */
    private static final class ClickingModel {
        static final int MAX_WAITS = 20;
        private final List<String[]> targets;
        private int next;
        private int waits;

        ClickingModel(List<String[]> targets) {
            this.targets = targets;
        }

        synchronized String answer(ProviderStub.RecordedRequest r) {
            if (next == targets.size()) return "{\"action\":\"done\",\"summary\":\"the text is in upper case\"}";
            String[] t = targets.get(next);
            Optional<String> uid = uid(r, t[0], t[1]);
            if (uid.isPresent()) {
                next++;
                return "{\"action\":\"click\",\"uid\":\"" + uid.get() + "\"}";
            }
            if (++waits > MAX_WAITS) {
                System.out.println("MenuModelE2ETest: no " + t[1] + " in the last turn:\n" + ScriptedModel.text(r));
                throw new AssertionError(
                        "no " + t[0] + " \"" + t[1] + "\" in the turn the model was sent:\n" + ScriptedModel.text(r));
            }
            return "{\"action\":\"wait\",\"ms\":500}";
        }

        synchronized int waits() {
            return waits;
        }
    }

    private static JsonPath run(String instruction, String verifier) throws Exception {
        return CalculatorStepsE2ETest.callWhenAccessible(
                "{\"instruction\":\"" + instruction + "\",\"verifier\":" + verifier + "}");
    }

    @Test
    void aModelPicksLibreOfficeMenuItemsThroughASubmenu() throws Exception {
        try (TestApp writer = Writer.launch("quiet words\n");
                OpenAiStub stub = OpenAiStub.start()) {
            long window = Writer.window();
            ClickingModel model = new ClickingModel(List.of(
                    new String[] {"menu", "Edit"},
                    new String[] {"mi", "Select All"},
                    new String[] {"menu", "Format"},
                    new String[] {"menu", "Text"},
                    new String[] {"mi", "UPPERCASE"}));
            for (int i = 0; i < 6 + ClickingModel.MAX_WAITS; i++) stub.enqueue(model::answer);
            Harness.bind(stub);
            Owner.mint(window, "confirm_each", List.of());
            JsonPath result;
            try (Owner.Approver approver = new Owner.Approver("approve")) {
                result = run(
                        "put the whole text in upper case through the menus",
                        "{\"kind\":\"a11y\",\"target\":{\"role\":\"paragraph\",\"index\":0},"
                                + "\"expect\":{\"text\":\"QUIET WORDS\"}}");
            }
            assertEquals("completed", result.getString("result.structuredContent.outcome"), result.prettify());
            assertEquals("pass", result.getString("result.structuredContent.verdict"), result.prettify());
            assertEquals(5 + model.waits(), result.getInt("result.structuredContent.stepsRun"), result.prettify());
            Pattern bar = Pattern.compile("(?m)^\\s*u[0-9A-Za-z]{3,16} menubar\\b");
            for (ProviderStub.RecordedRequest r : stub.requests()) {
                long bars = bar.matcher(ScriptedModel.text(r)).results().count();
                assertTrue(bars <= 1, "at most one menu bar in a turn, not LibreOffice's flat one too: " + bars);
            }
        }
    }
}
