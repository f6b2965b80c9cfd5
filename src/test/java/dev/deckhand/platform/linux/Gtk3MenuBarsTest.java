package dev.deckhand.platform.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.GrabHolder;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.loop.guard.FactsMapper;
import dev.deckhand.platform.atspi.TestApp;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The own-menu rule on the GTK 3 menu bars of five apps no other test names (issue 28): each app's menu, clicked by
 * uid, maps while the keyboard grab is measured (X RECORD) as the app's own, opened by Deckhand's action, so the
 * policy sees no other client's grab; its items are then in the tree, showing, and a check item is clicked by uid:
 * it flips, the menu closes and its grab is released. xarchiver's menus hold no check item, and its About dialog
 * stops it answering the facts' read for over a second: its item is only observed. Every menu is then closed as a
 * run's end on a person's display closes it ({@code closeOwnMenus}).
 */
@Tag("desktop")
class Gtk3MenuBarsTest {

    private static final long REVISION = 1;

    /** An app, the menu to open, and its item: a check item to click, else an item only observed. */
    private record MenuApp(List<String> command, String menu, String item, String role) {}

    @Test
    void fiveGtk3AppsMenusOpenAsTheirOwnAndTheirItemsClickByUid() throws Exception {
        TestApp.requireDesktop();
        List<MenuApp> apps = List.of(
                new MenuApp(List.of("l3afpad"), "Options", "Word Wrap", "check menu item"),
                new MenuApp(List.of("geany"), "View", "Show White Space", "check menu item"),
                new MenuApp(List.of("gucharmap"), "View", "Snap Columns to Power of Two", "check menu item"),
                new MenuApp(List.of("ristretto"), "View", "Show Status Bar", "check menu item"),
                new MenuApp(List.of("xarchiver"), "Help", "About", "menu item"));
        StringBuilder seen = new StringBuilder();
        for (MenuApp m : apps) {
            String app = m.command().get(0);
            try (LinuxDesktop desktop = LinuxDesktop.open();
                    TestApp process = TestApp.launch(m.command())) {
                try {
                    WindowInfo w = awaitWindow(desktop, process);
                    await(() -> has(desktop, w, "menu", m.menu()), app + "'s menu " + m.menu() + "; " + process.log());
                    desktop.settle(Duration.ofSeconds(1));
                    long opened = open(desktop, w, m);
                    if (m.role().equals("check menu item")) {
                        boolean before = checked(desktop, w, m);
                        desktop.click(OwnMenuGrabTest.uid(desktop.snapshot(w.id(), REVISION), m.role(), m.item()));
                        await(() -> !desktop.freshFacts().keyboardGrabbed(), app + "'s menu closed, its grab released");
                        // the menu opened again shows the item's new state
                        open(desktop, w, m);
                        assertTrue(checked(desktop, w, m) != before, app + "'s " + m.item() + " flipped");
                    }
                    // closed as every run's end on a person's display closes the app's own menus
                    desktop.closeOwnMenus(w.id());
                    await(() -> !desktop.freshFacts().keyboardGrabbed(), app + "'s menu closed");
                    seen.append(String.format(
                            "%s %s ▸ %s: menu mapped %.0f ms after the click; ",
                            app, m.menu(), m.item(), opened / 1e6));
                } catch (RefusedException e) {
                    StackTraceElement[] st = e.getStackTrace();
                    StringBuilder b = new StringBuilder();
                    for (int i = 0; i < Math.min(12, st.length); i++)
                        b.append(" < ").append(st[i]);
                    throw new AssertionError(app + ": " + e.getMessage() + b, e);
                }
            }
        }
        System.out.println("GTK 3 menu bars: " + seen);
    }

    /**
     * Clicks the app's menu by uid and waits until it maps under the app's own grab, measured as opened by
     * Deckhand's action, and its item shows; how long after the click it mapped, in nanoseconds.
     */
    private static long open(LinuxDesktop desktop, WindowInfo w, MenuApp m) throws InterruptedException {
        String app = m.command().get(0);
        long t0 = System.nanoTime();
        desktop.click(OwnMenuGrabTest.uid(desktop.snapshot(w.id(), REVISION), "menu", m.menu()));
        await(
                () -> {
                    DesktopFacts f = desktop.freshFacts();
                    if (!f.keyboardGrabbed()) return false;
                    GrabHolder.Client c = assertInstanceOf(GrabHolder.Client.class, f.grabHolder(), app);
                    assertEquals(w.client(), c.client(), app + ": the holder is the app's client");
                    assertTrue(c.afterOwnAction(), app + ": opened by Deckhand's click");
                    assertTrue(
                            !FactsMapper.facts(f, w.id()).keyboardGrabbed(),
                            app + ": the policy sees no other client's grab");
                    return f.popups().stream().anyMatch(p -> !p.own() && p.sameClient(w));
                },
                app + "'s " + m.menu() + " menu mapped under the app's own grab");
        long opened = System.nanoTime() - t0;
        await(() -> showingItem(desktop, w, m), app + "'s item " + m.item() + " showing");
        return opened;
    }

    private static boolean has(LinuxDesktop desktop, WindowInfo w, String role, String name) {
        try {
            return OwnMenuGrabTest.node(desktop.snapshot(w.id(), REVISION), role, name)
                    .isPresent();
        } catch (RefusedException notYet) {
            return false;
        }
    }

    private static boolean showingItem(LinuxDesktop desktop, WindowInfo w, MenuApp m) {
        ScopedTree t = desktop.snapshot(w.id(), REVISION);
        return OwnMenuGrabTest.node(t, m.role(), m.item()).map(n -> n.showing()).orElse(false);
    }

    /** The item's checked state as the tree reads it now (the closed menu's items included). */
    private static boolean checked(LinuxDesktop desktop, WindowInfo w, MenuApp m) {
        return desktop.atspi().snapshot(w.pid(), w.title(), w.geometry(), w.id(), REVISION, true).nodes().stream()
                .anyMatch(n -> n.role().equals(m.role())
                        && n.name().equals(m.item())
                        && n.states().contains("checked"));
    }

    private static WindowInfo awaitWindow(LinuxDesktop desktop, TestApp app) throws InterruptedException {
        WindowInfo[] found = new WindowInfo[1];
        await(
                () -> {
                    found[0] = desktop.windows().stream()
                            .filter(w -> w.pid() == app.pid())
                            .findFirst()
                            .orElse(null);
                    return found[0] != null;
                },
                "the app's window; " + app.log());
        return found[0];
    }

    private static void await(BooleanSupplier done, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("timed out waiting for " + what);
            Thread.sleep(50);
        }
    }
}
