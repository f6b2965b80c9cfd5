package dev.deckhand.doctor;

import dev.deckhand.grant.RefusedException;
import dev.deckhand.platform.Desktops;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Display reachable, and X11 vs Wayland: Deckhand's input and capture paths are X11's. */
@ApplicationScoped
public class DisplayCheck implements DoctorCheck {

    static final String ID = "display";
    static final String TITLE = "Display reachable (X11)";

    @Inject
    Desktops desktops;

    @Override
    public Result check() {
        String display = env("DISPLAY");
        String wayland = env("WAYLAND_DISPLAY");
        if (display == null && wayland != null) {
            return Result.failed(ID, TITLE, "a Wayland session (WAYLAND_DISPLAY=" + wayland + ") without an X display",
                    "log in to an X11 session (e.g. \"GNOME on Xorg\"), or start Deckhand with DISPLAY set to XWayland's display; "
                            + "only X11 windows can be granted");
        }
        if (display == null) {
            return Result.failed(ID, TITLE, "DISPLAY is not set: no desktop to drive",
                    "start Deckhand from inside your desktop session (DISPLAY names the X server), "
                            + "or under a virtual desktop such as scripts/desktop.sh");
        }
        try {
            int windows = desktops.desktop().windows().size();
            String kind = wayland != null ? "XWayland display " + display + " inside a Wayland session (only X11 apps are visible)"
                    : "X11 display " + display;
            return Result.ok(ID, TITLE, kind + " answers; " + windows + " top-level window" + (windows == 1 ? "" : "s"));
        } catch (RefusedException e) {
            return Result.failed(ID, TITLE, e.code() + ": " + e.refusal().detail(),
                    "check that the X server for DISPLAY=" + display + " runs and that this user may connect to it (xauth)");
        }
    }

    static String env(String name) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? null : v;
    }
}
