package dev.deckhand.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The desktop as seen from outside Deckhand: xprop, xwininfo and xdotool, run and read by the test. */
final class Desk {

    private Desk() {}

    /** Runs a command (10 s at most) and returns its standard output. */
    static String run(String... command) throws IOException, InterruptedException {
        Process p =
                new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within 10 s");
        }
        return out;
    }

    /** A root window property as xprop prints it, e.g. {@code _NET_CURRENT_DESKTOP(CARDINAL) = 0}. */
    static String root(String property) throws IOException, InterruptedException {
        return run("xprop", "-root", property).strip();
    }

    /** Whether the window is mapped and viewable (xwininfo). */
    static boolean viewable(long window) throws IOException, InterruptedException {
        return run("xwininfo", "-id", Long.toString(window)).contains("IsViewable");
    }

    /** The person clicks a window to the front (xdotool, through XTEST). */
    static void activate(long window) throws IOException, InterruptedException {
        run("xdotool", "windowactivate", "--sync", Long.toString(window));
        Thread.sleep(300);
    }

    /** The person presses keys (xdotool key, XTEST into the focused window). */
    static void key(String... keys) throws IOException, InterruptedException {
        String[] cmd = new String[keys.length + 2];
        cmd[0] = "xdotool";
        cmd[1] = "key";
        System.arraycopy(keys, 0, cmd, 2, keys.length);
        run(cmd);
    }

    /** Ids of visible windows whose name matches {@code regex} (xdotool search). */
    static List<String> windowsNamed(String regex) throws IOException, InterruptedException {
        String out = run("xdotool", "search", "--onlyvisible", "--name", regex).strip();
        return out.isEmpty() ? List.of() : List.of(out.split("\\s+"));
    }
}
