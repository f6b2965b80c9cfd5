package dev.deckhand.platform.x11;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import dev.deckhand.grant.Chord;
import dev.deckhand.grant.RefusalCode;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.platform.x11.X11DisplayOwnServerTest.OwnXvfb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Chords a window manager holds are measured, not listed: four window managers installed here (openbox,
 * i3, fluxbox, IceWM) each run on an X server of their own, and every key binding of their packages'
 * default configuration files is found held by the passive-grab probe; through the driver, each one outside
 * the {@code SYSTEM_CHORD} floor is refused while that manager runs and delivered on the bare server. An
 * XInput 2 grab by another client is found by the XInput 2 probe, which the core probe cannot see.
 */
@Tag("desktop")
class WindowManagerBindingsTest {

    /** One binding from a configuration file: its X keysym name and X modifier mask. */
    record Binding(String text, String keysym, int modifiers) {}

    private static final Map<String, Integer> MODS = new LinkedHashMap<>();

    static {
        for (String s : List.of("shift", "s")) MODS.put(s, Xlib.ShiftMask);
        for (String s : List.of("control", "ctrl", "c")) MODS.put(s, Xlib.ControlMask);
        for (String s : List.of("mod1", "alt", "a")) MODS.put(s, Xlib.Mod1Mask);
        for (String s : List.of("mod4", "super", "w", "win")) MODS.put(s, Xlib.Mod4Mask);
    }

    /** Splits "C-A-Left", "Mod1+Shift+q", "Control Mod1 Left" or "Alt+Ctrl+t" into a binding, or empty. */
    static Optional<Binding> binding(String text, String separator) {
        String[] parts = text.trim().split(separator);
        int mods = 0;
        for (int i = 0; i < parts.length - 1; i++) {
            Integer m = MODS.get(parts[i].toLowerCase(Locale.ROOT));
            if (m == null) return Optional.empty(); // a modifier this test does not map (Mod5, hyper, ...)
            mods |= m;
        }
        String key = parts[parts.length - 1];
        if (key.startsWith("Mouse") || key.startsWith("button")) return Optional.empty();
        return Optional.of(new Binding(text.trim(), key, mods));
    }

    static List<Binding> openbox() throws IOException {
        List<Binding> out = new ArrayList<>();
        Matcher m = Pattern.compile("<keybind key=\"([^\"]+)\"")
                .matcher(Files.readString(Path.of("/etc/xdg/openbox/rc.xml")));
        while (m.find()) binding(m.group(1), "-").ifPresent(out::add);
        return out;
    }

    static List<Binding> i3() throws IOException {
        List<Binding> out = new ArrayList<>();
        String mod = "Mod1";
        int depth = 0;
        for (String line : Files.readAllLines(Path.of("/etc/i3/config"))) {
            String l = line.trim();
            Matcher set = Pattern.compile("^set \\$mod (\\S+)").matcher(l);
            if (set.find()) mod = set.group(1);
            if (l.startsWith("mode ") && l.endsWith("{")) depth++;
            else if (l.equals("}") && depth > 0) depth--;
            // bindings inside a mode are grabbed only while that mode is on
            else if (depth == 0 && l.startsWith("bindsym ") && !l.contains("--release")) {
                binding(l.split("\\s+")[1].replace("$mod", mod), "\\+").ifPresent(out::add);
            }
        }
        return out;
    }

    static List<Binding> fluxbox() throws IOException {
        List<Binding> out = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("/etc/X11/fluxbox/keys"))) {
            String l = line.trim();
            if (l.isEmpty() || l.startsWith("#") || l.startsWith("On") || !l.contains(":")) continue;
            binding(l.substring(0, l.indexOf(':')).trim(), "\\s+").ifPresent(out::add);
        }
        return out;
    }

    static List<Binding> icewm() throws IOException {
        List<Binding> out = new ArrayList<>();
        Matcher keys = Pattern.compile("(?m)^key \"([^\"]+)\"\\s+(\\S+)")
                .matcher(Files.readString(Path.of("/usr/share/icewm/keys")));
        // IceWM grabs a program key only when its program is installed (measured: amixer and eject are not here)
        while (keys.find())
            if (onPath(keys.group(2))) binding(keys.group(1), "\\+").ifPresent(out::add);
        // the window keys IceWM grabs on the root by default (commented defaults in its preferences file)
        Matcher prefs = Pattern.compile(
                        "(?m)^# (KeySys(?:WorkspaceNext|WorkspacePrev|WinMenu|Menu|WindowList|WinNext|WinPrev)|KeyWinClose)=\"([^\"]+)\"")
                .matcher(Files.readString(Path.of("/usr/share/icewm/preferences")));
        while (prefs.find()) binding(prefs.group(2), "\\+").ifPresent(out::add);
        return out;
    }

    private static boolean onPath(String program) {
        if (program.startsWith("/")) return Files.isExecutable(Path.of(program));
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, program))) return true;
        }
        return false;
    }

    /**
     * A window of {@code other} the window manager framed, or 0: a window mapped while the manager was still starting
     * (its grabs taken, its substructure redirect not yet) may stay unmanaged, so another is mapped after 10 s.
     */
    private static long framed(OtherClient other, Windows windows) {
        for (int attempt = 0; attempt < 3; attempt++) {
            long target = other.solidWindow("target", 10, 10, 200, 100, 0x336699);
            if (TestApps.await(
                    () -> windows.topLevel(target) != target && windows.topLevel(target) != 0, Duration.ofSeconds(10)))
                return target;
            other.destroy(target);
        }
        return 0;
    }

    /** A window manager started on {@code server} by PID, with a private HOME. */
    private static Process start(OwnXvfb server, String... command) throws IOException {
        Path home = Files.createTempDirectory("deckhand-wm");
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(home.resolve("wm.log").toFile());
        pb.environment().put("DISPLAY", server.display);
        pb.environment().put("HOME", home.toString());
        pb.environment().put("XDG_CONFIG_HOME", home.resolve(".config").toString());
        return pb.start();
    }

    private static void end(Process p) throws InterruptedException {
        p.destroy();
        if (!p.waitFor(5, java.util.concurrent.TimeUnit.SECONDS))
            p.destroyForcibly().waitFor();
    }

    private void eachBindingHeldAndRefused(String name, List<Binding> bindings, String... command) throws Exception {
        assertTrue(bindings.size() >= 5, name + ": bindings read from its configuration: " + bindings);
        try (OwnXvfb server = new OwnXvfb()) {
            XConnection c = XConnection.open(Map.of("DISPLAY", server.display));
            try {
                PassiveGrabProbe probe = new PassiveGrabProbe(c);
                Binding first = bindings.get(0);
                int firstCode = Xlib.X.XKeysymToKeycode(c.dpy, Xlib.X.XStringToKeysym(first.keysym()));
                assertTrue(
                        probe.heldByOther(firstCode, first.modifiers(), 0).isEmpty(),
                        name + ": nothing held before it runs");
                Process wm = start(server, command);
                try (OtherClient other = new OtherClient(server.display)) {
                    boolean took = TestApps.await(
                            () -> probe.heldByOther(firstCode, first.modifiers(), 0)
                                    .isPresent(),
                            Duration.ofSeconds(30));
                    assertTrue(took, () -> name + " took its grabs (alive: " + wm.isAlive() + ")");
                    // A managed window: some managers grab window keys on its frame, not on the root.
                    Windows windows = new Windows(c, new WindowProperties(c));
                    long target = framed(other, windows);
                    assertTrue(
                            target != 0, () -> name + " framed a window in three tries (alive: " + wm.isAlive() + ")");
                    long frame = windows.topLevel(target);
                    List<String> missed = new ArrayList<>();
                    int probed = 0;
                    for (Binding b : bindings) {
                        long sym = Xlib.X.XStringToKeysym(b.keysym());
                        int code = sym == 0 ? 0 : Xlib.X.XKeysymToKeycode(c.dpy, sym);
                        if (code == 0) continue; // a key this keyboard lacks cannot be pressed or sent
                        probed++;
                        if (probe.heldByOther(code, b.modifiers(), frame).isEmpty()) missed.add(b.text());
                    }
                    System.out.printf(
                            "%s: %d bindings read, %d on this keyboard, %d found held%n",
                            name, bindings.size(), probed, probed - missed.size());
                    assertEquals(List.of(), missed, name + ": bindings the probe did not find held");
                    refusedThroughTheDriver(server, name, bindings, target);
                } finally {
                    end(wm);
                }
            } finally {
                c.close();
            }
        }
    }

    /** Through X11Display.key: a binding outside the floor is SYSTEM_CHORD while the manager runs. */
    private static void refusedThroughTheDriver(OwnXvfb server, String name, List<Binding> bindings, long target) {
        X11Display x = server.open();
        try {
            assertTrue(
                    TestApps.await(
                            () -> x.windows().stream().anyMatch(w -> w.id() == target && w.visible()),
                            Duration.ofSeconds(10)),
                    name + " shows the target");
            int refused = 0;
            for (Binding b : bindings) {
                Optional<Chord> chord = chordOf(b);
                if (chord.isEmpty() || chord.get().systemReason().isPresent())
                    continue; // the floor refuses these by rule
                RefusedException e =
                        assertThrows(RefusedException.class, () -> x.key(target, chord.get()), name + " " + b.text());
                assertEquals(RefusalCode.SYSTEM_CHORD, e.code(), e.getMessage());
                assertTrue(e.getMessage().contains("passive grab"), e.getMessage());
                refused++;
            }
            System.out.printf("%s: %d bindings outside the SYSTEM_CHORD floor refused by the probe%n", name, refused);
        } finally {
            x.close();
        }
    }

    /** The binding in Deckhand's chord grammar, when the grammar has its key. */
    static Optional<Chord> chordOf(Binding b) {
        StringBuilder s = new StringBuilder();
        if ((b.modifiers() & Xlib.ControlMask) != 0) s.append("ctrl+");
        if ((b.modifiers() & Xlib.Mod1Mask) != 0) s.append("alt+");
        if ((b.modifiers() & Xlib.ShiftMask) != 0) s.append("shift+");
        if ((b.modifiers() & Xlib.Mod4Mask) != 0) s.append("super+");
        String key = Map.of("Return", "Enter", "Prior", "Page_Up", "Next", "Page_Down")
                .getOrDefault(b.keysym(), b.keysym());
        try {
            return Optional.of(Chord.parse(s + key));
        } catch (IllegalArgumentException notInTheGrammar) {
            return Optional.empty();
        }
    }

    @Test
    void openboxBindingsAreHeld() throws Exception {
        eachBindingHeldAndRefused("openbox", openbox(), "openbox", "--config-file", "/etc/xdg/openbox/rc.xml");
    }

    @Test
    void i3BindingsAreHeld() throws Exception {
        eachBindingHeldAndRefused("i3", i3(), "i3", "-c", "/etc/i3/config");
    }

    @Test
    void fluxboxBindingsAreHeld() throws Exception {
        eachBindingHeldAndRefused("fluxbox", fluxbox(), "fluxbox");
    }

    @Test
    void icewmBindingsAreHeld() throws Exception {
        eachBindingHeldAndRefused("icewm", icewm(), "icewm");
    }

    @Test
    void anXInput2GrabIsFoundByItsOwnProbeOnly() throws Exception {
        try (OwnXvfb server = new OwnXvfb()) {
            XConnection c = XConnection.open(Map.of("DISPLAY", server.display));
            XConnection.installErrorHandler();
            Pointer other = Xlib.X.XOpenDisplay(server.display);
            try {
                PassiveGrabProbe probe = new PassiveGrabProbe(c);
                assertTrue(probe.probesXi2(), "Xvfb has XInput 2");
                int code = Xlib.X.XKeysymToKeycode(c.dpy, Xlib.X.XStringToKeysym("y"));
                int mods = Xlib.ShiftMask | Xlib.Mod1Mask;
                assertTrue(probe.heldByOther(code, mods, 0).isEmpty());
                Memory bits = new Memory(4);
                bits.clear();
                bits.setByte(0, (byte) (1 << Xi.XI_KeyPress));
                Memory mask = new Memory(Xi.MASK_SIZE);
                mask.clear();
                mask.setInt(Xi.MASK_DEVICE, Xi.XIAllMasterDevices);
                mask.setInt(Xi.MASK_LEN, 4);
                mask.setPointer(Xi.MASK_PTR, bits);
                Memory m = new Memory(Xi.MODS_SIZE);
                m.clear();
                m.setInt(0, mods);
                Xi.X.XIQueryVersion(
                        other, new com.sun.jna.ptr.IntByReference(2), new com.sun.jna.ptr.IntByReference(2));
                assertEquals(
                        0,
                        Xi.X.XIGrabKeycode(
                                other,
                                Xi.XIAllMasterDevices,
                                code,
                                Xlib.X.XDefaultRootWindow(other),
                                Xi.XIGrabModeAsync,
                                Xi.XIGrabModeAsync,
                                Xlib.False,
                                mask,
                                1,
                                m));
                Xlib.X.XSync(other, Xlib.False);
                assertEquals(Optional.of("XInput 2"), probe.heldByOther(code, mods, 0));
                assertFalse(new PassiveGrabProbeCoreOnly(c).held(code, mods), "the core probe alone does not see it");
            } finally {
                Xlib.X.XCloseDisplay(other);
                c.close();
            }
        }
    }

    /** The core half of the probe alone, to show why both kinds are probed. */
    private record PassiveGrabProbeCoreOnly(XConnection c) {
        boolean held(int code, int mods) {
            int before = c.errors();
            Xlib.X.XGrabKey(c.dpy, code, mods, c.root, Xlib.False, Xlib.GrabModeAsync, Xlib.GrabModeAsync);
            c.sync();
            boolean refused = c.errors() != before;
            Xlib.X.XUngrabKey(c.dpy, code, mods, c.root);
            c.sync();
            return refused;
        }
    }
}
