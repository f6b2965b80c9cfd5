/**
 * The foundation: the config directory as one bean that owns every file name in it, the two bearer secrets and the
 * known secrets, the server address, the configuration, and the one {@code java.time.Clock} everything shares
 * (docs/design.md#owner-boundary). It may import the pure core only; every layer may import it
 * (docs/architecture.md#the-layers, ArchitectureTest).
 */
package dev.deckhand.home;
