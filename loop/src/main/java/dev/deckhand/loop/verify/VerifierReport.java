package dev.deckhand.loop.verify;

import java.util.Objects;

/** The verdict of one verifier run and what it found (at most {@value #MAX_DETAIL} characters). */
public record VerifierReport(Verdict verdict, String detail) {

    public static final int MAX_DETAIL = 500;

    public VerifierReport {
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(detail, "detail");
        if (detail.length() > MAX_DETAIL) detail = detail.substring(0, MAX_DETAIL - 1) + "…";
    }

    public static VerifierReport none() {
        return new VerifierReport(Verdict.NONE, "no verifier declared");
    }
}
