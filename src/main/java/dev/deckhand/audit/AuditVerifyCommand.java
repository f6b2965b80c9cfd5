package dev.deckhand.audit;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code AuditVerifyCommand <database> <seal-key-file>}: verifies the audit chain, prints one
 * line, exits 0 when it verifies, 1 when a link is broken, 2 on a usage or read error.
 */
public final class AuditVerifyCommand {
    private AuditVerifyCommand() {}

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs the command; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length != 2) {
            err.println("usage: AuditVerifyCommand <audit-database> <seal-key-file>");
            return 2;
        }
        try {
            VerifyResult r = AuditVerifier.verify(Path.of(args[0]), Path.of(args[1]));
            out.println(r.describe());
            return r.ok() ? 0 : 1;
        } catch (AuditException e) {
            err.println("audit verify failed: " + e.getMessage());
            return 2;
        }
    }
}
