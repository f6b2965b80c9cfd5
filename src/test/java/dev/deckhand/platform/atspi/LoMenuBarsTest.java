package dev.deckhand.platform.atspi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * LibreOffice Writer on its GTK 3 backend shows its menus twice in the tree: GTK's menu bar, whose menus open on
 * their click action, and its own menu bar of zero height, whose menus offer no action at all (issue 28). The
 * snapshot keeps the bar a person can see: one menu bar, every menu of it opens by uid.
 */
@Tag("desktop")
class LoMenuBarsTest {

    @Test
    void writerShowsOneMenuBarAndItsMenusOpenByUid() throws Exception {
        TestApp.requireDesktop();
        Path dir = Files.createTempDirectory("deckhand-lo-menus");
        try (AtspiBridge bridge = AtspiBridge.start();
                TestApp launcher = TestApp.launch(
                        List.of(
                                "soffice",
                                "--writer",
                                "--nologo",
                                "--norestore",
                                "-env:UserInstallation="
                                        + dir.resolve("lo-profile").toUri()),
                        Map.of("SAL_USE_VCLPLUGIN", "gtk3"))) {
            int pid = -1;
            String title = null;
            for (int i = 0; i < 600 && title == null; i++) {
                pid = TestApp.calcPid(launcher);
                if (pid > 0) {
                    title = bridge.windowTitles(pid).stream()
                            .filter(t -> t.endsWith("LibreOffice Writer"))
                            .findFirst()
                            .orElse(null);
                }
                if (title == null) Thread.sleep(100);
            }
            assertTrue(title != null, "Writer's window never appeared");
            ScopedTree tree = awaitMenus(bridge, pid, title);
            List<Node> bars = tree.nodes().stream()
                    .filter(n -> n.role().equals("menu bar"))
                    .toList();
            assertEquals(1, bars.size(), "one menu bar: " + bars);
            Node bar = bars.get(0);
            assertTrue(bar.bounds().width() > 0 && bar.bounds().height() > 0, bar.toString());
            Node format = tree.nodes().stream()
                    .filter(n -> n.role().equals("menu") && "Format".equals(n.name()))
                    .findFirst()
                    .orElseThrow();
            bridge.click(format.uid());
            long open = 0;
            for (int i = 0; i < 50 && open == 0; i++) {
                Thread.sleep(100);
                open = bridge.snapshot(pid, title, new Geometry(0, 0, 0, 0), 3L, 2 + i).nodes().stream()
                        .filter(n -> n.role().equals("menu item") && n.showing())
                        .count();
            }
            assertTrue(open > 0, "the Format menu opened on its click");
        }
    }

    private static ScopedTree awaitMenus(AtspiBridge bridge, int pid, String title) throws InterruptedException {
        ScopedTree t = null;
        for (int i = 0; i < 100; i++) {
            try {
                t = bridge.snapshot(pid, title, new Geometry(0, 0, 0, 0), 3L, 1);
                if (t.nodes().stream().anyMatch(n -> n.role().equals("menu") && "Format".equals(n.name()))) return t;
            } catch (dev.deckhand.grant.RefusedException starting) {
                // the window is there before its tree is
            }
            Thread.sleep(200);
        }
        throw new AssertionError("Writer's menus never showed: "
                + (t == null ? "no tree" : t.nodes().size() + " nodes"));
    }
}
