/**
 * {@code GET /api/doctor}: the checks of the display, the session, the accessibility bus, each toolkit's
 * accessibility, capture, the keyboard path, the config and the model binding, each with its fix. A service: it may
 * import another service without a cycle, the platform, {@code home} and the pure core; never {@code run}, a front
 * end or {@code boot} (docs/architecture.md#the-layers, ArchitectureTest).
 */
package dev.deckhand.doctor;
