package dev.deckhand.doctor;

import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.Desktops;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/**
 * The keyboard path per toolkit: how Deckhand's key chords and typing reach each running app (read
 * from the toolkit; nothing is typed). Red only when there is no X display to send keys through.
 */
@ApplicationScoped
public class KeyboardPathCheck implements DoctorCheck {

    static final String ID = "keyboard-path";
    static final String TITLE = "Keyboard path per toolkit";

    /** A native Wayland window's keyboard path: none (docs/wayland.md). */
    static final String WAYLAND_PATH = "native Wayland: no keys or typing (WAYLAND_INPUT_UNSUPPORTED; a Wayland client"
            + " cannot give another synthetic input); Deckhand writes with set_text and reaches a shortcut through the"
            + " app's menu items";

    @Inject
    Desktops desktops;

    @Override
    public Result check() {
        List<WindowInfo> apps;
        try {
            apps = AppsProbe.oneWindowPerApp(desktops.desktop().display().windows());
        } catch (RefusedException e) {
            return Result.failed(
                    ID,
                    TITLE,
                    e.code() + ": " + e.refusal().detail(),
                    "keys go through X11 (XTEST or events sent to the window); fix the display check first");
        }
        if (apps.isEmpty())
            return Result.ok(
                    ID, TITLE, "no app window is open; keys go through X11 (XTEST or events sent to the window)");
        List<String> lines = new ArrayList<>();
        for (WindowInfo w : apps) {
            Toolkit t = Toolkit.of(w.pid());
            lines.add(AppsProbe.name(w) + ", " + t.label() + ": "
                    + (desktops.desktop().display().syntheticInput(w.id()) ? t.keyboardPath() : WAYLAND_PATH));
        }
        return Result.ok(ID, TITLE, String.join("\n", lines));
    }
}
