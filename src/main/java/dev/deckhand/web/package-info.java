/**
 * What the owner's web page needs beyond the owner API: window thumbnails and approval-card crops (pixels,
 * same-origin requests only) and the live feed. A front end: it may import {@code run}, the services, the platform,
 * {@code home} and the pure core, and another front end without a cycle; never {@code boot}, and only {@code boot}
 * may import it (docs/architecture.md#the-layers, ArchitectureTest).
 */
package dev.deckhand.web;
