package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.sun.jna.Pointer;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.loop.observe.ObservationText;
import dev.deckhand.loop.observe.TabularListing;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntPredicate;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What every AT-SPI application must show through {@link AtspiBridge} itself (the bridge's own
 * behaviour: hit testing, uid stability, title matching, the observation size), run against one real
 * app per subclass in the virtual desktop. A subclass starts the app and names its window. What the
 * {@code Desktop} port promises (tree content and uids, revisions, set/type, capture, basis, facts,
 * stopped and killed apps) is in {@code platform.linux.DesktopContract}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AtspiAppContract {

    protected AtspiBridge bridge;
    protected TestApp app;
    protected String title;
    protected Geometry geometry;
    private long revision = 1;

    /** The app under test. */
    protected abstract SampleApp sampleApp();

    /** Starts the app under test. */
    protected TestApp launchApp() throws Exception {
        return sampleApp().launch();
    }

    /** Matches the title of the app's window under test. */
    protected Predicate<String> windowTitle() {
        return sampleApp().windowTitle();
    }

    @BeforeAll
    void startApp() throws Exception {
        TestApp.requireDesktop();
        bridge = AtspiBridge.start();
        app = launchApp();
        title = app.awaitWindow(bridge, windowTitle(), 30_000);
        geometry = app.geometry(title);
        awaitContent();
    }

    /** Waits until the window has more than its frame (apps fill their tree after mapping). */
    protected void awaitContent() throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            ScopedTree t = snapshot();
            if (t.nodes().size() > 3 && !t.partial()) return;
            Thread.sleep(100);
        }
        fail("window '" + title + "' never showed content");
    }

    @AfterAll
    void stopApp() throws Exception {
        if (app != null) app.close();
        if (bridge != null) bridge.close();
    }

    protected long revision() {
        return revision;
    }

    /** Moves to a new grant revision: every earlier uid becomes invalid. */
    protected long nextRevision() {
        return ++revision;
    }

    /**
     * The compact observation the model reads is at most half of a tab-separated
     * one-line-per-node listing of the same tree (the format a well-known benchmark uses), measured
     * on this real window; the figures are printed.
     */
    @Test
    void compactObservationIsAtMostHalfOfTheTabularListing() {
        ScopedTree tree = snapshot();
        WindowInfo window =
                new WindowInfo(42L, title, getClass().getSimpleName(), app.pid(), geometry, 1, true, false, false);
        String compact = ObservationText.render(tree, window, 1_000_000);
        String tabular = TabularListing.render(tree);
        double ratio = (double) compact.length() / tabular.length();
        System.out.printf(
                java.util.Locale.ROOT,
                "observation %s: %d nodes; tabular %d chars (~%d tokens); compact %d"
                        + " chars (~%d tokens); ratio %.2f%n",
                getClass().getSimpleName(),
                tree.nodes().size(),
                tabular.length(),
                ObservationText.estimateTokens(tabular),
                compact.length(),
                ObservationText.estimateTokens(compact),
                ratio);
        assertTrue(ratio <= 0.5, "compact " + compact.length() + " / tabular " + tabular.length() + " chars");
    }

    /**
     * The tree of the window under test. Its title is re-read first, as the desktop driver re-reads
     * the X title (editors mark unsaved changes in it).
     */
    protected ScopedTree snapshot() {
        List<String> titles =
                bridge.windowTitles(app.pid()).stream().filter(windowTitle()).collect(Collectors.toList());
        if (titles.size() == 1) title = titles.get(0);
        return bridge.snapshot(app.pid(), title, geometry, 42L, revision);
    }

    protected static Node find(ScopedTree tree, String what, Predicate<Node> p) {
        List<Node> hits = tree.nodes().stream().filter(p).collect(Collectors.toList());
        if (hits.isEmpty()) fail("no " + what + " in the tree:\n" + dump(tree));
        return hits.get(0);
    }

    protected static String dump(ScopedTree tree) {
        return tree.nodes().stream()
                .map(n -> "  ".repeat(n.depth()) + n.role() + " '" + n.name() + "'"
                        + (n.value() != null ? " = '" + n.value() + "'" : ""))
                .collect(Collectors.joining("\n"));
    }

    @Test
    void windowBoundsLieInsideTheScreen() {
        // The frame itself, or (Swing reports -1 extents for its frame) its first child with bounds.
        Geometry b = snapshot().nodes().stream()
                .filter(n -> n.bounds() != null && n.depth() <= 1)
                .findFirst()
                .orElseThrow(() -> new AssertionError("the window has bounds"))
                .bounds();
        assertTrue(
                b.centerX() >= 0 && b.centerX() < 1280 && b.centerY() >= 0 && b.centerY() < 800,
                "window centre on the 1280x800 screen: " + b);
        if (geometry.width() > 0) {
            assertTrue(
                    Math.abs(b.centerX() - geometry.centerX()) < 20 && Math.abs(b.centerY() - geometry.centerY()) < 40,
                    "accessible frame " + b + " is where X11 puts the window " + geometry);
        }
    }

    /**
     * The walk from one Collection.GetMatches (where the app offers it) lists exactly what the
     * child-by-child walk lists, in the same order, with the same uids, pruned or not.
     */
    @Test
    void collectionWalkListsWhatTheChildByChildWalkLists() {
        for (boolean includeHidden : new boolean[] {false, true}) {
            ScopedTree fast = bridge.snapshot(app.pid(), title, geometry, 42L, revision, includeHidden);
            String how = bridge.lastWalkStats();
            bridge.useCollection(false);
            ScopedTree slow;
            try {
                slow = bridge.snapshot(app.pid(), title, geometry, 42L, revision, includeHidden);
            } finally {
                bridge.useCollection(true);
            }
            assertEquals(outline(slow), outline(fast), "includeHidden " + includeHidden + "; " + how);
        }
    }

    /** Bounds read in one pipelined burst are the bounds one GetExtents call per element reads. */
    @Test
    void pipelinedBoundsAreTheBoundsOfOneCallPerElement() {
        ScopedTree burst = bridge.snapshot(app.pid(), title, geometry, 42L, revision);
        bridge.pipelinedExtents(false);
        ScopedTree single;
        try {
            single = bridge.snapshot(app.pid(), title, geometry, 42L, revision);
        } finally {
            bridge.pipelinedExtents(true);
        }
        List<String> a =
                burst.nodes().stream().map(n -> n.uid() + " " + n.bounds()).collect(Collectors.toList());
        List<String> b =
                single.nodes().stream().map(n -> n.uid() + " " + n.bounds()).collect(Collectors.toList());
        assertEquals(b, a);
        assertTrue(burst.nodes().stream().anyMatch(n -> n.bounds() != null), "some element has bounds");
    }

    /**
     * Every node's flags and state names are what its element's state set answers one state at a
     * time ({@code atspi_state_set_contains}), read on the libatspi thread right after the walk with
     * nothing pumped in between; on GTK 4, showing and enabled are true whatever the set says.
     */
    @Test
    void nodeStatesAreWhatTheStateSetSaysStateByState() throws Exception {
        java.lang.reflect.Field on = AtspiBridge.class.getDeclaredField("on");
        on.setAccessible(true);
        @SuppressWarnings("unchecked")
        Confined<AtspiSession> session = (Confined<AtspiSession>) on.get(bridge);
        List<String> read = new ArrayList<>();
        List<String> says = new ArrayList<>();
        session.call("state check", Duration.ofSeconds(60), s -> {
            AtspiSession pumped = s.pumped();
            ScopedTree tree = pumped.tree().snapshot(app.pid(), title, geometry, 42L, revision, true);
            boolean gtk4 = pumped.bus().knownGtk4(app.pid());
            for (Node n : tree.nodes()) {
                Pointer set = AtspiNative.Atspi.atspi_accessible_get_state_set(
                        pumped.uids().find(n.uid()).obj());
                IntPredicate has = st -> set != null && AtspiNative.Atspi.atspi_state_set_contains(set, st) != 0;
                Set<String> names = new TreeSet<>();
                AtspiTree.STATE_NAMES.forEach((st, name) -> {
                    if (has.test(st)) names.add(name);
                });
                boolean enabled = gtk4 || has.test(AtspiNative.STATE_ENABLED) || has.test(AtspiNative.STATE_SENSITIVE);
                boolean showing = gtk4 || has.test(AtspiNative.STATE_SHOWING);
                boolean singleLine = has.test(AtspiNative.STATE_SINGLE_LINE) && !has.test(AtspiNative.STATE_MULTI_LINE);
                says.add(states(
                        n,
                        enabled,
                        has.test(AtspiNative.STATE_FOCUSED),
                        has.test(AtspiNative.STATE_EDITABLE),
                        showing,
                        singleLine,
                        has.test(AtspiNative.STATE_IS_DEFAULT),
                        names));
                read.add(states(
                        n,
                        n.enabled(),
                        n.focused(),
                        n.editable(),
                        n.showing(),
                        n.singleLine(),
                        n.isDefault(),
                        new TreeSet<>(n.states())));
                if (set != null) AtspiNative.Gobject.g_object_unref(set);
            }
            return null;
        });
        assertTrue(read.size() > 3, "the window has content: " + read);
        assertEquals(says, read);
    }

    private static String states(
            Node n,
            boolean enabled,
            boolean focused,
            boolean editable,
            boolean showing,
            boolean singleLine,
            boolean isDefault,
            Set<String> names) {
        return n.uid() + " " + n.role() + " '" + n.name() + "' enabled=" + enabled + " focused=" + focused
                + " editable=" + editable + " showing=" + showing + " singleLine=" + singleLine + " default="
                + isDefault + " " + names;
    }

    private static List<String> outline(ScopedTree tree) {
        return tree.nodes().stream()
                .map(n -> n.depth() + " " + n.uid() + " " + n.role() + " '" + n.name() + "' " + n.showing())
                .collect(Collectors.toList());
    }

    @Test
    void sameElementKeepsItsUidWithinARevision() {
        ScopedTree a = snapshot();
        ScopedTree b = snapshot();
        assertEquals(a.nodes().get(0).uid(), b.nodes().get(0).uid());
    }

    @Test
    void aWindowTitleTheAppDoesNotShowIsRefused() {
        RefusedException e = assertThrows(
                RefusedException.class,
                () -> bridge.snapshot(app.pid(), title + " (not this one)", geometry, 42L, revision));
        assertEquals(RefusalCode.A11Y_UNAVAILABLE, e.code());
        assertTrue(e.getMessage().contains("no window with the granted window's title"), e.getMessage());
        assertFalse(
                e.getMessage().contains(title), "the app's window titles are counted, never listed: " + e.getMessage());
    }

    @Test
    void hitFindsTheDeepestElementAtAPoint() {
        ScopedTree tree = snapshot();
        Node target = tree.nodes().stream()
                .filter(n -> n.showing()
                        && n.bounds() != null
                        && n.bounds().width() > 4
                        && n.bounds().height() > 4)
                .max((x, y) -> Integer.compare(x.depth(), y.depth()))
                .orElseThrow();
        int x = target.bounds().centerX();
        int y = target.bounds().centerY();
        Optional<String> hit = bridge.hit(x, y);
        assertTrue(hit.isPresent(), "something is at the centre of " + target);
        Node found = tree.byUid(hit.get()).orElseThrow();
        assertTrue(found.bounds().contains(x, y));
        assertTrue(found.depth() >= target.depth(), "deepest: " + found + " vs " + target);
        assertTrue(bridge.hit(-5000, -5000).isEmpty(), "nothing outside every element");
    }

    @Test
    void settleReturns() {
        bridge.settle(Duration.ofMillis(500));
        assertTrue(app.alive());
    }
}
