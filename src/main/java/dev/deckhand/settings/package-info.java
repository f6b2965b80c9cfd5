/**
 * {@code GET /api/status}, the page's header: what this server is, where its endpoints and its config directory
 * are. A front end: it may import {@code run}, the services, the platform, {@code home} and the pure core, and
 * another front end without a cycle; never {@code boot}, and only {@code boot} may import it
 * (docs/architecture.md#the-layers, ArchitectureTest).
 */
package dev.deckhand.settings;
