package dev.deckhand.boot;

import dev.deckhand.home.DeckhandHome;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import java.io.PrintStream;
import java.util.Set;

/**
 * The entry point behind the {@code deckhand} launcher:
 * <ul>
 *   <li>no arguments — serve HTTP: MCP at {@code /mcp}, the page at {@code /}, the owner API at {@code /api/};</li>
 *   <li>{@code stdio} — the same server, and MCP over standard input/output; logs go to standard error
 *       and never carry a sign-in code (that log is the MCP client's);</li>
 *   <li>{@code signin} — prints a fresh sign-in link from the running server ({@link SignInCommand}; exit 3
 *       when none runs);</li>
 *   <li>{@code run --instruction ... (--app|--window) ...} — one run from the person's terminal
 *       ({@link dev.deckhand.cli.RunCommand}); the flags are checked before the server starts (64 with the
 *       usage); standard output carries the result only; the HTTP port is random (0) unless
 *       {@code quarkus.http.port} / {@code QUARKUS_HTTP_PORT} names one, so a running server's port never
 *       stops the CLI;</li>
 *   <li>{@code eval ...} — a task suite ({@link dev.deckhand.eval.EvalCommand}), plain Java without a server;
 *       each task's child process is this app's hidden {@code eval-task JOB}.</li>
 * </ul>
 * Unknown arguments exit 64 with the usage.
 */
@QuarkusMain
public final class Main {

    static final Set<String> LOOPBACK_BIND = Set.of("127.0.0.1", "localhost", "::1", "[::1]");

    /** Standard output as it was at start: in stdio mode it carries protocol messages only. */
    static volatile PrintStream protocolOut;

    Main() {
    }

    public static void main(String... args) {
        String command = args.length == 0 ? "serve" : args[0];
        switch (command) {
            case "serve" -> { }
            case "stdio" -> {
                protocolOut = System.out;
                System.setProperty("deckhand.stdio", "true");
                System.setProperty("quarkus.log.console.stderr", "true");
                System.setOut(System.err);
            }
            case "verify-audit" -> {
                // Reads the chain without starting a server; safe while one runs.
                DeckhandHome home = DeckhandHome.resolve(System.getProperty("deckhand.home"));
                System.exit(dev.deckhand.audit.AuditVerifyCommand.run(new String[] {
                        home.file(DeckhandHome.AUDIT_DATABASE).toString(),
                        home.file(DeckhandHome.AUDIT_SEAL_KEY).toString()}, System.out, System.err));
            }
            case "signin" -> {
                if (args.length > 1) {
                    System.err.println("deckhand signin takes no arguments\n" + usage());
                    System.exit(SignInCommand.USAGE);
                }
                String port = firstNonBlank(System.getProperty("quarkus.http.port"), System.getenv("QUARKUS_HTTP_PORT"));
                int code;
                try {
                    code = SignInCommand.run(DeckhandHome.locate(System.getProperty("deckhand.home")),
                            port == null ? 8377 : Integer.parseInt(port), System.out, System.err);
                } catch (NumberFormatException e) {
                    System.err.println("deckhand signin: QUARKUS_HTTP_PORT '" + port + "' is not a port number");
                    code = SignInCommand.USAGE;
                }
                System.exit(code);
            }
            case "run" -> {
                java.util.List<String> rest = java.util.List.of(args).subList(1, args.length);
                if (rest.contains("-h") || rest.contains("--help")) {
                    System.out.println(dev.deckhand.cli.RunOptions.usage());
                    return;
                }
                try {
                    dev.deckhand.cli.RunOptions.parse(rest);
                } catch (dev.deckhand.cli.RunOptions.UsageException e) {
                    System.err.println("deckhand run: " + e.getMessage() + "\n" + dev.deckhand.cli.RunOptions.usage());
                    System.exit(64);
                }
                if (firstNonBlank(System.getProperty("quarkus.http.port"), System.getenv("QUARKUS_HTTP_PORT")) == null) {
                    System.setProperty("quarkus.http.port", "0");
                }
                java.nio.file.Path audit = DeckhandHome.resolve(System.getProperty("deckhand.home"))
                        .file(DeckhandHome.AUDIT_DATABASE);
                if (dev.deckhand.audit.AuditStore.heldElsewhere(audit)) {
                    System.err.println("deckhand run: the audit log " + audit + " is in use by another Deckhand process "
                            + "with this config directory; use that server (its MCP endpoint or page) or stop it first");
                    System.exit(4);
                }
                protocolOut = System.out;
                System.setProperty(StartupBanner.QUIET, "true");
                System.setProperty("quarkus.log.console.stderr", "true");
                System.setOut(System.err);
            }
            case "eval" -> {
                // The orchestrator needs no server: each task's child process is the packaged app (eval-task).
                java.util.List<String> rest = java.util.List.of(args).subList(1, args.length);
                if (rest.contains("-h") || rest.contains("--help")) {
                    System.out.println(dev.deckhand.eval.EvalOptions.usage());
                    return;
                }
                System.exit(new dev.deckhand.eval.EvalCommand(System.getenv(),
                        DeckhandHome.resolve(System.getProperty("deckhand.home"))).run(rest, System.out, System.err));
            }
            case "eval-task" -> {
                // Hidden: one task of deckhand eval, in the task's own desktop and config directory.
                System.setProperty("quarkus.http.port", "0");
                protocolOut = System.out;
                System.setProperty(StartupBanner.QUIET, "true");
                System.setProperty("quarkus.log.console.stderr", "true");
                System.setOut(System.err);
            }
            case "-h", "--help", "help" -> {
                System.out.println(usage());
                return;
            }
            default -> {
                System.err.println("deckhand: unknown command '" + command + "'\n" + usage());
                System.exit(64);
            }
        }
        String bind = firstNonBlank(System.getProperty("quarkus.http.host"), System.getenv("QUARKUS_HTTP_HOST"));
        boolean allowed = Boolean.parseBoolean(firstNonBlank(System.getProperty("deckhand.allow-non-loopback-bind"),
                System.getenv("DECKHAND_ALLOW_NON_LOOPBACK_BIND")));
        if (bind != null && !LOOPBACK_BIND.contains(bind) && !allowed) {
            System.err.println("deckhand: refusing to bind " + bind + ": Deckhand serves 127.0.0.1 only. "
                    + "Set DECKHAND_ALLOW_NON_LOOPBACK_BIND=true to override (not recommended).");
            System.exit(2);
        }
        Quarkus.run(Server.class, args);
    }

    static String usage() {
        return "usage: deckhand            serve MCP (Streamable HTTP at /mcp), the web page and the owner API on 127.0.0.1\n"
                + "       deckhand stdio      the same, with MCP over standard input/output (logs on standard error)\n"
                + "       deckhand signin     print a one-time sign-in link for the web page (asks the running server; exit 3 if none)\n"
                + "       deckhand run ...    one run from your terminal; 'deckhand run --help' for the flags and exit codes\n"
                + "       deckhand verify-audit  check the audit log's hash chain and seals (exit 0 intact, 1 broken, 2 unreadable)\n"
                + "       deckhand eval ...   run a task suite in private virtual desktops; 'deckhand eval --help' for the flags";
    }

    private static String firstNonBlank(String a, String b) {
        if (a != null && !a.isBlank()) return a.trim();
        if (b != null && !b.isBlank()) return b.trim();
        return null;
    }

    /** The running application: waits for exit, or bridges stdio until standard input closes. */
    public static final class Server implements QuarkusApplication {
        @Override
        public int run(String... args) throws Exception {
            if (args.length > 0 && args[0].equals("stdio")) {
                StdioBridge bridge = io.quarkus.arc.Arc.container().instance(StdioBridge.class).get();
                return bridge.run(System.in, protocolOut);
            }
            if (args.length > 0 && args[0].equals("eval-task")) {
                dev.deckhand.eval.EvalTaskCommand task = io.quarkus.arc.Arc.container().instance(dev.deckhand.eval.EvalTaskCommand.class).get();
                return task.run(java.util.List.of(args).subList(1, args.length), protocolOut, System.err);
            }
            if (args.length > 0 && args[0].equals("run")) {
                dev.deckhand.cli.RunCommand command = io.quarkus.arc.Arc.container().instance(dev.deckhand.cli.RunCommand.class).get();
                return command.run(java.util.List.of(args).subList(1, args.length), protocolOut, System.err);
            }
            Quarkus.waitForExit();
            return 0;
        }
    }
}
