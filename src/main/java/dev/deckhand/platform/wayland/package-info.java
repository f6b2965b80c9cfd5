/**
 * Native Wayland apps through the accessibility bus alone: {@code WaylandDesktop} (no synthetic input, no capture)
 * and {@code FrameIds}, the opaque ids of their frames (docs/wayland.md). It may import {@code platform},
 * {@code platform.atspi}, {@code platform.x11}, {@code home} and the pure core; never {@code platform.linux}, which
 * builds on it (no cycles between packages). Like all of {@code platform}, never a service, {@code run}, a front
 * end or {@code boot} (ArchitectureTest).
 */
package dev.deckhand.platform.wayland;
