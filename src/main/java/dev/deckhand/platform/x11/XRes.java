package dev.deckhand.platform.x11;

import com.sun.jna.Library;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;
import com.sun.jna.ptr.LongByReference;
import com.sun.jna.ptr.PointerByReference;

/**
 * libXRes: the process behind a window's X client, for windows that set no {@code _NET_WM_PID}
 * (Athena apps such as xedit). The X server reads the pid of a local client itself
 * ({@code XResQueryClientIds} with {@code XRES_CLIENT_ID_PID_MASK}), so the answer does not depend on
 * what the client claims.
 */
interface XRes extends Library {

    XRes X = Native.load("XRes", XRes.class);

    /** {@code 1 << XRES_CLIENT_ID_PID}. */
    int XRES_CLIENT_ID_PID_MASK = 2;
    /** {@code XResClientIdSpec}: an XID and a mask (16 bytes with padding). */
    int SPEC_SIZE = 16;
    /** {@code XResClientIdValue}: a spec, a long length, a value pointer. */
    int VALUE_SIZE = 32;

    int XResQueryExtension(Pointer display, IntByReference eventBase, IntByReference errorBase);

    int XResQueryClientIds(
            Pointer display, long numSpecs, Pointer specs, LongByReference numIds, PointerByReference ids);

    int XResGetClientPid(Pointer value);

    void XResClientIdsDestroy(long numIds, Pointer ids);

    /**
     * The pid of the client that owns {@code window}, as the X server knows it; -1 when the extension
     * is missing, the client is remote, or the server does not know.
     */
    static int clientPid(Pointer display, long window) {
        Memory spec = new Memory(SPEC_SIZE);
        spec.clear();
        spec.setLong(0, window);
        spec.setInt(8, XRES_CLIENT_ID_PID_MASK);
        LongByReference n = new LongByReference();
        PointerByReference ids = new PointerByReference();
        if (X.XResQueryClientIds(display, 1, spec, n, ids) != 0) return -1; // Success is 0
        Pointer values = ids.getValue();
        if (values == null) return -1;
        try {
            for (long i = 0; i < n.getValue(); i++) {
                int pid = X.XResGetClientPid(values.share(i * VALUE_SIZE));
                if (pid > 0) return pid;
            }
            return -1;
        } finally {
            X.XResClientIdsDestroy(n.getValue(), values);
        }
    }
}
