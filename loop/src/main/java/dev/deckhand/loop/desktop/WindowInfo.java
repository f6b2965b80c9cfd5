package dev.deckhand.loop.desktop;

import java.util.Objects;

/**
 * A top-level window as the platform reports it.
 *
 * @param id platform window id (X11 XID)
 * @param title window title, never null ("" when unnamed)
 * @param app the application's class (X11 WM_CLASS class part), never null
 * @param pid owning process, or -1 when the window does not say
 * @param stacking position bottom (0) to top
 * @param visible mapped and not minimised, and at least partly on screen
 * @param own one of Deckhand's own windows (its page in a browser, its overlay)
 * @param client the X client that created the window (the XID's client bits), 0 when unknown
 * @param transientFor the window this one is a dialog of ({@code WM_TRANSIENT_FOR}), 0 none
 * @param modal {@code _NET_WM_STATE_MODAL}
 * @param processStart the owning process's start time ({@code /proc/PID/stat} field 22), -1 unknown
 */
public record WindowInfo(
        long id,
        String title,
        String app,
        int pid,
        Geometry geometry,
        int stacking,
        boolean visible,
        boolean minimised,
        boolean own,
        long client,
        long transientFor,
        boolean modal,
        long processStart) {

    public WindowInfo {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(app, "app");
        Objects.requireNonNull(geometry, "geometry");
    }

    /** A window whose client, dialog relation and process start are not known. */
    public WindowInfo(
            long id,
            String title,
            String app,
            int pid,
            Geometry geometry,
            int stacking,
            boolean visible,
            boolean minimised,
            boolean own) {
        this(id, title, app, pid, geometry, stacking, visible, minimised, own, 0, 0, false, -1);
    }

    public WindowInfo withProcessStart(long v) {
        return new WindowInfo(
                id, title, app, pid, geometry, stacking, visible, minimised, own, client, transientFor, modal, v);
    }

    /** Whether both were created by the same X client (client bits, else the same process). */
    public boolean sameClient(WindowInfo other) {
        if (client != 0 && other.client != 0) return client == other.client;
        return pid > 0 && pid == other.pid;
    }
}
