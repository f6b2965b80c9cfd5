package dev.deckhand.doctor;

import dev.deckhand.grant.RefusedException;
import dev.deckhand.loop.desktop.WindowInfo;
import dev.deckhand.platform.Desktops;
import dev.deckhand.platform.linux.PointerToolkit;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;

/**
 * How a {@code click_at} reaches each running app on this display, per toolkit (read from the process's map; nothing
 * is clicked): on a private desktop Deckhand started, the real pointer; on a person's display, a control under the
 * point through its action and elsewhere pointer events sent to the window where the toolkit takes them, as measured
 * (docs/driver-x11.md). Red only when there is no display to read.
 */
@ApplicationScoped
public class PointerPathCheck implements DoctorCheck {

    static final String ID = "pointer-path";
    static final String TITLE = "click_at per toolkit";

    @Inject
    Desktops desktops;

    /** How a click_at reaches a window of {@code toolkit} on a person's display. */
    static String path(PointerToolkit toolkit) {
        return switch (toolkit.delivery()) {
            case SENT -> "anywhere in the window, as pointer events sent to it (it " + toolkit.measured() + ")";
            case ONLY_WHILE_ACTIVE ->
                "only while its window is the active one (it " + toolkit.measured() + ");"
                        + " otherwise POINTER_WARP_REFUSED, except on controls, which are pressed through their action";
            case NONE ->
                "on controls only, through their action; elsewhere POINTER_WARP_REFUSED (it " + toolkit.measured()
                        + ")";
        };
    }

    @Override
    public Result check() {
        List<WindowInfo> apps;
        boolean own;
        try {
            own = desktops.desktop().display().privateDesktop();
            apps = AppsProbe.oneWindowPerApp(desktops.desktop().display().windows());
        } catch (RefusedException e) {
            return Result.failed(ID, TITLE, e.code() + ": " + e.refusal().detail(), "fix the display check first");
        }
        List<String> lines = new ArrayList<>();
        if (own) {
            lines.add(
                    "a private virtual desktop Deckhand started (DECKHAND_PRIVATE_DESKTOP=1): click_at moves the pointer"
                            + " there (XTEST); a control under the point is pressed through its action");
        } else {
            lines.add(
                    "a person's display: click_at never moves the real pointer nor the focus; a control under the point"
                            + " is pressed through its action, elsewhere pointer events are sent to the window where its toolkit"
                            + " takes them");
            for (WindowInfo w : apps) {
                if (!desktops.desktop().display().syntheticInput(w.id())) {
                    lines.add(AppsProbe.name(w) + ", native Wayland: no click_at (WAYLAND_INPUT_UNSUPPORTED)");
                    continue;
                }
                PointerToolkit t = PointerToolkit.of(w.pid());
                lines.add(AppsProbe.name(w) + ", " + t.label() + ": " + path(t));
            }
            lines.add("measured per toolkit (docs/driver-x11.md): "
                    + String.join(
                            "; ",
                            java.util.Arrays.stream(PointerToolkit.values())
                                    .map(t -> t.label() + " "
                                            + switch (t.delivery()) {
                                                case SENT -> "yes";
                                                case ONLY_WHILE_ACTIVE -> "only while active";
                                                case NONE -> "no";
                                            })
                                    .toList()));
        }
        return Result.ok(ID, TITLE, String.join("\n", lines));
    }
}
