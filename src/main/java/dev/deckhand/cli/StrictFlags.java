package dev.deckhand.cli;

import java.util.List;
import java.util.function.Function;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * picocli, configured the way Deckhand's commands read their flags: no {@code @file} expansion (an instruction may
 * begin with {@code @}), a flag given twice is an error, and every error is one short message naming the flag
 * ("unknown flag --x", "--out needs a value", "--app is given twice") for the command's own usage error.
 */
public final class StrictFlags {

    private StrictFlags() {}

    /** A picocli command line over {@code spec}'s annotations, with the settings above. */
    public static CommandLine commandLine(Object spec) {
        return new CommandLine(spec).setExpandAtFiles(false).setOverwrittenOptionsAllowed(false);
    }

    /**
     * Reads {@code args} into {@code spec}'s annotated fields.
     *
     * @param usageError makes the command's usage exception from a message naming the flag
     */
    public static void parse(Object spec, List<String> args, Function<String, RuntimeException> usageError) {
        try {
            commandLine(spec).parseArgs(args.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw usageError.apply(message(e));
        }
    }

    /** The message of a picocli parse error, in Deckhand's words: the flag or argument it is about. */
    public static String message(CommandLine.ParameterException e) {
        if (e instanceof CommandLine.UnmatchedArgumentException u
                && !u.getUnmatched().isEmpty()) {
            String first = u.getUnmatched().get(0);
            return first.startsWith("--") ? "unknown flag " + first : "unexpected argument '" + first + "'";
        }
        if (e instanceof CommandLine.OverwrittenOptionException o) return name(o.getOverwritten()) + " is given twice";
        if (e instanceof CommandLine.MissingParameterException m
                && !m.getMissing().isEmpty()) {
            return name(m.getMissing().get(0)) + " needs a value";
        }
        return e.getMessage();
    }

    private static String name(ArgSpec arg) {
        return arg instanceof OptionSpec option ? option.longestName() : arg.paramLabel();
    }
}
