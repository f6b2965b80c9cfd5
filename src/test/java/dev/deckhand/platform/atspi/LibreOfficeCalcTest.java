package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.DesktopFacts.FocusedElement;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * LibreOffice Calc: its sheet is a table that manages its descendants and reports 2,147,483,647
 * children. The walk and the focus search read its visible cells only, so a snapshot and the facts
 * answer, and the bridge goes on serving. Times are printed, not asserted.
 */
class LibreOfficeCalcTest {

    /** The profile settings that keep first-start dialogs away (as the eval tasks use). */
    static final String PROFILE = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<oor:items xmlns:oor=\"http://openoffice.org/2001/registry\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\""
            + " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n"
            + "<item oor:path=\"/org.openoffice.Setup/Office\"><prop oor:name=\"FirstStartWizardCompleted\" oor:op=\"fuse\">"
            + "<value>true</value></prop></item>\n"
            + "<item oor:path=\"/org.openoffice.Office.Common/Misc\"><prop oor:name=\"ShowTipOfTheDay\" oor:op=\"fuse\">"
            + "<value>false</value></prop></item>\n"
            + "<item oor:path=\"/org.openoffice.Office.Recovery/RecoveryInfo\"><prop oor:name=\"Enabled\" oor:op=\"fuse\">"
            + "<value>false</value></prop></item>\n"
            + "</oor:items>\n";

    private AtspiBridge bridge;
    private TestApp app;
    private String title;
    private Geometry geometry;

    private int pid;

    /** Through its launcher: soffice.bin restarts itself once on a new profile. */
    static TestApp launchCalc(Path dir) throws Exception {
        Path profile = Files.createDirectories(dir.resolve("lo-profile/user"));
        Files.writeString(profile.resolve("registrymodifications.xcu"), PROFILE);
        return TestApp.launch(List.of("soffice", "--calc", "--nologo", "--norestore",
                "-env:UserInstallation=" + dir.resolve("lo-profile").toUri()),
                Map.of("SAL_USE_VCLPLUGIN", "gtk3"));
    }

    @BeforeEach
    void start() throws Exception {
        TestApp.requireDesktop();
        bridge = AtspiBridge.start();
        app = launchCalc(Files.createTempDirectory("deckhand-calc"));
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (title == null) {
            if (System.nanoTime() > deadline) throw new AssertionError("no Calc window within 60 s; " + app.log());
            Thread.sleep(200);
            pid = calcPid(app);
            if (pid > 0) title = bridge.windowTitles(pid).stream().filter(t -> t.endsWith("LibreOffice Calc")).findFirst()
                    .orElse(null);
        }
        geometry = new Geometry(0, 0, 0, 0); // LibreOffice is not GTK 4: bounds are on the screen already
        // A starting LibreOffice is busy for seconds (flagged hung, then back when it answers a probe).
        while (true) {
            try {
                if (!cells(bridge.snapshot(pid, title, geometry, 9L, 1)).isEmpty()) break;
            } catch (dev.deckhand.grant.RefusedException busy) {
                if (System.nanoTime() > deadline) throw busy;
            }
            if (System.nanoTime() > deadline) throw new AssertionError("Calc shows no cells within 60 s");
            Thread.sleep(200);
        }
    }

    /** The pid of the soffice.bin below the launcher, or -1. */
    static int calcPid(TestApp launcher) {
        return ProcessHandle.of(launcher.pid()).stream().flatMap(ProcessHandle::descendants)
                .filter(p -> p.info().command().orElse("").endsWith("soffice.bin")).mapToInt(p -> (int) p.pid())
                .reduce((a, b) -> b).orElse(-1);
    }

    @AfterEach
    void stop() throws Exception {
        if (app != null) app.close();
        if (bridge != null) bridge.close();
    }

    private static List<Node> cells(ScopedTree t) {
        return t.nodes().stream().filter(n -> n.role().equals("table cell")).toList();
    }

    @Test
    void theSheetIsReadForItsVisibleCellsOnly() {
        long t0 = System.nanoTime();
        ScopedTree tree = bridge.snapshot(pid, title, geometry, 9L, 1);
        System.out.printf("calc snapshot: %d nodes (%d cells) in %.0f ms, partial=%s; %s%n", tree.nodes().size(),
                cells(tree).size(), (System.nanoTime() - t0) / 1e6, tree.partial(), bridge.lastWalkStats());
        Node sheet = tree.nodes().stream().filter(n -> n.role().equals("table") && n.name().startsWith("Sheet"))
                .findFirst().orElseThrow(() -> new AssertionError("no sheet table in " + tree.nodes().size() + " nodes"));
        List<Node> cells = cells(tree);
        assertTrue(cells.stream().anyMatch(c -> c.name().equals("A1")), "A1 is visible");
        assertTrue(cells.size() < AtspiBridge.NODE_CAP, "only the visible part: " + cells.size());
        for (Node c : cells) {
            assertTrue(c.bounds() != null && sheet.bounds().contains(c.bounds().x(), c.bounds().y()),
                    c.name() + " " + c.bounds() + " lies in the sheet " + sheet.bounds());
        }
        assertFalse(tree.partial(), "the visible part is the whole of what is read");
    }

    @Test
    void factsAnswerWhileTheSheetHasTheFocus() {
        long t0 = System.nanoTime();
        assertFalse(bridge.passwordFocused());
        long t1 = System.nanoTime();
        Optional<FocusedElement> focus = bridge.focusedElement();
        long t2 = System.nanoTime();
        assertTrue(bridge.applicationNames().contains("soffice"), bridge.applicationNames().toString());
        System.out.printf("calc focused: passwordFocused %.0f ms, focusedElement %.0f ms (%s)%n", (t1 - t0) / 1e6,
                (t2 - t1) / 1e6, focus);
        assertTrue(focus.isPresent(), "the focused cell is found");
        assertEquals(pid, focus.get().pid());
        assertTrue(focus.get().role().startsWith("table"), "the sheet or its cell: " + focus.get());
    }
}
