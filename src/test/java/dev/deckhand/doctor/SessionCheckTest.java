package dev.deckhand.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.deckhand.platform.linux.LinuxDesktops.Session;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The doctor names the session type, the route each kind of app gets, and what Wayland takes away and why. */
@Tag("pure")
class SessionCheckTest {

    @Test
    void theSessionTypeComesFromTheEnvironment() {
        Map<String, String> env = new HashMap<>();
        assertEquals(Session.X11, Session.of(env));
        env.put("DISPLAY", ":0");
        assertEquals(Session.X11, Session.of(env));
        env.put("WAYLAND_DISPLAY", "wayland-0");
        assertEquals(Session.MIXED, Session.of(env));
        env.put("DISPLAY", " ");
        assertEquals(Session.WAYLAND, Session.of(env), "a blank DISPLAY is no display");
    }

    @Test
    void aWaylandSessionSaysWhatIsUnavailableAndWhy() {
        DoctorCheck.Result r = SessionCheck.describe(Session.WAYLAND);
        assertTrue(r.ok());
        assertEquals("session", r.id());
        for (String part : new String[] {
            "Wayland session without X",
            "WAYLAND_INPUT_UNSUPPORTED",
            "PLATFORM_UNSUPPORTED",
            "drawn cursor",
            "global Stop",
            "page's Stop button",
            "by uid"
        }) {
            assertTrue(r.detail().contains(part), part + " in: " + r.detail());
        }
        assertFalse(r.detail().contains("X11 apps (GTK"), "no X11 route without X: " + r.detail());
    }

    @Test
    void aMixedSessionNamesBothRoutes() {
        String d = SessionCheck.describe(Session.MIXED).detail();
        assertTrue(d.contains("X11 apps (GTK") && d.contains("native Wayland apps"), d);
        assertTrue(d.contains("XWayland"), d);
        assertFalse(SessionCheck.describe(Session.X11).detail().contains("Wayland"));
    }
}
