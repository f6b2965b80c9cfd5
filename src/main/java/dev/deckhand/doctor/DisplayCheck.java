package dev.deckhand.doctor;

import dev.deckhand.grant.RefusedException;
import dev.deckhand.platform.Desktops;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Display reachable: X11, a Wayland session (the accessibility route alone), or both ({@link SessionCheck}). */
@ApplicationScoped
public class DisplayCheck implements DoctorCheck {

    static final String ID = "display";
    static final String TITLE = "Display reachable";

    @Inject
    Desktops desktops;

    @Override
    public Result check() {
        String display = env("DISPLAY");
        String wayland = env("WAYLAND_DISPLAY");
        if (display == null && wayland != null) {
            try {
                int windows = desktops.desktop().display().windows().size();
                return Result.ok(
                        ID,
                        TITLE,
                        "Wayland session (WAYLAND_DISPLAY=" + wayland + "), no X display: " + windows + " frame"
                                + (windows == 1 ? "" : "s") + " on the accessibility bus (act by uid only)");
            } catch (RefusedException e) {
                return Result.failed(
                        ID,
                        TITLE,
                        e.code() + ": " + e.refusal().detail(),
                        "a Wayland session needs the accessibility bus (at-spi2-core); or start Deckhand with DISPLAY set to "
                                + "XWayland's display for X11 apps");
            }
        }
        if (display == null) {
            return Result.failed(
                    ID,
                    TITLE,
                    "DISPLAY is not set: no desktop to drive",
                    "start Deckhand from inside your desktop session (DISPLAY names the X server), "
                            + "or under a virtual desktop such as scripts/desktop.sh");
        }
        try {
            int windows = desktops.desktop().display().windows().size();
            String kind = wayland != null
                    ? "XWayland display " + display + " inside a Wayland session (X11 apps through X11,"
                            + " native Wayland apps through the accessibility bus)"
                    : "X11 display " + display;
            return Result.ok(
                    ID, TITLE, kind + " answers; " + windows + " top-level window" + (windows == 1 ? "" : "s"));
        } catch (RefusedException e) {
            return Result.failed(
                    ID,
                    TITLE,
                    e.code() + ": " + e.refusal().detail(),
                    "check that the X server for DISPLAY=" + display
                            + " runs and that this user may connect to it (xauth)");
        }
    }

    static String env(String name) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? null : v;
    }
}
