package dev.deckhand.grant;

/** A mint while another grant is active (at most one per server); the REST layer maps it to 409. */
public final class GrantConflictException extends IllegalStateException {

    private final String activeGrantId;

    public GrantConflictException(String activeGrantId) {
        super("a grant is already active: " + activeGrantId + " (revoke it first)");
        this.activeGrantId = activeGrantId;
    }

    public String activeGrantId() {
        return activeGrantId;
    }
}
