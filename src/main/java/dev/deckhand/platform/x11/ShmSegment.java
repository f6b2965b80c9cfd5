package dev.deckhand.platform.x11;

import com.sun.jna.Memory;
import com.sun.jna.Pointer;

/**
 * One System V shared-memory segment attached to the X server (MIT-SHM), reused across captures: the
 * server writes an image straight into it instead of sending it through the socket.
 */
final class ShmSegment {

    final Memory info = new Memory(XShm.SHMINFO_SIZE);
    final Pointer addr;
    final long size;

    private ShmSegment(Pointer addr, long size) {
        this.addr = addr;
        this.size = size;
    }

    /**
     * A segment of {@code size} bytes attached on {@code c}, or null when it cannot be (a remote server,
     * another IPC namespace): then captures read through plain {@code XGetImage}.
     */
    static ShmSegment attach(XConnection c, long size) {
        LibC libc = LibC.C;
        int id = libc.shmget(LibC.IPC_PRIVATE, size, LibC.IPC_CREAT | 0600);
        if (id < 0) return null;
        Pointer addr = libc.shmat(id, null, 0);
        if (addr == null || Pointer.nativeValue(addr) == -1L) {
            libc.shmctl(id, LibC.IPC_RMID, null);
            return null;
        }
        ShmSegment s = new ShmSegment(addr, size);
        s.info.clear();
        s.info.setInt(XShm.SHM_ID, id);
        s.info.setPointer(XShm.SHM_ADDR, addr);
        s.info.setInt(XShm.SHM_READONLY, Xlib.False);
        int before = c.errors();
        int ok = XShm.X.XShmAttach(c.dpy, s.info);
        Xlib.X.XSync(c.dpy, Xlib.False);
        libc.shmctl(id, LibC.IPC_RMID, null); // freed once both sides detach
        if (ok == 0 || c.errors() != before) {
            libc.shmdt(addr);
            return null;
        }
        return s;
    }

    void release(XConnection c) {
        XShm.X.XShmDetach(c.dpy, info);
        Xlib.X.XSync(c.dpy, Xlib.False);
        LibC.C.shmdt(addr);
    }
}
