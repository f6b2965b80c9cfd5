package dev.deckhand.mcp;

import io.quarkus.test.junit.QuarkusTestProfile;

/**
 * A server of its own for tests that need the state of a fresh start (no grant ever minted): the
 * end-to-end tests leave ended grants behind, and the broker reports an ended grant's refusal
 * (GRANT_REVOKED, STOPPED) until the next mint, by design.
 */
public class FreshServer implements QuarkusTestProfile {}
