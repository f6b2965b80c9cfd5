/**
 * The platform's ports as the application sees them: {@code Desktops} (opens the desktop driver on first use),
 * {@code DrawnCursor}, {@code CursorDesktop} and the process table (docs/design.md#platforms). It may import
 * {@code home} and the pure core only, never a service, {@code run}, a front end or {@code boot}; its subpackages
 * implement it, never the other way round (no cycles between packages). Only the platform packages may use JNA
 * (ArchitectureTest).
 */
package dev.deckhand.platform;
