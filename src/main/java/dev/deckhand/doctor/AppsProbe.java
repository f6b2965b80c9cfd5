package dev.deckhand.doctor;

import dev.deckhand.loop.desktop.WindowInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The running apps the doctor looks at: one visible window per process, never Deckhand's own. */
final class AppsProbe {

    /** At most this many apps are probed per doctor call (each probe may walk a tree). */
    static final int MAX_APPS = 8;

    private AppsProbe() {}

    /** One window per pid (the first visible one), at most {@link #MAX_APPS}. */
    static List<WindowInfo> oneWindowPerApp(List<WindowInfo> windows) {
        Map<Integer, WindowInfo> byPid = new LinkedHashMap<>();
        for (WindowInfo w : windows) {
            if (w.own() || !w.visible() || w.pid() < 0) continue;
            byPid.putIfAbsent(w.pid(), w);
            if (byPid.size() == MAX_APPS) break;
        }
        return new ArrayList<>(byPid.values());
    }

    static String name(WindowInfo w) {
        return w.app() + " (\"" + clip(w.title()) + "\")";
    }

    private static String clip(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "…" : s;
    }
}
