package dev.deckhand.platform.x11;

import com.sun.jna.Callback;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;

/**
 * libXtst: the XTEST extension (key, button and motion events the server generates as if real) and the RECORD
 * extension's client library (the protocol of every client as the server processes it; {@link GrabRecord}).
 */
interface Xtst extends Library {

    Xtst X = Native.load("Xtst", Xtst.class);

    int XTestQueryExtension(
            Pointer display,
            IntByReference eventBase,
            IntByReference errorBase,
            IntByReference major,
            IntByReference minor);

    int XTestFakeKeyEvent(Pointer display, int keycode, int isPress, long delay);

    int XTestFakeButtonEvent(Pointer display, int button, int isPress, long delay);

    int XTestFakeMotionEvent(Pointer display, int screen, int x, int y, long delay);

    // RECORD (libXtst's record.h; structures at offsets checked with offsetof on x86_64)

    /** {@code XRecordRange}, 32 bytes: eight byte ranges and two Bools. */
    int RANGE_CORE_REQUESTS = 0,
            RANGE_CORE_REPLIES = 2,
            RANGE_EXT_REQUESTS = 4,
            RANGE_EXT_REPLIES = 10,
            RANGE_DEVICE_EVENTS = 18,
            RANGE_ERRORS = 20,
            RANGE_CLIENT_DIED = 28;
    /** Inside an {@code XRecordExtRange} (6 bytes): major first/last at 0/1, minor first/last (CARD16) at 2/4. */
    int EXT_MAJOR = 0, EXT_MINOR = 2;
    /** {@code XRecordInterceptData}, 48 bytes. */
    int ID_BASE = 0, CLIENT_SEQ = 16, CATEGORY = 24, CLIENT_SWAPPED = 28, DATA = 32, DATA_LEN = 40;

    int FROM_SERVER = 0, FROM_CLIENT = 1, CLIENT_DIED = 3, START_OF_DATA = 4, END_OF_DATA = 5;
    long ALL_CLIENTS = 3;
    int FROM_CLIENT_SEQUENCE = 4;

    /** {@code void (*)(XPointer closure, XRecordInterceptData *data)}. */
    interface InterceptProc extends Callback {
        void callback(Pointer closure, Pointer data);
    }

    int XRecordQueryVersion(Pointer display, IntByReference major, IntByReference minor);

    Pointer XRecordAllocRange();

    long XRecordCreateContext(
            Pointer display, int datumFlags, long[] clients, int nclients, Pointer[] ranges, int nranges);

    int XRecordEnableContextAsync(Pointer display, long context, InterceptProc callback, Pointer closure);

    void XRecordProcessReplies(Pointer display);

    int XRecordDisableContext(Pointer display, long context);

    int XRecordFreeContext(Pointer display, long context);

    void XRecordFreeData(Pointer data);
}
