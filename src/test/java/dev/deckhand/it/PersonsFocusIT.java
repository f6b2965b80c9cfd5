package dev.deckhand.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.deckhand.grant.PolicyConfig;
import dev.deckhand.platform.atspi.TestApp;
import dev.deckhand.policy.PolicyDocument;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Deckhand never moves the person's focus, on a display it did not start: {@code deckhand run} (the packaged
 * server in its own process) without {@code DECKHAND_PRIVATE_DESKTOP} in its environment, so the virtual
 * desktop counts as the person's. The person works in another window (an xmessage, made active the way a
 * person's click would); a {@code focus} step on the granted mousepad is refused {@code OUT_OF_SCOPE} and the
 * xmessage stays the active window, read from outside with xprop. The control: the same step with
 * {@code DECKHAND_PRIVATE_DESKTOP=1} (the exemption) runs, and GTK 3's focus call does make mousepad active.
 * And an app that activates its own window when Deckhand clicks it ends the run.
 */
@Tag("e2e")
class PersonsFocusIT {

    private static final String FOCUS_STEP = "[{\"action\":\"focus\",\"target\":{\"role\":\"text\",\"index\":0}}]";

    @Test
    void aFocusStepWhileThePersonIsInAnotherWindowIsRefusedAndTheActiveWindowStays() throws Exception {
        TestApp.requireDesktop();
        Path file = Files.createTempDirectory("deckhand-it-focus").resolve("focus.txt");
        Files.writeString(file, "");
        try (TestApp editor = TestApp.launch(List.of("mousepad", file.toString()));
                TestApp person =
                        TestApp.launch(List.of("xmessage", "-name", "persons-window", "the person works here"))) {
            String mousepad = awaitWindow("--name", "focus\\.txt");
            String xmessage = awaitWindow("--classname", "persons-window");
            activate(xmessage);
            Path home = autonomousHome();
            RunCommandIT.Cli run = whenReady(home, Set.of("DECKHAND_PRIVATE_DESKTOP"), mousepad, xmessage);
            JsonNode result = new ObjectMapper().readTree(run.stdout());
            assertEquals("refused", result.path("outcome").asText(), run::why);
            assertEquals("OUT_OF_SCOPE", result.path("refusal").path("code").asText(), run::why);
            assertTrue(
                    result.path("refusal")
                            .path("detail")
                            .asText()
                            .startsWith("focus would activate the window while another window is active"),
                    run::why);
            assertEquals(0, result.path("stepsRun").asInt(), run::why);
            assertEquals(Long.parseLong(xmessage), activeWindow(), "the person's window is still the active one");
        }
    }

    @Test
    void onAPrivateDesktopDeckhandStartedTheSameFocusStepRunsAndActivatesTheWindow() throws Exception {
        TestApp.requireDesktop();
        Path file = Files.createTempDirectory("deckhand-it-focus").resolve("focus.txt");
        Files.writeString(file, "");
        try (TestApp editor = TestApp.launch(List.of("mousepad", file.toString()));
                TestApp person =
                        TestApp.launch(List.of("xmessage", "-name", "persons-window", "the person works here"))) {
            String mousepad = awaitWindow("--name", "focus\\.txt");
            String xmessage = awaitWindow("--classname", "persons-window");
            activate(xmessage);
            Path home = autonomousHome();
            RunCommandIT.Cli run = whenReady(home, Set.of(), mousepad, xmessage);
            JsonNode result = new ObjectMapper().readTree(run.stdout());
            assertEquals("completed", result.path("outcome").asText(), run::why);
            assertEquals(1, result.path("stepsRun").asInt(), run::why);
            long active = awaitActive(Long.parseLong(mousepad));
            assertNotEquals(Long.parseLong(xmessage), active, "GTK 3's focus call activated mousepad");
        }
    }

    /**
     * An app that activates its own window when acted on: a yad form whose button asks the window manager to
     * activate the form (as "bring to front" actions do). Deckhand's click on it while the person is in the
     * xmessage makes the granted window the active one; the run ends ({@code OUT_OF_SCOPE}, naming the windows
     * by id) at the click's settle or at the next check, and the last step never runs. (The form has a field to
     * fill and the button says Show, an everyday label: a dialog of buttons alone asks a question, whose answers the
     * consequential gate holds.)
     */
    @Test
    void anActionAfterWhichTheGrantedAppBecameActiveWhileThePersonWasElsewhereEndsTheRun() throws Exception {
        TestApp.requireDesktop();
        try (TestApp raiser = TestApp.launch(List.of(
                        "yad",
                        "--form",
                        "--title=raiser",
                        "--field=Name",
                        "--field=Show:FBTN",
                        "",
                        "xdotool search --name raiser windowactivate"));
                TestApp person =
                        TestApp.launch(List.of("xmessage", "-name", "persons-window", "the person works here"))) {
            String form = awaitWindow("--name", "raiser");
            String xmessage = awaitWindow("--classname", "persons-window");
            Path home = autonomousHome();
            RunCommandIT.Cli run = whenReady(
                    home,
                    Set.of("DECKHAND_PRIVATE_DESKTOP"),
                    "--app",
                    "yad",
                    xmessage,
                    "[{\"action\":\"click\",\"target\":{\"role\":\"push button\",\"name\":\"Show\"}},"
                            + "{\"action\":\"wait\",\"ms\":500},{\"action\":\"wait\",\"ms\":10}]",
                    "raiser");
            JsonNode result = new ObjectMapper().readTree(run.stdout());
            assertEquals("refused", result.path("outcome").asText(), run::why);
            assertEquals("OUT_OF_SCOPE", result.path("refusal").path("code").asText(), run::why);
            String detail = result.path("refusal").path("detail").asText();
            assertTrue(
                    detail.startsWith("the granted app's window 0x" + Long.toHexString(Long.parseLong(form))
                                    + " became the active window ")
                            && detail.contains(" s after the click while the person was in another window")
                            && !detail.contains(Long.toHexString(Long.parseLong(xmessage))),
                    run::why);
            // the window manager activates the form when yad's command has run: at the click's settle, at the
            // check before a later step or during the wait
            int steps = result.path("stepsRun").asInt();
            assertTrue(steps >= 1 && steps <= 2, "the click was delivered; the last step never ran: " + run.why());
            assertEquals(Long.parseLong(form), activeWindow(), "yad's own command activated it, as the run says");
        }
    }

    /**
     * The reviewer's B7 case through the packaged server: the person in an xmessage, a window grant on the editor,
     * autonomous, the one step a click on its Edit menu. A menu opened while the person is elsewhere would take their
     * keyboard (it grabs it), and reading that grab after the click raced the menu's opening: the click is refused
     * {@code OUT_OF_SCOPE} before delivery, so the person's next key ({@code xdotool key p}: Edit ▸ Paste were the
     * menu open, with a secret on the clipboard) pastes nothing.
     * GTK 3 (mousepad) and Qt 5 (featherpad, whose menu bar entries are menu items).
     */
    @Test
    void aMenuTheRunOpenedDoesNotKeepThePersonsKeyboard() throws Exception {
        TestApp.requireDesktop();
        String secret = "clipboard-secret-4711";
        for (String[] app : new String[][] {{"mousepad", "menu"}, {"featherpad", "menu item"}}) {
            Path file = Files.createTempDirectory("deckhand-it-menu").resolve("menu.txt");
            Files.writeString(file, "hello\n");
            Process clipboard = new ProcessBuilder("xclip", "-quiet", "-selection", "clipboard").start();
            clipboard.getOutputStream().write(secret.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            clipboard.getOutputStream().close();
            try (TestApp editor = TestApp.launch(List.of(app[0], file.toString()));
                    TestApp person =
                            TestApp.launch(List.of("xmessage", "-name", "persons-window", "the person works here"))) {
                String window = awaitWindow("--name", "menu\\.txt");
                String xmessage = awaitWindow("--classname", "persons-window");
                String step = "[{\"action\":\"click\",\"target\":{\"role\":\"" + app[1] + "\",\"name\":\"Edit\"}}]";
                RunCommandIT.Cli run = whenReady(
                        autonomousHome(),
                        Set.of("DECKHAND_PRIVATE_DESKTOP"),
                        "--window",
                        "0x" + Long.toHexString(Long.parseLong(window)),
                        xmessage,
                        step,
                        "menu");
                JsonNode result = new ObjectMapper().readTree(run.stdout());
                assertEquals("OUT_OF_SCOPE", result.path("refusal").path("code").asText(), app[0] + ": " + run.why());
                // refused before delivery: the menu never opens, so no race with its grab is left
                assertTrue(
                        result.path("refusal")
                                .path("detail")
                                .asText()
                                .contains("opening a menu or a popup while another window"),
                        run::why);
                assertEquals(0, result.path("stepsRun").asInt(), run::why);
                assertEquals(
                        Long.parseLong(xmessage), activeWindow(), app[0] + ": the person's window is still active");
                try (dev.deckhand.platform.linux.LinuxDesktop d = dev.deckhand.platform.linux.LinuxDesktop.open()) {
                    assertFalse(
                            d.freshFacts().keyboardGrabbed(), app[0] + ": no menu holds the keyboard after the run");
                    exec("xdotool", "key", "p"); // the person's next key
                    Thread.sleep(1500);
                    var w = d.windows().stream()
                            .filter(x -> x.id() == Long.parseLong(window))
                            .findFirst()
                            .orElseThrow();
                    StringBuilder text = new StringBuilder();
                    for (var n : d.atspi()
                            .snapshot(w.pid(), w.title(), w.geometry(), w.id(), 1, true)
                            .nodes()) {
                        text.append(n.name()).append('|').append(n.value()).append('\n');
                    }
                    assertTrue(text.toString().contains("hello"), app[0] + ": the document is read: " + text);
                    assertFalse(text.toString().contains(secret), app[0] + ": nothing was pasted");
                }
            } finally {
                clipboard.destroy();
                clipboard.waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Round 5 of the review (B1): a GTK 3 combo box's list is a popup menu that grabs the keyboard; a click on it
     * while the person was elsewhere opened it, and only the check after the click closed it. Refused before delivery
     * as a menu bar's menu is; {@code select} picks an option without opening it.
     */
    @Test
    void aComboBoxIsNotOpenedWhileThePersonIsElsewhere() throws Exception {
        TestApp.requireDesktop();
        try (TestApp form = TestApp.launch(List.of(
                        "yad",
                        "--title=deckhand-combo",
                        "--form",
                        "--field=Size:CB",
                        "Small!Medium!Large",
                        "--button=Close:1"));
                TestApp person =
                        TestApp.launch(List.of("xmessage", "-name", "persons-window", "the person works here"))) {
            String window = awaitWindow("--name", "deckhand-combo");
            String xmessage = awaitWindow("--classname", "persons-window");
            RunCommandIT.Cli run = whenReady(
                    autonomousHome(),
                    Set.of("DECKHAND_PRIVATE_DESKTOP"),
                    "--window",
                    "0x" + Long.toHexString(Long.parseLong(window)),
                    xmessage,
                    "[{\"action\":\"click\",\"target\":{\"role\":\"combo box\",\"name\":\"Small\"}}]",
                    "combo");
            JsonNode result = new ObjectMapper().readTree(run.stdout());
            assertEquals("OUT_OF_SCOPE", result.path("refusal").path("code").asText(), run.why());
            assertTrue(result.path("refusal").path("detail").asText().contains("opening a menu or a popup"), run::why);
            assertEquals(0, result.path("stepsRun").asInt(), run::why);
            assertEquals(Long.parseLong(xmessage), activeWindow(), "the person's window is still active");
            try (dev.deckhand.platform.linux.LinuxDesktop d = dev.deckhand.platform.linux.LinuxDesktop.open()) {
                assertFalse(d.freshFacts().keyboardGrabbed(), "no popup holds the keyboard after the run");
            }
        }
    }

    /**
     * Round 17 of the review (G3): yad's scale under "Pay now: slide to 100 to confirm the payment", the person in
     * another window. GTK 3 reports no focused element in a window that is not active, yet the scale takes the keys
     * sent to its window; {@code key End} slid it to 100 with nothing named. A key that moves, with the focused element
     * unknown, is judged by the dialog's words: refused {@code CONSEQUENTIAL_NOT_NAMED}, and yad prints nothing.
     */
    @Test
    void aMovingKeyWithTheFocusUnknownIsJudgedByTheDialogsWords() throws Exception {
        TestApp.requireDesktop();
        Path out = Files.createTempDirectory("deckhand-it-scale").resolve("printed.txt");
        try (TestApp scale = TestApp.launch(List.of(
                        "sh",
                        "-c",
                        "exec yad --title=deckhand-pay --scale --min-value=0 --max-value=100 --value=0"
                                + " --text='Pay now: slide to 100 to confirm the payment' --print-partial > "
                                + out));
                TestApp person =
                        TestApp.launch(List.of("xmessage", "-name", "persons-window", "the person works here"))) {
            String window = awaitWindow("--name", "deckhand-pay");
            String xmessage = awaitWindow("--classname", "persons-window");
            for (String key : List.of("End", "Page_Up")) {
                RunCommandIT.Cli run = whenReady(
                        autonomousHome(),
                        Set.of("DECKHAND_PRIVATE_DESKTOP"),
                        "--window",
                        "0x" + Long.toHexString(Long.parseLong(window)),
                        xmessage,
                        "[{\"action\":\"key\",\"keys\":\"" + key + "\"}]",
                        "deckhand-pay");
                JsonNode result = new ObjectMapper().readTree(run.stdout());
                assertEquals(
                        "CONSEQUENTIAL_NOT_NAMED",
                        result.path("refusal").path("code").asText(),
                        run::why);
                String detail = result.path("refusal").path("detail").asText();
                assertTrue(detail.contains("the focused element unknown") && detail.contains("pay"), run::why);
                assertEquals(0, result.path("stepsRun").asInt(), run::why);
            }
            Thread.sleep(300);
            assertEquals("", Files.readString(out).strip(), "the scale did not move");
        }
    }

    /**
     * Round 18's N1: the person in the granted mousepad, {@code key Menu} opened its context menu, which grabs the
     * keyboard, and {@code type "p"} chose its Paste while the text view still reported the focus. The context menu key
     * is refused itself now (round 19's T2g); the Edit menu, opened by a click with the person in the window, grabs the
     * keyboard as well, and its Paste is "_Paste". While the app's own menu holds the keyboard (the grab's holder
     * measured), typing is refused as choosing an item.
     */
    @Test
    void typingWhileTheAppsOwnMenuHoldsTheKeyboardChoosesAnItem() throws Exception {
        TestApp.requireDesktop();
        Path file = Files.createTempDirectory("deckhand-it-menu").resolve("menu.txt");
        Files.writeString(file, "hello\n");
        try (TestApp editor = TestApp.launch(List.of("mousepad", file.toString()))) {
            String mousepad = awaitWindow("--name", "menu\\.txt");
            RunCommandIT.Cli run = whenReady(
                    autonomousHome(),
                    Set.of("DECKHAND_PRIVATE_DESKTOP"),
                    "--window",
                    "0x" + Long.toHexString(Long.parseLong(mousepad)),
                    mousepad, // the person works in the granted window
                    "[{\"action\":\"click\",\"target\":{\"role\":\"menu\",\"name\":\"Edit\"}},"
                            + "{\"action\":\"type\",\"text\":\"p\"}]",
                    "menu");
            JsonNode result = new ObjectMapper().readTree(run.stdout());
            assertEquals(
                    "CONSEQUENTIAL_NOT_NAMED",
                    result.path("refusal").path("code").asText(),
                    run::why);
            assertTrue(
                    result.path("refusal")
                            .path("detail")
                            .asText()
                            .contains("typing while the app's own menu holds the keyboard"),
                    run::why);
            assertEquals(1, result.path("stepsRun").asInt(), "the menu opened, nothing was chosen: " + run.why());
            exec("xdotool", "key", "Escape");
        }
    }

    /** A config directory whose policy lets the terminal's grant be autonomous (no cards). */
    private static Path autonomousHome() throws Exception {
        Path home = RunCommandIT.home();
        PolicyDocument d = PolicyDocument.of(PolicyConfig.defaults());
        PolicyDocument acceptEdits = d.withPermissionMode("accept-edits");
        new ObjectMapper().writeValue(home.resolve("policy.json").toFile(), acceptEdits);
        return home;
    }

    /**
     * {@code deckhand run} with the focus step on mousepad's window, retried while it ends in preflight (exit 4:
     * the tree is not on the bus yet); the person's window is made active again before each attempt.
     */
    private static RunCommandIT.Cli whenReady(Path home, Set<String> unset, String mousepad, String xmessage)
            throws Exception {
        return whenReady(
                home,
                unset,
                "--window",
                "0x" + Long.toHexString(Long.parseLong(mousepad)),
                xmessage,
                FOCUS_STEP,
                "focus");
    }

    private static RunCommandIT.Cli whenReady(
            Path home, Set<String> unset, String how, String which, String xmessage, String steps, String title)
            throws Exception {
        RunCommandIT.Cli r = null;
        for (int attempt = 1; attempt <= 15; attempt++) {
            activate(xmessage);
            assertEquals(Long.parseLong(xmessage), activeWindow(), "the person's window is active before the run");
            r = RunCommandIT.cli(
                    home,
                    unset,
                    "--instruction",
                    "act in mousepad",
                    how,
                    which,
                    "--steps",
                    steps,
                    "--verifier",
                    "{\"kind\":\"window\",\"titleMatches\":\"" + title + "\"}",
                    "--json");
            if (r.exit() != 4) return r;
            Thread.sleep(500);
        }
        return r;
    }

    /** The first visible window xdotool finds for {@code how} (decimal id), waiting up to 30 s. */
    private static String awaitWindow(String how, String pattern) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            String out = exec("xdotool", "search", "--onlyvisible", how, pattern);
            List<String> ids = out.lines().filter(l -> l.matches("\\d+")).toList();
            if (!ids.isEmpty()) return ids.get(0);
            Thread.sleep(200);
        }
        throw new AssertionError("no visible window for " + how + " " + pattern + " within 30 s");
    }

    /** The person switches to {@code window} (as a click on it would): the window manager activates it. */
    private static void activate(String window) throws Exception {
        exec("xdotool", "windowactivate", "--sync", window);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (activeWindow() != Long.parseLong(window) && System.nanoTime() < deadline) Thread.sleep(50);
    }

    /** The root window's {@code _NET_ACTIVE_WINDOW}, read with xprop (0 when none). */
    static long activeWindow() throws Exception {
        String out = exec("xprop", "-root", "_NET_ACTIVE_WINDOW");
        var m = java.util.regex.Pattern.compile("window id # (0x[0-9a-fA-F]+)").matcher(out);
        return m.find() ? Long.decode(m.group(1)) : 0;
    }

    private static long awaitActive(long window) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        long active = activeWindow();
        while (active != window && System.nanoTime() < deadline) {
            Thread.sleep(50);
            active = activeWindow();
        }
        return active;
    }

    private static String exec(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(15, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", cmd) + " did not end");
        }
        return out;
    }
}
