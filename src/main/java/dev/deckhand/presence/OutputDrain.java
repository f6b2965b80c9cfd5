package dev.deckhand.presence;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Reads a command's output to its end on its own thread, keeping the first {@link CommandRunner#OUTPUT_CAP} bytes. */
final class OutputDrain implements Runnable {
    private final InputStream in;
    private final ByteArrayOutputStream head = new ByteArrayOutputStream();
    private final Thread thread;

    private OutputDrain(InputStream in, String command) {
        this.in = in;
        // A daemon: a child the command left behind may hold the pipe open past the command's end.
        this.thread = new Thread(this, "output of " + command);
        thread.setDaemon(true);
    }

    static OutputDrain start(InputStream in, String command) {
        OutputDrain d = new OutputDrain(in, command);
        d.thread.start();
        return d;
    }

    @Override
    public void run() {
        byte[] buf = new byte[8192];
        try (in) {
            for (int n; (n = in.read(buf)) >= 0; ) {
                synchronized (head) {
                    head.write(buf, 0, Math.min(n, CommandRunner.OUTPUT_CAP - head.size()));
                }
            }
        } catch (IOException e) {
            // The pipe closed under us (the process was ended): what was kept stands.
        }
    }

    /** Waits up to {@code millis} for the output's end. */
    void join(long millis) throws InterruptedException {
        thread.join(millis);
    }

    /** The output kept so far. */
    String kept() {
        synchronized (head) {
            return head.toString(StandardCharsets.UTF_8);
        }
    }
}
