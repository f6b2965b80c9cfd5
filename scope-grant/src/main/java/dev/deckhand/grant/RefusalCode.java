package dev.deckhand.grant;

/**
 * Every refusal Deckhand can give (docs/contract.md#refusal-codes). Each is distinct and fails closed; the name is
 * the wire code.
 */
public enum RefusalCode {
    NO_GRANT,
    GRANT_EXPIRED,
    GRANT_REVOKED,
    BUDGET_EXHAUSTED,
    OUT_OF_SCOPE,
    OWN_WINDOW,
    SECURE_INPUT,
    DENY_CREDENTIAL_APP,
    DENY_COMMS_VISIBLE,
    DENY_HOST,
    DENY_PATH,
    BASIS_STALE,
    MODE_DENIED,
    NO_VERIFIER,
    CONSEQUENTIAL_NOT_NAMED,
    MODEL_NOT_BOUND,
    MODEL_OUTPUT_INVALID,
    HEADLESS,
    PREFLIGHT_FAILED,
    CONFIG_MISSING,
    WAYLAND_INPUT_UNSUPPORTED,
    PLATFORM_UNSUPPORTED,
    POINTER_WARP_REFUSED,
    A11Y_UNAVAILABLE,
    STOPPED,
    SYSTEM_CHORD,
    SECRET_ON_SCREEN
}
