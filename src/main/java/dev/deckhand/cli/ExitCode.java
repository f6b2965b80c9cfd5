package dev.deckhand.cli;

import dev.deckhand.grant.RefusalCode;
import dev.deckhand.loop.RunResult;
import dev.deckhand.loop.verify.Verdict;

/**
 * The exit code of {@code deckhand run} for a run's result (docs/contract.md#the-command-line). The verifier alone decides
 * success: a {@code pass} verdict is 0 whatever else happened. Otherwise the refusal that ended the run
 * picks the code, and anything else (verdict {@code fail} or {@code none}) is 1.
 * <ul>
 *   <li>2 — {@code DENY_CREDENTIAL_APP}, {@code DENY_COMMS_VISIBLE}, {@code DENY_HOST}, {@code DENY_PATH}, {@code CONFIG_MISSING}
 *       (the detail names the app, the host or the policy file);</li>
 *   <li>3 — {@code HEADLESS}, {@code PLATFORM_UNSUPPORTED}, {@code WAYLAND_INPUT_UNSUPPORTED}: no display
 *       this build can drive;</li>
 *   <li>4 — {@code PREFLIGHT_FAILED}, {@code A11Y_UNAVAILABLE} (the accessibility bus is a preflight
 *       check of docs/design.md#the-run-loop);</li>
 *   <li>5 — {@code NO_VERIFIER};</li>
 *   <li>6 — {@code SECRET_ON_SCREEN}: one of Deckhand's own secrets was read in the granted scope.</li>
 * </ul>
 */
public final class ExitCode {

    public static final int PASSED = 0;
    public static final int FAILED = 1;
    public static final int DENIED_OR_CONFIG = 2;
    public static final int NO_DISPLAY = 3;
    public static final int PREFLIGHT = 4;
    public static final int NO_VERIFIER = 5;
    public static final int SECRET_ON_SCREEN = 6;
    public static final int USAGE = 64;

    private ExitCode() {}

    public static int of(RunResult result) {
        if (result.verdict() == Verdict.PASS) return PASSED;
        return result.refusal().map(r -> of(r.code())).orElse(FAILED);
    }

    /** The exit code a run ended by {@code code} (without a passing verdict) gets. */
    public static int of(RefusalCode code) {
        switch (code) {
            case DENY_CREDENTIAL_APP:
            case DENY_COMMS_VISIBLE:
            case DENY_HOST:
            case DENY_PATH:
            case CONFIG_MISSING:
                return DENIED_OR_CONFIG;
            case HEADLESS:
            case PLATFORM_UNSUPPORTED:
            case WAYLAND_INPUT_UNSUPPORTED:
                return NO_DISPLAY;
            case PREFLIGHT_FAILED:
            case A11Y_UNAVAILABLE:
                return PREFLIGHT;
            case NO_VERIFIER:
                return NO_VERIFIER;
            case SECRET_ON_SCREEN:
                return SECRET_ON_SCREEN;
            default:
                return FAILED;
        }
    }
}
