package dev.deckhand.platform.atspi;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import dev.deckhand.grant.Refusal;
import dev.deckhand.grant.RefusedException;
import dev.deckhand.platform.atspi.AtspiNative.Atspi;
import dev.deckhand.platform.atspi.AtspiNative.Glib;
import dev.deckhand.platform.atspi.AtspiNative.Gobject;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * How one libatspi call is made and read: the reused {@code GError**} slot, transfer-full strings
 * freed after reading, role names, state tests, and the signs of an app that does not answer (a call
 * that times out, or a read slower than a responsive app needs: a timed-out property read returns an
 * empty value and no GError). It also counts what the calls of the current walk dropped or cost.
 * libatspi thread only: it lives inside the bridge's {@link Confined} state.
 */
final class AtspiCalls {

    /**
     * A single element read or call slower than this means the app is not answering (the D-Bus timeout is
     * 1.5 s): a busy app on a loaded machine (mousepad taking 100 set_text calls) answered slower than 0.8 s,
     * the first threshold, and was flagged hung mid-run although it was not.
     */
    static final long HUNG_NANOS = 1_400_000_000L;

    /** A libatspi call timed out: the app is flagged hung. */
    static final class HungException extends RuntimeException {
        HungException(String what) {
            super(what, null, false, false);
        }
    }

    private final Memory errSlot = new Memory(Native.POINTER_SIZE);
    private final Map<Integer, String> roleNames = new HashMap<>();
    /** Errors {@link #checkError} dropped since {@link #resetDropped} (an element that vanished, or a dying app). */
    private int dropped;

    private long textReads;
    private long textNanos;

    /** The GError slot, cleared, for the next call's {@code err} argument. */
    Pointer err() {
        errSlot.setPointer(0, null);
        return errSlot;
    }

    /** The pending GError's message (freed), or null. */
    String takeError() {
        Pointer e = errSlot.getPointer(0);
        if (e == null) return null;
        errSlot.setPointer(0, null);
        Pointer m = e.getPointer(8);
        String message = m == null ? "unknown error" : m.getString(0, "UTF-8");
        Glib.g_error_free(e);
        return message;
    }

    void dropError() {
        takeError();
    }

    /**
     * Throws {@link HungException} when the last call timed out, and refuses when libatspi says the
     * app is gone (its cached roles and names stay readable, so a walk would go on reading a dead
     * window); other errors are dropped and counted.
     */
    void checkError(int pid, String call, long startNanos) {
        String e = takeError();
        if (e == null) return;
        if (e.contains("application no longer exists")) {
            throw new RefusedException(Refusal.a11yUnavailable("app pid " + pid + " exited (" + call + ": " + e + ")"));
        }
        if (isTimeout(e, startNanos)) throw new HungException(call + " of pid " + pid + ": " + e);
        dropped++;
    }

    /** Counts an answer a live app would have given (a missing extents rectangle, a failing GetMatches). */
    void countDropped() {
        dropped++;
    }

    /** Errors dropped since {@link #resetDropped}. */
    int dropped() {
        return dropped;
    }

    void resetDropped() {
        dropped = 0;
    }

    void resetTextCounters() {
        textReads = 0;
        textNanos = 0;
    }

    long textReads() {
        return textReads;
    }

    long textNanos() {
        return textNanos;
    }

    /**
     * Throws {@link HungException} when the calls since {@code startNanos} took longer than a
     * responsive app needs: a property read that times out returns an empty value and no GError.
     */
    static void guard(int pid, String what, long startNanos) {
        if (System.nanoTime() - startNanos > HUNG_NANOS) {
            throw new HungException(what + " of pid " + pid + " took over " + HUNG_NANOS / 1_000_000 + " ms");
        }
    }

    static boolean isTimeout(String message, long startNanos) {
        String m = message.toLowerCase(Locale.ROOT);
        return m.contains("noreply")
                || m.contains("did not receive a reply")
                || m.contains("timeout")
                || m.contains("timed out")
                || System.nanoTime() - startNanos > HUNG_NANOS;
    }

    /** The first {@code cap} characters of a Text interface (counted as a text read of the walk). */
    String readText(Pointer text, int pid, int cap) {
        long t0 = System.nanoTime();
        int count = Atspi.atspi_text_get_character_count(text, err());
        checkError(pid, "get_character_count", t0);
        textReads++;
        if (count <= 0) {
            textNanos += System.nanoTime() - t0;
            return "";
        }
        String s = takeString(Atspi.atspi_text_get_text(text, 0, Math.min(count, cap), err()));
        textNanos += System.nanoTime() - t0;
        checkError(pid, "get_text", t0);
        return s == null ? "" : s;
    }

    /**
     * The text a control shows through its Text interface, at most {@code cap} characters: one GetText of the
     * whole text (end offset -1), counted with the other text reads.
     */
    String readShownText(Pointer text, int pid, int cap) {
        long t0 = System.nanoTime();
        String s = takeString(Atspi.atspi_text_get_text(text, 0, -1, err()));
        textReads++;
        textNanos += System.nanoTime() - t0;
        checkError(pid, "get_text", t0);
        if (s == null) return "";
        return s.length() > cap ? s.substring(0, cap) : s;
    }

    /**
     * The text {@code obj} shows through its Text interface, at most {@link AtspiBridge#SHOWN_CAP} characters ({@link
     * #readShownText}); "" when it has no Text interface.
     */
    String shownText(Pointer obj, int pid) {
        Pointer text = Atspi.atspi_accessible_get_text_iface(obj);
        if (text == null) return "";
        try {
            return readShownText(text, pid, AtspiBridge.SHOWN_CAP);
        } finally {
            Gobject.g_object_unref(text);
        }
    }

    /** The lower-case name of a role ("push button", "password text"), cached. */
    String roleName(int role) {
        return roleNames.computeIfAbsent(role, r -> {
            String s = takeString(Atspi.atspi_role_get_name(r));
            return s == null ? "unknown" : s.toLowerCase(Locale.ROOT);
        });
    }

    /** The role name of {@code p} ({@link #roleName}), its call's error dropped. */
    String roleOf(Pointer p) {
        int role = Atspi.atspi_accessible_get_role(p, err());
        dropError();
        return roleName(role);
    }

    boolean hasState(Pointer p, int state) {
        Pointer states = Atspi.atspi_accessible_get_state_set(p);
        if (states == null) return false;
        try {
            return Atspi.atspi_state_set_contains(states, state) != 0;
        } finally {
            Gobject.g_object_unref(states);
        }
    }

    /** A transfer-full {@code gchar*} as a Java string, freed; null for null. */
    static String takeString(Pointer p) {
        if (p == null) return null;
        String s = p.getString(0, "UTF-8");
        Glib.g_free(p);
        return s;
    }

    /** {@code s} as NUL-terminated UTF-8 (never the JVM's default charset). */
    static byte[] nulTerminated(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        byte[] z = new byte[b.length + 1];
        System.arraycopy(b, 0, z, 0, b.length);
        return z;
    }

    /** A Value interface's number as text: whole numbers without a fraction. */
    static String formatNumber(double d) {
        if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) < 1e15) return String.valueOf((long) d);
        return String.valueOf(d);
    }

    /**
     * Whether {@code pid} ends within {@code millis}: a killed app's calls fail as soon as its bus
     * connection closes, a few milliseconds before the kernel lists it as gone.
     */
    static boolean exitsWithin(int pid, long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        while (processAlive(pid)) {
            if (System.nanoTime() > end) return false;
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }

    /** Whether {@code pid} is a live process (not gone, not a zombie), read from {@code /proc}. */
    static boolean processAlive(int pid) {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Integer.toString(pid), "stat"));
            int close = stat.lastIndexOf(')');
            char state = close >= 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : '?';
            return state != 'Z' && state != 'X';
        } catch (java.io.IOException | RuntimeException gone) {
            return false;
        }
    }
}
