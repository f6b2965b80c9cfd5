package dev.deckhand.platform.linux;

import static dev.deckhand.platform.linux.PersonsDisplay.changed;
import static dev.deckhand.platform.linux.PersonsDisplay.image;
import static dev.deckhand.platform.linux.PersonsDisplay.poll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.Geometry;
import dev.deckhand.loop.desktop.Node;
import dev.deckhand.loop.desktop.ScopedTree;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.atspi.SampleApp;
import dev.deckhand.platform.atspi.TestApp;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code click_at} on a display Deckhand did not start (no {@code DECKHAND_PRIVATE_DESKTOP}), with another window
 * active and the real pointer resting in it: pointer events sent to the window where its toolkit takes them (GTK 3,
 * GTK 2, Xt), only while the window is active where its toolkit activates it on a press (Qt 5), never where its
 * toolkit drops them (GTK 4, whose controls are still pressed through their action); every click leaves the real
 * pointer and the active window as the person had them ({@link PersonsDisplay#clickAt}). Real apps, each ended by its
 * PID. LibreOffice and Chromium: {@link SentClickOfficeBrowserTest}.
 */
@Tag("desktop")
class SentClickDesktopTest {

    private static PersonsDisplay person;

    @BeforeAll
    static void open() throws Exception {
        person = new PersonsDisplay();
    }

    @AfterAll
    static void close() throws Exception {
        if (person != null) person.close();
    }

    @BeforeEach
    void personWorksElsewhere() throws Exception {
        person.personWorksElsewhere();
    }

    @Test
    void gtk3TakesClicksOnItsCanvasWhileAnotherWindowIsActive() throws Exception {
        try (TestApp app = TestApp.launch(
                List.of("/usr/bin/python3", PersonsDisplay.canvasApp().toString(), "Deckhand Canvas"))) {
            WindowInfo w = person.await(i -> i.title().equals("Deckhand Canvas"));
            person.personWorksElsewhere();
            // the hit test reads the latest tree of the window, as the loop's snapshot leaves it
            ScopedTree tree = awaitTree(
                    w.id(), t -> t.nodes().stream().anyMatch(n -> n.role().equals("drawing area")));
            Geometry canvas = tree.nodes().stream()
                    .filter(n -> n.role().equals("drawing area"))
                    .findFirst()
                    .orElseThrow()
                    .bounds();
            int x = canvas.x() - w.geometry().x() + 100,
                    y = canvas.y() - w.geometry().y() + 60;
            person.clickAt(w.id(), x, y);
            poll(
                    () -> app.log().contains("press 100 60 1"),
                    5_000,
                    "the canvas got a sent press at (100, 60): " + app.log());
            // a second click a moment later is a second press, not a double click (the events carry the server's time)
            person.clickAt(w.id(), x + 50, y + 20);
            poll(() -> app.log().contains("press 150 80 1"), 5_000, "the second press: " + app.log());
            assertEquals(
                    2, app.log().lines().filter(l -> l.startsWith("press ")).count(), app.log());
        }
    }

    @Test
    void gtk2DrawsWhereItIsClickedWhileAnotherWindowIsActive() throws Exception {
        Path home = Files.createTempDirectory("deckhand-mtpaint");
        try (TestApp app = TestApp.launch(List.of("mtpaint"), java.util.Map.of("HOME", home.toString()))) {
            WindowInfo w = person.await(
                    i -> i.app().equalsIgnoreCase("mtpaint") && i.title().startsWith("mtPaint"));
            person.personWorksElsewhere();
            Thread.sleep(1_000); // mtpaint draws its canvas once it is mapped
            // a point well inside the canvas, which a new image paints black; the pencil draws the colour A (red)
            int x = w.geometry().width() / 2 + 60, y = w.geometry().height() / 2 + 20;
            BufferedImage before = image(person.capture(w.id()));
            assertEquals(0x000000, before.getRGB(x, y) & 0xffffff, "the canvas is black before");
            person.clickAt(w.id(), x, y);
            int[] rgb = {0};
            poll(
                    () -> {
                        try {
                            rgb[0] = image(person.capture(w.id())).getRGB(x, y) & 0xffffff;
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                        return rgb[0] != 0;
                    },
                    5_000,
                    "a dot was drawn at the clicked pixel");
            assertTrue((rgb[0] >> 16 & 0xff) > 200 && (rgb[0] >> 8 & 0xff) < 60, "red: " + Integer.toHexString(rgb[0]));
        }
    }

    @Test
    void xtTakesAClickOnACalculatorKeyWhileAnotherWindowIsActive() throws Exception {
        try (TestApp app = TestApp.launch(List.of("xcalc"))) {
            WindowInfo w = person.await(i -> i.app().equalsIgnoreCase("xcalc"));
            person.personWorksElsewhere();
            Thread.sleep(500);
            BufferedImage before = image(person.capture(w.id()));
            int lcd = w.geometry().height() / 7; // the display is the top seventh of the window
            // the "2" key: third column, second row from the bottom (xcalc's fixed layout)
            person.clickAt(
                    w.id(), w.geometry().width() * 113 / 245, w.geometry().height() * 360 / 410);
            poll(
                    () -> {
                        try {
                            return changed(
                                            before,
                                            image(person.capture(w.id())),
                                            0,
                                            0,
                                            w.geometry().width(),
                                            lcd)
                                    > 20;
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    },
                    5_000,
                    "the calculator's display shows the digit");
        }
    }

    @Test
    void gtk4RefusesAPointOffItsControlsAndPressesAControlThroughItsAction() throws Exception {
        try (TestApp app = SampleApp.CALCULATOR.launch()) {
            WindowInfo w = person.await(i ->
                    i.app().equalsIgnoreCase("gnome-calculator") && i.title().equals("Calculator"));
            person.personWorksElsewhere();
            ScopedTree tree = awaitTree(w.id(), t -> t.nodes().stream().anyMatch(n -> button(n, "7")));
            Node display = tree.nodes().stream()
                    .filter(n -> n.role().equals("text") && n.editable())
                    .findFirst()
                    .orElseThrow();
            // the display is no control: a pointer click, which GTK 4 drops: refused, nothing sent
            int dx = display.bounds().x() - w.geometry().x() + display.bounds().width() / 2;
            int dy = display.bounds().y() - w.geometry().y() + display.bounds().height() / 2;
            RefusedException e = assertThrows(RefusedException.class, () -> person.clickAt(w.id(), dx, dy));
            assertEquals(RefusalCode.POINTER_WARP_REFUSED, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("GTK 4"), e.getMessage());
            // the 7 key is a control: its action presses it, with the person still elsewhere
            Node seven = tree.nodes().stream()
                    .filter(n -> button(n, "7"))
                    .findFirst()
                    .orElseThrow();
            person.clickAt(
                    w.id(),
                    seven.bounds().x() - w.geometry().x() + seven.bounds().width() / 2,
                    seven.bounds().y() - w.geometry().y() + seven.bounds().height() / 2);
            poll(
                    () -> {
                        String v = person.desktop.snapshot(w.id(), 1).nodes().stream()
                                .filter(n -> n.role().equals("text") && n.editable())
                                .findFirst()
                                .map(Node::value)
                                .orElse("");
                        return v != null && v.strip().equals("7");
                    },
                    5_000,
                    "the display shows 7");
        }
    }

    @Test
    void qt5IsRefusedWhileAnotherWindowIsActiveAndTakesTheClickOnceItIsActive() throws Exception {
        Path file = Files.createTempDirectory("deckhand-featherpad").resolve("note.txt");
        Files.writeString(file, "line one\nline two\n");
        try (TestApp app = TestApp.launch(List.of("featherpad", file.toString()))) {
            WindowInfo w = person.await(
                    i -> i.app().equalsIgnoreCase("featherpad") && i.title().contains("note.txt"));
            person.personWorksElsewhere();
            // the search field at the bottom: a text field, so a pointer click (its action would submit); its frame
            // turns to the focus colour when a click gives it the focus (Qt's focus state is not read here: measured
            // on the pixels, as a person sees it)
            Node search = lowestTextField(awaitTree(w.id(), t -> lowestTextFieldOf(t) != null));
            int fx = search.bounds().x() - w.geometry().x(),
                    fy = search.bounds().y() - w.geometry().y();
            int fw = search.bounds().width(), fh = search.bounds().height();
            int x = fx + 20, y = fy + fh / 2;
            BufferedImage before = image(person.capture(w.id()));
            RefusedException e = assertThrows(RefusedException.class, () -> person.clickAt(w.id(), x, y));
            assertEquals(RefusalCode.POINTER_WARP_REFUSED, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("Qt 5") && e.getMessage().contains("active"), e.getMessage());
            Thread.sleep(500);
            assertEquals(
                    0,
                    changed(before, image(person.capture(w.id())), fx - 2, fy - 2, fw + 4, fh + 4),
                    "nothing reached it");
            // the person makes featherpad the active window: the same click lands, and nothing else moves
            person.activate(w.id());
            Thread.sleep(500);
            BufferedImage active = image(person.capture(w.id()));
            person.desktop.snapshot(w.id(), 1);
            person.clickAt(w.id(), x, y);
            poll(
                    () -> {
                        try {
                            return changed(active, image(person.capture(w.id())), fx - 2, fy - 2, fw + 4, fh + 4) > 30;
                        } catch (java.io.IOException io) {
                            throw new java.io.UncheckedIOException(io);
                        }
                    },
                    5_000,
                    "the click gave the search field the focus (its frame changed)");
        }
    }

    private static boolean button(Node n, String label) {
        return n.role().equals("push button")
                && (n.name().equals(label) || n.name().equals(label + " " + label));
    }

    private static Node lowestTextFieldOf(ScopedTree t) {
        return t.nodes().stream()
                .filter(n -> (n.role().equals("text") || n.role().equals("entry"))
                        && n.editable()
                        && n.showing()
                        && n.bounds() != null)
                .max(Comparator.comparingInt(n -> n.bounds().y()))
                .orElse(null);
    }

    private static Node lowestTextField(ScopedTree t) {
        Node n = lowestTextFieldOf(t);
        if (n == null) throw new AssertionError("no text field in " + t.nodes());
        return n;
    }

    private static ScopedTree awaitTree(long window, java.util.function.Predicate<ScopedTree> ready)
            throws InterruptedException {
        Object last = null;
        for (int i = 0; i < 300; i++) {
            try {
                ScopedTree t = person.desktop.snapshot(window, 1);
                if (ready.test(t)) return t;
                last = t.nodes();
            } catch (RefusedException e) {
                last = e.getMessage();
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the window's tree never became ready; last: " + last);
    }
}
