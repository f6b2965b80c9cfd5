/**
 * The owner API ({@code /api/windows}, {@code /api/grants}, {@code /api/stop}, {@code /api/approvals},
 * {@code /api/policy}): minting, revising and revoking grants, and {@code TerminalGrants}, the one mint path for
 * {@code deckhand run} and {@code deckhand eval} (docs/design.md#grants). A service: it may import another service
 * without a cycle, the platform, {@code home} and the pure core; never {@code run}, a front end or {@code boot}
 * (docs/architecture.md#the-layers, ArchitectureTest). Only {@code owner}, {@code cli}, {@code eval} and
 * {@code boot} may use {@code TerminalGrants}.
 */
package dev.deckhand.owner;
