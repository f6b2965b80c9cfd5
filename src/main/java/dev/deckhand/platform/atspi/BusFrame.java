package dev.deckhand.platform.atspi;

/**
 * A top-level accessible (frame, dialog) as the accessibility bus shows it, named by its route: the
 * application's unique bus name and the object path, which stay the same when the title changes.
 *
 * @param app the application's accessible name
 * @param width the frame's width as reported (Wayland: window-relative extents, the frame at 0,0)
 * @param gtk4 whether the application is GTK 4
 * @param showing whether it reports the showing state (always true for GTK 4, which reports none)
 */
public record BusFrame(
        int pid,
        String app,
        String busName,
        String path,
        String role,
        String name,
        int width,
        int height,
        boolean gtk4,
        boolean showing) {

    /** Whether {@code route} is this frame's. */
    boolean is(PipelinedCalls.Route route) {
        return route != null && busName.equals(route.busName()) && path.equals(route.path());
    }
}
