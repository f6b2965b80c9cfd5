package dev.deckhand.web;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The element an approval card's step line names. Deckhand's cards describe each step as
 * {@code [n. ]kind → role "name"[ …]} (the run's guard resolves the target before raising the card);
 * this reads role and name back. Steps without an element ("the window", a point) have none.
 */
public record StepTarget(String role, String name) {

    private static final Pattern LINE = Pattern.compile("→ ([a-z][a-z -]*?) \"(.*)\"(?: \\(.*\\))?$");

    public StepTarget {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(name, "name");
    }

    /** The step's element, or empty when the line names none (or was not resolved: "(not on screen yet)"). */
    public static Optional<StepTarget> parse(String line) {
        if (line == null || line.endsWith("(not on screen yet)")) return Optional.empty();
        Matcher m = LINE.matcher(line);
        return m.find() ? Optional.of(new StepTarget(m.group(1), m.group(2))) : Optional.empty();
    }
}
