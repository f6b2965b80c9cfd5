package dev.deckhand.loop;

/**
 * The {@code computer} tool's argument limits: one value each, read by {@link RunArguments} (and the
 * {@link RunRequest} and {@link dev.deckhand.loop.steps.StepParser} it builds), published by
 * {@link InputSchema}, and taken by {@code deckhand run}'s flags and {@code deckhand eval}'s task files.
 * docs/contract.md states the same numbers and why they are these; {@code ToolLimitsAgreeTest} checks that
 * the three agree.
 */
public final class ToolLimits {

    /** Characters of {@code instruction}: a person's request, not a document to paste. */
    public static final int MAX_INSTRUCTION = 4_000;

    /**
     * Elements of {@code steps}: the largest explicit run in the repository is the canary run (100
     * {@code set_text} and a {@code ctrl+s}, 101 steps); 200 leaves room and keeps an approval card's list
     * readable.
     */
    public static final int MAX_STEPS = 200;

    /** {@code maxSteps}: the policy's step cap is at most 1,000, and the argument only lowers it. */
    public static final int MAX_MAX_STEPS = 1_000;

    /** {@code timeoutSeconds}: an hour; the argument only lowers the policy's wall clock. */
    public static final int MAX_TIMEOUT_SECONDS = 3_600;

    private ToolLimits() {}
}
