package dev.deckhand.platform.atspi;

import java.io.IOException;
import java.util.List;
import java.util.function.Predicate;

/**
 * The real apps the driver's test suites run against, each with how to start it and which of its
 * windows is under test; shared by the bridge-level suite ({@link AtspiAppContract}) and the port's
 * ({@code platform.linux.DesktopContract}).
 */
public enum SampleApp {
    /** GTK 3. */
    MOUSEPAD(t -> t.endsWith("Mousepad"), "mousepad"),
    /** GTK 4 (libadwaita); GTK 4.8 names its buttons like "1 1". */
    CALCULATOR("Calculator"::equals, "gnome-calculator"),
    /** Qt 5; single-instance over the session bus, retitled "*Untitled" once edited. */
    FEATHERPAD(t -> t.equals("Untitled") || t.contains("FeatherPad"), "featherpad"),
    /** GTK 3 (yad): one hidden-text field. */
    PASSWORD_DIALOG(
            SampleApp.PASSWORD_TITLE::equals,
            "yad",
            "--form",
            "--field",
            "Password:H",
            "--title",
            SampleApp.PASSWORD_TITLE),
    /** GTK 3 (yad): a combo box and a spin button; prints their values ("…|12|") on OK. */
    COMBO_DIALOG(
            SampleApp.COMBO_TITLE::equals,
            "yad",
            "--form",
            "--title",
            SampleApp.COMBO_TITLE,
            "--field",
            "Pick:CB",
            "--field",
            "Quantity:NUM",
            "alpha!beta!gamma",
            "1!1..99!1"),
    /** Swing through the ATK wrapper: {@link SwingTextFieldApp} in a child JVM. */
    SWING(SampleApp.SWING_TITLE::equals);

    public static final String PASSWORD_TITLE = "Deckhand Password";
    public static final String COMBO_TITLE = "Deckhand Combo";
    public static final String SWING_TITLE = "Deckhand Swing";

    private final Predicate<String> title;
    private final List<String> command;

    SampleApp(Predicate<String> title, String... command) {
        this.title = title;
        this.command = List.of(command);
    }

    /** Starts the app (private XDG directories, see {@link TestApp}). */
    public TestApp launch() throws IOException {
        return this == SWING ? TestApp.launchSwing(SwingTextFieldApp.class, SWING_TITLE) : TestApp.launch(command);
    }

    /** Matches the title of the app's window under test. */
    public Predicate<String> windowTitle() {
        return title;
    }
}
