/**
 * The HTTP guard in front of every request (canonical path, Host and Origin, tokens, CSRF, same-origin images,
 * headers), the page's sign-in sessions and links, the liveness probe and the ledger of owner actions
 * (docs/design.md#owner-boundary). A service: it may import another service without a cycle, the platform,
 * {@code home} and the pure core; never {@code run}, a front end or {@code boot} (docs/architecture.md#the-layers,
 * ArchitectureTest).
 */
package dev.deckhand.security;
