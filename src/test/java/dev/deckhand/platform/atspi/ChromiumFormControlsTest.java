package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Chromium's form controls that have no Selection or EditableText interface (issue 28): a {@code <select>} is a
 * combo box without Selection whose options are menu items with a {@code select} action; a date field is three spin
 * buttons with a value and no text; a range is a slider. The page writes what its controls hold into its title, so
 * the test reads the page's own account of each change.
 */
@Tag("desktop")
class ChromiumFormControlsTest {

    private static final String PAGE = "<html><head><title>Form</title></head><body><form>"
            + "<label>Size <select id=s><option>Small</option><option selected>Medium</option>"
            + "<option>Large</option><option aria-label=\"Blue\">Pay now</option>"
            + "<option title=\"Deletes your account\">Red</option></select></label>"
            + "<label>Due <input type=date id=d></label><label>Level <input type=range id=r min=0 max=100></label>"
            + "</form><script>function report() { document.title = 'size=' + s.value + ' date=' + d.value"
            + " + ' level=' + r.value; }"
            + " for (const e of [s, d, r]) { e.addEventListener('input', report); e.addEventListener('change', report); }"
            + "</script></body></html>";

    private PageServer server;
    private AtspiBridge bridge;
    private TestApp chromium;
    private String title;
    private long revision;

    @BeforeEach
    void start() throws Exception {
        TestApp.requireDesktop();
        server = PageServer.serve(PAGE);
        bridge = AtspiBridge.start();
        chromium = TestApp.chromium(server.url("/form.html"));
        title = chromium.awaitWindow(bridge, t -> t.startsWith("Form"), 60_000);
    }

    @AfterEach
    void stop() throws Exception {
        if (chromium != null) chromium.close();
        if (bridge != null) bridge.close();
        if (server != null) server.close();
    }

    @Test
    void aSelectsOptionIsPickedByItsOwnActionAndARangeTakesANumberButADatesPartsDoNot() throws Exception {
        ScopedTree tree = awaitTree(n -> n.role().equals("combo box") && "Size".equals(n.name()));
        String combo = uid(tree, n -> n.role().equals("combo box"));
        // first what is refused, and leaves the page as it was: an option that is not there, text that is no number
        RefusedException none = assertThrows(RefusedException.class, () -> bridge.select(combo, "Huge"));
        assertEquals("OUT_OF_SCOPE", none.code().name(), none.getMessage());
        // round 15's S7: an option with a description (its title) was judged by its name alone; refused, and the
        // page sees no change (S6's aria-labelled option shows Chromium's tree nothing but its label: docs/security.md)
        RefusedException described = assertThrows(RefusedException.class, () -> bridge.select(combo, "Red"));
        assertEquals("OUT_OF_SCOPE", described.code().name(), described.getMessage());
        assertTrue(described.getMessage().contains("shows other text or a description"), described.getMessage());
        String month = uid(tree, n -> n.role().equals("spin button") && n.name().startsWith("Month"));
        RefusedException text = assertThrows(RefusedException.class, () -> bridge.setText(month, "July"));
        assertEquals("PLATFORM_UNSUPPORTED", text.code().name(), text.getMessage());
        assertEquals(title, chromium.awaitWindow(bridge, t -> t.startsWith("Form"), 5_000), "the page saw no change");

        bridge.select(combo, "Large");
        awaitTitle("size=Large ");

        tree = snapshot();
        bridge.setText(uid(tree, n -> n.role().equals("slider") && n.depth() > 7), "30");
        awaitTitle("size=Large date= level=30");

        // a date's parts take no value through accessibility: refused, measured, never a silent no-op
        tree = snapshot();
        String monthNow =
                uid(tree, n -> n.role().equals("spin button") && n.name().startsWith("Month"));
        RefusedException date = assertThrows(RefusedException.class, () -> bridge.setText(monthNow, "7"));
        assertEquals("PLATFORM_UNSUPPORTED", date.code().name(), date.getMessage());
        assertEquals(title, chromium.awaitWindow(bridge, t -> t.startsWith("size=Large date= level=30"), 5_000));
    }

    private ScopedTree snapshot() {
        return bridge.snapshot(chromium.pid(), title, new Geometry(0, 0, 0, 0), 3L, ++revision, true);
    }

    private ScopedTree awaitTree(Predicate<Node> wanted) throws InterruptedException {
        ScopedTree t = null;
        for (int i = 0; i < 150; i++) {
            t = snapshot();
            if (t.nodes().stream().anyMatch(wanted)) return t;
            Thread.sleep(200);
        }
        throw new AssertionError("the page's form never showed in the tree: "
                + t.nodes().size() + " nodes, partial " + t.partial() + ", "
                + t.nodes().stream()
                        .filter(n -> n.depth() > 5 && n.depth() < 10)
                        .map(n -> n.role() + ":" + n.name())
                        .toList());
    }

    private static String uid(ScopedTree tree, Predicate<Node> wanted) {
        return tree.nodes().stream()
                .filter(wanted)
                .findFirst()
                .orElseThrow(() -> new AssertionError("no such element in "
                        + tree.nodes().stream()
                                .filter(n -> n.depth() > 7
                                        && !n.role().equals("notification")
                                        && !n.role().equals("push button"))
                                .map(n -> n.role() + ":" + n.name())
                                .toList()))
                .uid();
    }

    private void awaitTitle(String prefix) throws InterruptedException {
        title = chromium.awaitWindow(bridge, t -> t.startsWith(prefix), 15_000);
    }
}
