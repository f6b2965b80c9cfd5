package dev.deckhand.audit;

import dev.deckhand.grant.RefusalCode;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;

/**
 * Child process for {@link AuditCrashTest}:
 * {@code CrashAppender <db> <key> <sealEvery> <tag> [maxAppends]}.
 * Opens the store, prints {@code ready}, then appends records and prints {@code ack <seq> <runId>}
 * after each append has returned (that is, after its commit). Exits when stdin closes (the parent
 * went away) or after a bounded number of appends.
 */
public final class CrashAppender {
    static final int MAX_APPENDS = 50_000;

    /**
     * A crash child's start: its stdout for the protocol lines (flushed at every line), and a watchdog
     * that halts the process when stdin closes (the parent went away).
     */
    public static PrintStream protocol() throws IOException {
        Thread watchdog = new Thread(
                () -> {
                    try {
                        while (System.in.read() >= 0) {
                            // wait for EOF
                        }
                    } catch (IOException ignored) {
                        // treat as EOF
                    }
                    Runtime.getRuntime().halt(3);
                },
                "stdin-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        return new PrintStream(new FileOutputStream(FileDescriptor.out), true, "UTF-8");
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = protocol();

        Path db = Path.of(args[0]);
        Path key = Path.of(args[1]);
        int sealEvery = Integer.parseInt(args[2]);
        String tag = args[3];
        int maxAppends = args.length > 4 ? Integer.parseInt(args[4]) : MAX_APPENDS;
        try (AuditStore store =
                AuditStore.open(db, key, AuditSettings.defaults().withSealEvery(sealEvery), Clock.systemUTC())) {
            out.println("ready " + store.headSeq());
            for (int i = 1; i <= maxAppends; i++) {
                String runId = "c" + tag + "-" + i;
                AuditEvent e;
                switch (i % 4) {
                    case 0:
                        e = Fixtures.typing(runId, 1, i % 97);
                        break;
                    case 1:
                        e = ActionResult.of(Fixtures.click(runId, 1), ActionOutcome.DONE);
                        break;
                    case 2:
                        e = ActionResult.refused(Fixtures.click(runId, 2), RefusalCode.OUT_OF_SCOPE);
                        break;
                    default:
                        e = Fixtures.run(runId, RunRecord.Outcome.COMPLETED, null, java.time.Instant.now());
                        break;
                }
                long seq = store.append(e);
                out.println("ack " + seq + " " + runId);
            }
        }
        out.println("finished");
    }
}
