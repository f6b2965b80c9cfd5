package dev.deckhand.boot;

import dev.deckhand.home.DeckhandHome;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

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
 * The command is read by picocli before Quarkus starts; unknown arguments exit 64 with the usage.
 */
@QuarkusMain
public final class Main {

    static final Set<String> LOOPBACK_BIND = Set.of("127.0.0.1", "localhost", "::1", "[::1]");

    /** Standard output as it was at start: in stdio mode it carries protocol messages only. */
    static volatile PrintStream protocolOut;

    Main() {}

    /** The commands as picocli reads them; each command's own flags are its options class's (run, eval). */
    @Command(
            name = "deckhand",
            subcommands = {
                Main.Serve.class,
                Main.Stdio.class,
                Main.SignIn.class,
                Main.Run.class,
                Main.VerifyAudit.class,
                Main.Eval.class,
                Main.EvalTask.class,
                Main.Help.class
            })
    static final class Commands {
        @Option(
                names = {"-h", "--help"},
                usageHelp = true)
        boolean help;
    }

    /** Arguments after a command that reads none were always ignored; kept so. */
    @Command(name = "serve")
    static final class Serve {
        @Unmatched
        List<String> ignored;
    }

    @Command(name = "stdio")
    static final class Stdio {
        @Unmatched
        List<String> ignored;
    }

    @Command(name = "signin")
    static final class SignIn {}

    @Command(name = "verify-audit")
    static final class VerifyAudit {
        @Unmatched
        List<String> ignored;
    }

    /** The flags go to {@link dev.deckhand.cli.RunOptions} as given; {@code --help} anywhere among them is the help. */
    @Command(name = "run")
    static final class Run {
        @Option(
                names = {"-h", "--help"},
                usageHelp = true)
        boolean help;

        @Unmatched
        List<String> flags = new java.util.ArrayList<>();
    }

    @Command(name = "eval")
    static final class Eval {
        @Option(
                names = {"-h", "--help"},
                usageHelp = true)
        boolean help;

        @Unmatched
        List<String> flags = new java.util.ArrayList<>();
    }

    /** Hidden: one task of deckhand eval ({@code eval-task JOB}), in the task's own desktop and config directory. */
    @Command(name = "eval-task", hidden = true)
    static final class EvalTask {
        @Unmatched
        List<String> job;
    }

    @Command(name = "help")
    static final class Help {
        @Unmatched
        List<String> ignored;
    }

    public static void main(String... args) {
        CommandLine.ParseResult parsed;
        try {
            // --help given twice is still the help: only run and eval refuse a repeated flag, in their own parse.
            parsed = dev.deckhand.cli.StrictFlags.commandLine(new Commands())
                    .setOverwrittenOptionsAllowed(true)
                    .parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            if (e.getCommandLine().getCommand() instanceof SignIn) {
                System.err.println("deckhand signin takes no arguments\n" + usage());
                System.exit(SignInCommand.USAGE);
            }
            if (!(e.getCommandLine().getCommand() instanceof Commands)) {
                // Only --help itself is read here (run, eval): e.g. given twice.
                System.err.println("deckhand " + e.getCommandLine().getCommandName() + ": "
                        + dev.deckhand.cli.StrictFlags.message(e) + "\n" + usage());
                System.exit(64);
            }
            String command = e instanceof CommandLine.UnmatchedArgumentException u
                            && !u.getUnmatched().isEmpty()
                    ? u.getUnmatched().get(0)
                    : args[0];
            System.err.println("deckhand: unknown command '" + command + "'\n" + usage());
            System.exit(64);
            return;
        }
        CommandLine.ParseResult sub = parsed.subcommand();
        Object command = sub == null ? new Serve() : sub.commandSpec().userObject();
        if (parsed.isUsageHelpRequested() || command instanceof Help) {
            System.out.println(usage());
            return;
        }
        if (command instanceof Stdio) {
            protocolOut = System.out;
            System.setProperty("deckhand.stdio", "true");
            System.setProperty("quarkus.log.console.stderr", "true");
            System.setOut(System.err);
        } else if (command instanceof VerifyAudit) {
            // Reads the chain without starting a server; safe while one runs.
            DeckhandHome home = DeckhandHome.resolve(System.getProperty("deckhand.home"));
            System.exit(dev.deckhand.audit.AuditVerifyCommand.run(
                    new String[] {
                        home.file(DeckhandHome.AUDIT_DATABASE).toString(),
                        home.file(DeckhandHome.AUDIT_SEAL_KEY).toString()
                    },
                    System.out,
                    System.err));
        } else if (command instanceof SignIn) {
            String port = firstNonBlank(System.getProperty("quarkus.http.port"), System.getenv("QUARKUS_HTTP_PORT"));
            int code;
            try {
                code = SignInCommand.run(
                        DeckhandHome.locate(System.getProperty("deckhand.home")),
                        port == null ? 8377 : Integer.parseInt(port),
                        System.out,
                        System.err);
            } catch (NumberFormatException e) {
                System.err.println("deckhand signin: QUARKUS_HTTP_PORT '" + port + "' is not a port number");
                code = SignInCommand.USAGE;
            }
            System.exit(code);
        } else if (command instanceof Run run) {
            if (sub.isUsageHelpRequested()) {
                System.out.println(dev.deckhand.cli.RunOptions.usage());
                return;
            }
            try {
                dev.deckhand.cli.RunOptions.parse(run.flags);
            } catch (dev.deckhand.cli.RunOptions.UsageException e) {
                System.err.println("deckhand run: " + e.getMessage() + "\n" + dev.deckhand.cli.RunOptions.usage());
                System.exit(64);
            }
            if (firstNonBlank(System.getProperty("quarkus.http.port"), System.getenv("QUARKUS_HTTP_PORT")) == null) {
                System.setProperty("quarkus.http.port", "0");
            }
            java.nio.file.Path audit =
                    DeckhandHome.resolve(System.getProperty("deckhand.home")).file(DeckhandHome.AUDIT_DATABASE);
            if (dev.deckhand.audit.AuditStore.heldElsewhere(audit)) {
                System.err.println("deckhand run: the audit log " + audit + " is in use by another Deckhand process "
                        + "with this config directory; use that server (its MCP endpoint or page) or stop it first");
                System.exit(4);
            }
            protocolOut = System.out;
            System.setProperty(StartupBanner.QUIET, "true");
            System.setProperty("quarkus.log.console.stderr", "true");
            System.setOut(System.err);
        } else if (command instanceof Eval eval) {
            // The orchestrator needs no server: each task's child process is the packaged app (eval-task).
            if (sub.isUsageHelpRequested()) {
                System.out.println(dev.deckhand.eval.EvalOptions.usage());
                return;
            }
            System.exit(new dev.deckhand.eval.EvalCommand(
                            System.getenv(), DeckhandHome.resolve(System.getProperty("deckhand.home")))
                    .run(eval.flags, System.out, System.err));
        } else if (command instanceof EvalTask) {
            System.setProperty("quarkus.http.port", "0");
            protocolOut = System.out;
            System.setProperty(StartupBanner.QUIET, "true");
            System.setProperty("quarkus.log.console.stderr", "true");
            System.setOut(System.err);
        }
        String bind = firstNonBlank(System.getProperty("quarkus.http.host"), System.getenv("QUARKUS_HTTP_HOST"));
        boolean allowed = Boolean.parseBoolean(firstNonBlank(
                System.getProperty("deckhand.allow-non-loopback-bind"),
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
                StdioBridge bridge = io.quarkus.arc.Arc.container()
                        .instance(StdioBridge.class)
                        .get();
                return bridge.run(System.in, protocolOut);
            }
            if (args.length > 0 && args[0].equals("eval-task")) {
                dev.deckhand.eval.EvalTaskCommand task = io.quarkus.arc.Arc.container()
                        .instance(dev.deckhand.eval.EvalTaskCommand.class)
                        .get();
                return task.run(java.util.List.of(args).subList(1, args.length), protocolOut, System.err);
            }
            if (args.length > 0 && args[0].equals("run")) {
                dev.deckhand.cli.RunCommand command = io.quarkus.arc.Arc.container()
                        .instance(dev.deckhand.cli.RunCommand.class)
                        .get();
                return command.run(java.util.List.of(args).subList(1, args.length), protocolOut, System.err);
            }
            Quarkus.waitForExit();
            return 0;
        }
    }
}
