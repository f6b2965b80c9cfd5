package dev.deckhand.platform.x11;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/**
 * libXext's MIT-SHM calls: images read into a shared-memory segment instead of through the socket.
 * {@code XShmSegmentInfo}: shmseg@0, shmid@8, shmaddr@16, readOnly@24.
 */
interface XShm extends Library {

    XShm X = Native.load("Xext", XShm.class);

    int SHMINFO_SIZE = 32, SHM_SEG = 0, SHM_ID = 8, SHM_ADDR = 16, SHM_READONLY = 24;

    int XShmQueryExtension(Pointer display);

    Pointer XShmCreateImage(
            Pointer display,
            Pointer visual,
            int depth,
            int format,
            Pointer data,
            Pointer shminfo,
            int width,
            int height);

    int XShmAttach(Pointer display, Pointer shminfo);

    int XShmDetach(Pointer display, Pointer shminfo);

    int XShmGetImage(Pointer display, long drawable, Pointer image, int x, int y, long planeMask);
}
