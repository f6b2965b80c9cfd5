package dev.deckhand.platform.x11;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;

/** The libc calls the X11 code needs: System V shared memory (MIT-SHM captures) and {@code poll(2)}. */
interface LibC extends Library {

    LibC C = Native.load("c", LibC.class);

    int IPC_PRIVATE = 0, IPC_CREAT = 01000, IPC_RMID = 0;
    /** {@code struct pollfd} is {int fd; short events; short revents;}. */
    short POLLIN = 1;

    int shmget(int key, long size, int flags);

    Pointer shmat(int shmid, Pointer addr, int flags);

    int shmdt(Pointer addr);

    int shmctl(int shmid, int cmd, Pointer buf);

    int poll(Pointer fds, long nfds, int timeoutMillis);
}
