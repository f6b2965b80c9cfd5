package dev.deckhand.doctor;

import dev.deckhand.platform.linux.LinuxDesktops.Session;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The session type (X11, Wayland, or both), which route each kind of app gets, and what a Wayland
 * session takes away, with the reason (docs/wayland.md). Green: it reports, it does not judge.
 */
@ApplicationScoped
public class SessionCheck implements DoctorCheck {

    static final String ID = "session";
    static final String TITLE = "Session type and routes";

    static final String X11_ROUTE =
            "X11 apps (GTK, Qt, Swing, LibreOffice, xterm) get the X11 driver: tree and actions by"
                    + " uid, keys, typing and click_at, pixel capture";
    static final String WAYLAND_ROUTE = "native Wayland apps (GTK 3, GTK 4, Qt with QT_QPA_PLATFORM=wayland) get the"
            + " accessibility route: click, set_text, focus (where the toolkit allows it), select and scroll by uid;"
            + " key, type and click_at are refused WAYLAND_INPUT_UNSUPPORTED (a Wayland client cannot give another"
            + " synthetic input) and capture PLATFORM_UNSUPPORTED (no screenshot portal is used)";
    static final String WAYLAND_UNAVAILABLE =
            "unavailable on Wayland windows: the drawn cursor (an X11 overlay; a Wayland"
                    + " client can neither place a window over others nor learn where a frame is on screen) and the global Stop"
                    + " shortcut (an X11 key grab; Wayland gives clients no global keys). The page's Stop button and MCP"
                    + " cancellation stop a run on every route";

    @Override
    public Result check() {
        return describe(Session.of(System.getenv()));
    }

    static Result describe(Session session) {
        switch (session) {
            case WAYLAND:
                return Result.ok(
                        ID,
                        TITLE,
                        "Wayland session without X. " + WAYLAND_ROUTE + ". " + WAYLAND_UNAVAILABLE
                                + "; with no X display, X11 apps cannot be seen at all.");
            case MIXED:
                return Result.ok(
                        ID,
                        TITLE,
                        "Wayland session with XWayland. " + X11_ROUTE + " (XTEST is refused under"
                                + " XWayland: keys go to the window as events); " + WAYLAND_ROUTE + ". "
                                + WAYLAND_UNAVAILABLE
                                + "; over X11 windows the cursor and the Stop shortcut work while an X11 window has focus.");
            default:
                return Result.ok(ID, TITLE, "X11 session. " + X11_ROUTE + ".");
        }
    }
}
