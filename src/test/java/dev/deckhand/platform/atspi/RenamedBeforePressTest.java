package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Round 15's F1 and round 17's C3, C4: a page renamed its button to "Delete account" between the step's check and its press. A click asks
 * the app for the element's name right before the press and refuses one that is not the name the last walk read (the
 * name the gate judged); the page records no click. A button that kept its name is pressed.
 */
@Tag("desktop")
class RenamedBeforePressTest {

    private static final String PAGE = "<html><head><title>Renames</title></head><body>"
            + "<button id=b onclick=\"document.title = 'pressed ' + b.textContent\">Archive</button>"
            + "<button id=k onclick=\"document.title = 'pressed kept'\">Keep</button>"
            + "<button id=o aria-label=\"Open\" onclick=\"document.title = 'pressed ' + o.textContent\">Open</button>"
            + "<button id=s onclick=\"document.title = 'pressed ' + s.title\">Show</button>"
            + "<script>setTimeout(() => { b.textContent = 'Delete account'; o.textContent = 'Pay now';"
            + " s.title = 'Delete account'; }, 3000);</script></body></html>";

    @Test
    void aButtonRenamedAfterTheWalkIsNotPressed() throws Exception {
        TestApp.requireDesktop();
        try (PageServer server = PageServer.serve(PAGE);
                AtspiBridge bridge = AtspiBridge.start();
                TestApp chromium = TestApp.chromium(server.url("/renames.html"))) {
            String title = chromium.awaitWindow(bridge, t -> t.startsWith("Renames"), 60_000);
            ScopedTree tree = null;
            for (int i = 0; i < 100; i++) {
                tree = bridge.snapshot(chromium.pid(), title, new Geometry(0, 0, 0, 0), 3L, 1, false);
                if (find(tree, "Archive") != null) break;
                Thread.sleep(100);
            }
            Node archive = find(tree, "Archive");
            assertTrue(archive != null, "the page's Archive button");
            String keep = find(tree, "Keep").uid();
            String open = find(tree, "Open").uid();
            String show = find(tree, "Show").uid();
            // no walk after the rename: the uid's name is still the one read, as in a step's last check
            Thread.sleep(4000);
            RefusedException e = assertThrows(RefusedException.class, () -> bridge.click(archive.uid()));
            assertEquals("OUT_OF_SCOPE", e.code().name(), e.getMessage());
            assertTrue(e.getMessage().contains("was renamed since it was read"), e.getMessage());
            assertTrue(!e.getMessage().contains("Delete"), "the new name is never echoed: " + e.getMessage());
            // round 17's C3, C4: what it shows (under an aria-label) or its title changed, its name did not
            for (String same : List.of(open, show)) {
                RefusedException shown = assertThrows(RefusedException.class, () -> bridge.click(same));
                assertEquals("OUT_OF_SCOPE", shown.code().name(), shown.getMessage());
                assertTrue(shown.getMessage().contains("changed its shown text or description"), shown.getMessage());
            }
            bridge.click(keep);
            String after = chromium.awaitWindow(bridge, t -> t.startsWith("pressed"), 10_000);
            assertTrue(
                    after.startsWith("pressed kept"), "the renamed button was not pressed, the kept one was: " + after);
        }
    }

    private static Node find(ScopedTree t, String name) {
        return t.nodes().stream()
                .filter(n -> n.role().equals("push button") && n.name().equals(name))
                .findFirst()
                .orElse(null);
    }
}
