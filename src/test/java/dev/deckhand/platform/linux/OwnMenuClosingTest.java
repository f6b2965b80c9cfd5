package dev.deckhand.platform.linux;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.DesktopFacts;
import dev.deckhand.loop.desktop.GrabHolder;
import dev.deckhand.loop.desktop.MenuClosing;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.atspi.TestApp;
import dev.deckhand.platform.x11.OtherClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The reviewer's case (B7) on the platform: the person works in another window (an xmessage, active), the granted
 * app's Edit menu is opened by uid and holds the keyboard; {@code closeOwnMenus} (what every run's end does on the
 * person's display) closes it with an Escape to that very grab, the person's window stays active, and the person's
 * next key ({@code xdotool key p}, which the open Edit menu would take as Paste of a secret on the clipboard) leaves
 * the document as it was. On GTK 3 (mousepad) and Qt 5 (featherpad). A grab of another client is left alone.
 */
@Tag("desktop")
class OwnMenuClosingTest {

    private static final long REVISION = 1;
    private static final String SECRET = "clipboard-secret-4711";

    private record MenuApp(String name, List<String> command, String role) {}

    @Test
    void theAppsMenuDeckhandOpenedIsClosedAndThePersonsNextKeyDoesNotReachIt() throws Exception {
        TestApp.requireDesktop();
        Path file = Files.createTempFile("deckhand-menu", ".txt");
        List<MenuApp> apps = List.of(
                new MenuApp("GTK 3 mousepad", List.of("mousepad", file.toString()), "menu"),
                new MenuApp("Qt 5 featherpad", List.of("featherpad", file.toString()), "menu item"));
        StringBuilder seen = new StringBuilder();
        for (MenuApp m : apps) {
            Files.writeString(file, "hello\n");
            Process clipboard = new ProcessBuilder("xclip", "-quiet", "-selection", "clipboard").start();
            clipboard.getOutputStream().write(SECRET.getBytes(StandardCharsets.UTF_8));
            clipboard.getOutputStream().close();
            try (TestApp person =
                            TestApp.launch(List.of("xmessage", "-name", "persons-window", "the person's window"));
                    LinuxDesktop desktop = LinuxDesktop.open();
                    TestApp app = TestApp.launch(m.command())) {
                WindowInfo w = awaitWindow(desktop, app);
                await(() -> node(desktop, w, m.role(), "Edit") != null, m.name() + "'s Edit menu; log: " + app.log());
                desktop.settle(Duration.ofSeconds(2));
                String persons = exec("xdotool", "search", "--onlyvisible", "--classname", "persons-window")
                        .lines()
                        .filter(l -> l.matches("\\d+"))
                        .findFirst()
                        .orElseThrow();
                exec("xdotool", "windowactivate", "--sync", persons);
                await(() -> desktop.activeWindow() == Long.parseLong(persons), "the person's window active");
                desktop.click(node(desktop, w, m.role(), "Edit").uid());
                await(() -> desktop.freshFacts().keyboardGrabbed(), m.name() + ": the Edit menu holds the keyboard");
                DesktopFacts open = desktop.freshFacts();
                GrabHolder.Client c = assertInstanceOf(GrabHolder.Client.class, open.grabHolder(), m.name());
                assertEquals(w.client(), c.client(), m.name() + ": the app's own menu");
                assertTrue(c.afterOwnAction(), m.name() + ": opened by Deckhand's click");
                long t0 = System.nanoTime();
                MenuClosing closing = desktop.closeOwnMenus(w.id());
                long t1 = System.nanoTime();
                seen.append(String.format("%s: %s in %.1f ms%n", m.name(), closing, (t1 - t0) / 1e6));
                assertInstanceOf(MenuClosing.Closed.class, closing, m.name());
                assertFalse(desktop.freshFacts().keyboardGrabbed(), m.name() + ": nothing holds the keyboard");
                long active = desktop.activeWindow();
                if (m.name().startsWith("GTK")) {
                    assertEquals(Long.parseLong(persons), active, m.name() + ": the person's window active");
                } else {
                    // Qt 5 sometimes asks the window manager to activate its window around its menu (measured in CI,
                    // not every time): the run's focus watch ends such a run OUT_OF_SCOPE (docs/security.md); no
                    // third window may ever become active
                    assertTrue(
                            active == Long.parseLong(persons) || active == w.id(),
                            m.name() + ": the person's window or the app's is active, not 0x"
                                    + Long.toHexString(active));
                    seen.append(String.format(
                            "%s: active after closing: %s%n",
                            m.name(), active == w.id() ? "the app's window (Qt activated it)" : "the person's window"));
                }
                exec("xdotool", "key", "p"); // the person's next key
                desktop.settle(Duration.ofSeconds(1));
                Thread.sleep(500);
                String doc = text(desktop, w);
                assertTrue(doc.contains("hello"), m.name() + ": the document's text is read: " + doc);
                assertFalse(doc.contains(SECRET), m.name() + ": nothing was pasted: " + doc);
                assertFalse(desktop.freshFacts().keyboardGrabbed());
            } finally {
                clipboard.destroy();
                clipboard.waitFor(5, TimeUnit.SECONDS);
            }
        }
        System.out.print(seen);
    }

    @Test
    void anotherClientsGrabIsLeftAlone() throws Exception {
        TestApp.requireDesktop();
        Path file = Files.createTempFile("deckhand-menu", ".txt");
        Files.writeString(file, "hello\n");
        try (LinuxDesktop desktop = LinuxDesktop.open();
                TestApp app = TestApp.launch(List.of("mousepad", file.toString()));
                OtherClient other = new OtherClient(System.getenv("DISPLAY"))) {
            WindowInfo w = awaitWindow(desktop, app);
            await(() -> node(desktop, w, "menu", "Edit") != null, "mousepad's Edit menu");
            assertEquals(OtherClient.GRAB_SUCCESS, other.grabKeyboard());
            try {
                assertEquals(MenuClosing.NONE, desktop.closeOwnMenus(w.id()), "no Escape for another client's grab");
                assertTrue(desktop.freshFacts().keyboardGrabbed(), "the other client still holds the keyboard");
            } finally {
                other.ungrabKeyboard();
            }
        }
    }

    private static String text(LinuxDesktop desktop, WindowInfo w) {
        StringBuilder s = new StringBuilder();
        for (Node n : desktop.atspi()
                .snapshot(w.pid(), w.title(), w.geometry(), w.id(), REVISION, true)
                .nodes()) {
            s.append(n.name()).append('|').append(n.value()).append('\n');
        }
        return s.toString();
    }

    private static Node node(LinuxDesktop desktop, WindowInfo w, String role, String name) {
        try {
            ScopedTree t = desktop.snapshot(w.id(), REVISION);
            return t.nodes().stream()
                    .filter(n -> n.role().equals(role) && n.name().equals(name))
                    .findFirst()
                    .orElse(null);
        } catch (RefusedException notYet) {
            return null;
        }
    }

    private static WindowInfo awaitWindow(LinuxDesktop desktop, TestApp app) throws InterruptedException {
        WindowInfo[] found = {null};
        await(
                () -> {
                    for (WindowInfo w : desktop.windows()) {
                        if (w.pid() == app.pid() && w.visible()) found[0] = w;
                    }
                    return found[0] != null;
                },
                "the app's window; log: " + app.log());
        return found[0];
    }

    private static void await(BooleanSupplier done, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("timed out waiting for " + what);
            Thread.sleep(50);
        }
    }

    private static String exec(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(15, TimeUnit.SECONDS)) p.destroyForcibly();
        return out;
    }
}
