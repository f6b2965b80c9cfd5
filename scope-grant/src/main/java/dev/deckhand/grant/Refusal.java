package dev.deckhand.grant;

import java.util.Objects;

/**
 * A refusal: its code and a detail that names what fired (the app, host, element, check or
 * argument). Never carries typed text or pixels.
 *
 * <p>Build one with the factory named by its code ({@link #ownWindow(String)}, {@link #stopped(String)},
 * ...); {@link #of} is for code that maps a code it was given. A refusal travels as a value
 * ({@code Optional<Refusal>}, a run's {@code Outcome}); where it must unwind a call stack (a driver
 * port, the broker's commands) it is thrown as {@link RefusedException} carrying this value.
 */
public record Refusal(RefusalCode code, String detail) {

    public Refusal {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(detail, "detail");
        if (detail.isBlank()) {
            throw new IllegalArgumentException("detail must name what fired for " + code);
        }
    }

    /** This refusal, its code kept, with {@code newDetail} (a detail rewritten, e.g. with a secret withheld). */
    public Refusal withDetail(String newDetail) {
        return new Refusal(code, newDetail);
    }

    /** A refusal with a code chosen at run time; prefer the factory named by the code. */
    public static Refusal of(RefusalCode code, String detail) {
        return new Refusal(code, detail);
    }

    /** {@code NO_GRANT}: no window is granted to this session, or the grant is not this session's. */
    public static Refusal noGrant(String detail) {
        return new Refusal(RefusalCode.NO_GRANT, detail);
    }

    /** {@code GRANT_EXPIRED}: the grant passed its idle or absolute expiry. */
    public static Refusal grantExpired(String detail) {
        return new Refusal(RefusalCode.GRANT_EXPIRED, detail);
    }

    /** {@code GRANT_REVOKED}: the person revoked the grant (a revoke ends a run as Stop does). */
    public static Refusal grantRevoked(String detail) {
        return new Refusal(RefusalCode.GRANT_REVOKED, detail);
    }

    /** {@code BUDGET_EXHAUSTED}: the grant has no action left in its budget. */
    public static Refusal budgetExhausted(String detail) {
        return new Refusal(RefusalCode.BUDGET_EXHAUSTED, detail);
    }

    /** {@code OUT_OF_SCOPE}: the target, point, window, focus or command lies outside the grant or the policy. */
    public static Refusal outOfScope(String detail) {
        return new Refusal(RefusalCode.OUT_OF_SCOPE, detail);
    }

    /** {@code OWN_WINDOW}: the target is one of Deckhand's own windows. */
    public static Refusal ownWindow(String detail) {
        return new Refusal(RefusalCode.OWN_WINDOW, detail);
    }

    /** {@code SECURE_INPUT}: a password field or a keyboard grab holds the input. */
    public static Refusal secureInput(String detail) {
        return new Refusal(RefusalCode.SECURE_INPUT, detail);
    }

    /** {@code DENY_CREDENTIAL_APP}: a credential-class app on the deny list (password manager, key ring) is running. */
    public static Refusal denyCredentialApp(String detail) {
        return new Refusal(RefusalCode.DENY_CREDENTIAL_APP, detail);
    }

    /** {@code DENY_COMMS_VISIBLE}: a communications app on the deny list is visible. */
    public static Refusal denyCommsVisible(String detail) {
        return new Refusal(RefusalCode.DENY_COMMS_VISIBLE, detail);
    }

    /** {@code DENY_HOST}: a browser shows a host on the deny list. */
    public static Refusal denyHost(String detail) {
        return new Refusal(RefusalCode.DENY_HOST, detail);
    }

    /**
     * {@code DENY_PATH}: typed text, a selection or what the window shows names a path in a denied place
     * ({@link DeniedPlaces}: Deckhand's config directory, the verifier's built-in denied set, hidden files).
     */
    public static Refusal denyPath(String detail) {
        return new Refusal(RefusalCode.DENY_PATH, detail);
    }

    /** {@code BASIS_STALE}: a click_at names a capture that is not this run's, or the window changed since. */
    public static Refusal basisStale(String detail) {
        return new Refusal(RefusalCode.BASIS_STALE, detail);
    }

    /** {@code MODE_DENIED}: the call mode (plan, goal) or the input policy (autonomous under ask) is not allowed. */
    public static Refusal modeDenied(String detail) {
        return new Refusal(RefusalCode.MODE_DENIED, detail);
    }

    /** {@code NO_VERIFIER}: a run that may give input declared no verifier. */
    public static Refusal noVerifier(String detail) {
        return new Refusal(RefusalCode.NO_VERIFIER, detail);
    }

    /** {@code CONSEQUENTIAL_NOT_NAMED}: a consequential action the grant does not name, or the person denied its card. */
    public static Refusal consequentialNotNamed(String detail) {
        return new Refusal(RefusalCode.CONSEQUENTIAL_NOT_NAMED, detail);
    }

    /** {@code MODEL_NOT_BOUND}: no vision model is bound in settings. */
    public static Refusal modelNotBound(String detail) {
        return new Refusal(RefusalCode.MODEL_NOT_BOUND, detail);
    }

    /** {@code MODEL_OUTPUT_INVALID}: the model's output was refused twice by the strict parser. */
    public static Refusal modelOutputInvalid(String detail) {
        return new Refusal(RefusalCode.MODEL_OUTPUT_INVALID, detail);
    }

    /** {@code HEADLESS}: no display to drive. */
    public static Refusal headless(String detail) {
        return new Refusal(RefusalCode.HEADLESS, detail);
    }

    /** {@code PREFLIGHT_FAILED}: a preflight check failed (no such window, a screen locker, ...). */
    public static Refusal preflightFailed(String detail) {
        return new Refusal(RefusalCode.PREFLIGHT_FAILED, detail);
    }

    /** {@code CONFIG_MISSING}: the policy file is missing or invalid. */
    public static Refusal configMissing(String detail) {
        return new Refusal(RefusalCode.CONFIG_MISSING, detail);
    }

    /** {@code WAYLAND_INPUT_UNSUPPORTED}: input cannot be given on this display (Wayland, no XTEST). */
    public static Refusal waylandInputUnsupported(String detail) {
        return new Refusal(RefusalCode.WAYLAND_INPUT_UNSUPPORTED, detail);
    }

    /** {@code PLATFORM_UNSUPPORTED}: this platform has no driver. */
    public static Refusal platformUnsupported(String detail) {
        return new Refusal(RefusalCode.PLATFORM_UNSUPPORTED, detail);
    }

    /** {@code POINTER_WARP_REFUSED}: the pointer may not be moved where the action needs it. */
    public static Refusal pointerWarpRefused(String detail) {
        return new Refusal(RefusalCode.POINTER_WARP_REFUSED, detail);
    }

    /** {@code A11Y_UNAVAILABLE}: the accessibility bus or the window's tree cannot be read. */
    public static Refusal a11yUnavailable(String detail) {
        return new Refusal(RefusalCode.A11Y_UNAVAILABLE, detail);
    }

    /** {@code STOPPED}: the person pressed Stop (or the MCP call was cancelled). */
    public static Refusal stopped(String detail) {
        return new Refusal(RefusalCode.STOPPED, detail);
    }

    /** {@code SYSTEM_CHORD}: a key chord the system keeps for itself (workspace, session, lock). */
    public static Refusal systemChord(String detail) {
        return new Refusal(RefusalCode.SYSTEM_CHORD, detail);
    }

    /**
     * {@code SECRET_ON_SCREEN}: one of Deckhand's own secrets (a token, key or sign-in code) was
     * read in the granted scope. Absolute: the run ends, the model is told nothing more.
     */
    public static Refusal secretOnScreen(String detail) {
        return new Refusal(RefusalCode.SECRET_ON_SCREEN, detail);
    }

    /** The one-line form used in tool results and logs: {@code CODE: detail}. */
    @Override
    public String toString() {
        return code + ": " + detail;
    }
}
