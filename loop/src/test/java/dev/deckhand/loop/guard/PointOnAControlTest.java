package dev.deckhand.loop.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.Consequential;
import dev.deckhand.grant.ConsequentialWords;
import dev.deckhand.grant.ProposedAction;
import dev.deckhand.loop.action.Action;
import dev.deckhand.loop.desktop.Basis;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The hit test of the hybrid route: a {@code click_at} read through the capture (its pixels at the capture's scale)
 * lands on the element the tree shows there, and the gate judges it as the click on that element; a point on a
 * canvas or on nothing is {@code unidentified}.
 */
@Tag("pure")
class PointOnAControlTest {

    private static final Geometry WINDOW = new Geometry(100, 50, 400, 300);
    private static final long ID = 7;

    private static Node node(String uid, int depth, String role, String name, Geometry g) {
        return new Node(uid, depth, role, name, false, null, true, false, false, true, g);
    }

    private static final ScopedTree TREE = new ScopedTree(
            ID,
            3,
            List.of(
                    node("uF", 0, "frame", "Compose", WINDOW),
                    node("uC", 1, "drawing area", "", new Geometry(100, 70, 400, 220)),
                    node("uS", 1, "push button", "Send", new Geometry(300, 300, 200, 40))),
            false);

    private static final DesktopFacts FACTS = new DesktopFacts(
            false,
            false,
            Set.of(),
            List.of(new WindowInfo(ID, "Compose", "mail", 42, WINDOW, 1, true, false, false)),
            Optional.empty());

    private static ProposedAction point(int x, int y) {
        Basis basis = new Basis(3, ID, WINDOW, 0.5);
        return Proposals.propose(new Action.ClickAt(x, y, "c1"), TREE, ID, FactsMapper.basis(basis), basis, FACTS);
    }

    @Test
    void aPointOnSendThroughTheCaptureIsTheClickOnSend() {
        // Send sits at window (200..400, 250..290): capture (100..200, 125..145) at scale 0.5
        ProposedAction byPoint = point(150, 135);
        ProposedAction byUid = Proposals.propose(new Action.Click("uS"), TREE, ID, null, null, FACTS);
        assertEquals(Optional.of("Send"), byPoint.element().map(ProposedAction.Element::name));
        Consequential.Match p =
                Consequential.classify(byPoint, ConsequentialWords.defaults()).orElseThrow();
        Consequential.Match u =
                Consequential.classify(byUid, ConsequentialWords.defaults()).orElseThrow();
        assertEquals(u.categories(), p.categories(), "the same category as the uid click: " + p + " / " + u);
        assertTrue(p.categories().contains("send"), p.toString());
    }

    @Test
    void aPointOnTheCanvasOrOnNothingIsUnidentified() {
        for (ProposedAction a : List.of(point(100, 60), point(10, 150))) {
            assertTrue(a.element().isEmpty(), "a canvas says nothing of what it draws");
            assertEquals(
                    Set.of(Consequential.UNIDENTIFIED),
                    Consequential.classify(a, ConsequentialWords.defaults())
                            .orElseThrow()
                            .categories());
        }
    }
}
