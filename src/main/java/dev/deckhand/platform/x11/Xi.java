package dev.deckhand.platform.x11;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.IntByReference;

/**
 * libXi, the X Input Extension 2: passive key grabs of its own kind (which the core protocol's grabs do not
 * conflict with, so both kinds are probed) and raw key events, which the server delivers to a root window
 * that selected them whatever client holds the keyboard (XI 2.1 and later).
 */
interface Xi extends Library {

    Xi X = Native.load("Xi", Xi.class);

    int XIAllDevices = 0;
    int XIAllMasterDevices = 1;
    int XIGrabModeAsync = 1;
    int XI_KeyPress = 2;
    int XI_KeyRelease = 3;
    int XI_RawKeyPress = 13;
    int XI_RawKeyRelease = 14;
    /** {@code GenericEvent}, the core event type that carries XI2 events as cookies. */
    int GenericEvent = 35;

    /** {@code XIEventMask} on LP64: int deviceid, int mask_len, unsigned char *mask. */
    int MASK_SIZE = 16, MASK_DEVICE = 0, MASK_LEN = 4, MASK_PTR = 8;
    /** {@code XIGrabModifiers}: int modifiers, int status. */
    int MODS_SIZE = 8;
    /** {@code XGenericEventCookie} on LP64: extension, evtype, data. */
    int COOKIE_EXTENSION = 32, COOKIE_EVTYPE = 36, COOKIE_DATA = 48;
    /** {@code XIRawEvent} on LP64: detail (the keycode). */
    int RAW_DETAIL = 56;

    int XIQueryVersion(Pointer display, IntByReference major, IntByReference minor);

    int XISelectEvents(Pointer display, long window, Pointer masks, int numMasks);

    int XIGrabKeycode(
            Pointer display,
            int deviceid,
            int keycode,
            long grabWindow,
            int grabMode,
            int pairedDeviceMode,
            int ownerEvents,
            Pointer mask,
            int numModifiers,
            Pointer modifiersInout);

    int XIUngrabKeycode(
            Pointer display, int deviceid, int keycode, long grabWindow, int numModifiers, Pointer modifiers);

    /** {@code XIDeviceInfo} on LP64 (40 bytes): deviceid@0, use@16. */
    int DEVICE_INFO_SIZE = 40, DEVICE_ID = 0, DEVICE_USE = 16;

    int XIMasterKeyboard = 2;

    Pointer XIQueryDevice(Pointer display, int deviceid, IntByReference ndevicesReturn);

    void XIFreeDeviceInfo(Pointer info);
}
