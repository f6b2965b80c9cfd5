package dev.deckhand.platform.linux;

import static dev.deckhand.platform.linux.PersonsDisplay.changed;
import static dev.deckhand.platform.linux.PersonsDisplay.image;
import static dev.deckhand.platform.linux.PersonsDisplay.poll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.atspi.TestApp;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link SentClickDesktopTest} for LibreOffice (both of its X11 backends) and Chromium, with another window active:
 * LibreOffice on its GTK 3 backend takes a click on a cell; on its own backend ({@code gen}) and in Chromium a click is
 * refused while another window is active (both activate their window on a press) and lands once the window is active.
 * The real pointer and the active window never move ({@link PersonsDisplay#clickAt}).
 */
@Tag("desktop")
class SentClickOfficeBrowserTest {

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

    private static TestApp calc(String backend) throws IOException {
        Path dir = Files.createTempDirectory("deckhand-calc-" + backend);
        Path profile = Files.createDirectories(dir.resolve("lo-profile/user"));
        Files.writeString(
                profile.resolve("registrymodifications.xcu"),
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                        + "<oor:items xmlns:oor=\"http://openoffice.org/2001/registry\" xmlns:xs=\"http://www.w3.org/2001/XMLSchema\""
                        + " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n"
                        + "<item oor:path=\"/org.openoffice.Setup/Office\"><prop oor:name=\"FirstStartWizardCompleted\" oor:op=\"fuse\">"
                        + "<value>true</value></prop></item>\n"
                        + "<item oor:path=\"/org.openoffice.Office.Common/Misc\"><prop oor:name=\"ShowTipOfTheDay\" oor:op=\"fuse\">"
                        + "<value>false</value></prop></item>\n"
                        + "<item oor:path=\"/org.openoffice.Office.Recovery/RecoveryInfo\"><prop oor:name=\"Enabled\" oor:op=\"fuse\">"
                        + "<value>false</value></prop></item>\n</oor:items>\n");
        return TestApp.launch(
                List.of(
                        "soffice",
                        "--calc",
                        "--nologo",
                        "--norestore",
                        "-env:UserInstallation=" + dir.resolve("lo-profile").toUri()),
                Map.of("SAL_USE_VCLPLUGIN", backend));
    }

    private static BufferedImage shot(long window) {
        try {
            return image(person.capture(window));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The cell cursor moves to a clicked cell (the pixels of that cell change), within 10 s. */
    private static void cellCursorMoves(long window, BufferedImage before, int x, int y) throws InterruptedException {
        poll(
                () -> changed(before, shot(window), x - 40, y - 8, 80, 16) > 40,
                10_000,
                "the cell cursor moved to the clicked cell");
    }

    @Test
    void libreOfficeOnGtk3TakesAClickOnACellWhileAnotherWindowIsActive() throws Exception {
        try (TestApp app = calc("gtk3")) {
            WindowInfo w = person.await(i -> i.title().contains("LibreOffice Calc"));
            person.personWorksElsewhere();
            Thread.sleep(2_000); // Calc paints its grid after the window maps
            int x = 250, y = w.geometry().height() / 2;
            BufferedImage before = shot(w.id());
            person.clickAt(w.id(), x, y);
            cellCursorMoves(w.id(), before, x, y);
        }
    }

    @Test
    void libreOfficeOnItsOwnBackendIsRefusedWhileAnotherWindowIsActiveAndTakesTheClickOnceActive() throws Exception {
        try (TestApp app = calc("gen")) {
            WindowInfo w = person.await(i -> i.title().contains("LibreOffice Calc"));
            person.personWorksElsewhere();
            Thread.sleep(2_000);
            int x = 250, y = w.geometry().height() / 2;
            BufferedImage before = shot(w.id());
            RefusedException e = assertThrows(RefusedException.class, () -> person.clickAt(w.id(), x, y));
            assertEquals(RefusalCode.POINTER_WARP_REFUSED, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("gen") && e.getMessage().contains("active"), e.getMessage());
            Thread.sleep(500);
            assertEquals(0, changed(before, shot(w.id()), x - 40, y - 8, 80, 16), "nothing reached the cell");
            person.activate(w.id());
            Thread.sleep(1_000);
            BufferedImage active = shot(w.id());
            person.clickAt(w.id(), x, y);
            cellCursorMoves(w.id(), active, x, y);
        }
    }

    @Test
    void chromiumIsRefusedWhileAnotherWindowIsActiveAndTakesTheClickOnceActive() throws Exception {
        Path dir = Files.createTempDirectory("deckhand-chromium-click");
        Path page = dir.resolve("canvas.html");
        Files.writeString(
                page,
                "<html><head><title>page start</title></head><body style=\"margin:0\">"
                        + "<canvas id=c width=2000 height=2000 style=\"background:#ddd\"></canvas><script>var n=0;"
                        + "document.getElementById('c').addEventListener('mousedown',function(e){n++;"
                        + "document.title='down '+n+' at '+e.offsetX+','+e.offsetY;});</script></body></html>");
        try (TestApp app = TestApp.launch(List.of(
                "chromium",
                "--no-sandbox",
                "--user-data-dir=" + dir.resolve("profile"),
                "--no-first-run",
                "--disable-gpu",
                "--disable-sync",
                "--no-default-browser-check",
                "--window-size=800,700",
                page.toUri().toString()))) {
            WindowInfo w = person.await(i -> i.title().startsWith("page start"));
            person.personWorksElsewhere();
            Thread.sleep(1_000);
            // the lower half of the window is the page's canvas, below the tab strip, the toolbar and any info bar
            int x = 200, y = w.geometry().height() - 150;
            RefusedException e = assertThrows(RefusedException.class, () -> person.clickAt(w.id(), x, y));
            assertEquals(RefusalCode.POINTER_WARP_REFUSED, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("Chromium") && e.getMessage().contains("active"), e.getMessage());
            Thread.sleep(500);
            assertTrue(
                    person.desktop.windows().stream()
                            .anyMatch(i -> i.id() == w.id() && i.title().startsWith("page start")),
                    "no press reached the page");
            person.activate(w.id());
            person.clickAt(w.id(), x, y);
            // the page starts a few pixels into the window (measured: 4), so the press lands at x 196 of the page
            java.util.regex.Pattern down = java.util.regex.Pattern.compile("down 1 at (\\d+),\\d+.*");
            poll(
                    () -> person.desktop.windows().stream().anyMatch(i -> {
                        java.util.regex.Matcher m = down.matcher(i.title());
                        return i.id() == w.id() && m.matches() && Math.abs(Integer.parseInt(m.group(1)) - x) <= 10;
                    }),
                    10_000,
                    "the page got one press at x 200 of the window");
        }
    }
}
