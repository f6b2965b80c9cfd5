package dev.deckhand.platform.linux;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.management.HotSpotDiagnosticMXBean;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import java.lang.management.ManagementFactory;
import org.jboss.logging.Logger;

/**
 * The server's process is made not dumpable at start ({@code prctl(PR_SET_DUMPABLE, 0)}): another process of the
 * same user can then neither read its memory ({@code /proc/PID/mem}) nor attach a debugger to it, so a program the
 * agent runs in a granted terminal cannot take the tokens, the model's API key or a browser session out of
 * Deckhand's memory (round 3 of the review read them there). It does not stop root, nor a process with
 * {@code CAP_SYS_PTRACE} (docs/security.md). Core dumps and {@code jcmd}/{@code jstack} attach are off with it.
 */
@ApplicationScoped
@Startup
public class Undumpable {

    private static final Logger LOG = Logger.getLogger(Undumpable.class);

    private static final int PR_GET_DUMPABLE = 3;
    private static final int PR_SET_DUMPABLE = 4;

    interface C extends Library {
        int prctl(int option, long arg2, long arg3, long arg4, long arg5);
    }

    private static final C LIBC = Native.load("c", C.class);

    public Undumpable() {
        if (LIBC.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) {
            LOG.warnf(
                    "prctl(PR_SET_DUMPABLE, 0) failed (errno %d): another process of this user may read the "
                            + "server's memory",
                    Native.getLastError());
        }
    }

    /**
     * Whether the JVM refuses attach ({@code -XX:+DisableAttachMechanism}, which {@code scripts/deckhand} gives it):
     * otherwise a process of the same user asks it through a socket, no ptrace needed, to write its heap to a file
     * ({@code jcmd PID GC.heap_dump}, round 8).
     */
    public static boolean attachDisabled() {
        try {
            return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                    .getVMOption("DisableAttachMechanism")
                    .getValue()
                    .equals("true");
        } catch (RuntimeException notHotSpot) {
            return false;
        }
    }

    /** Whether another process of this user could read the server's memory: it is dumpable or takes attach. */
    public static boolean readableByItsUser() {
        return dumpable() != 0 || !attachDisabled();
    }

    /** {@code prctl(PR_GET_DUMPABLE)}: 0 once this bean has started, 1 before (or where it failed). */
    public static int dumpable() {
        return LIBC.prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
    }
}
