/**
 * X11 through one libX11 binding and its extensions (XTEST, XShm, XShape, Composite, XInput 2, XRes): windows and
 * their properties, keys and chords, the pointer click, capture, the keyboard-grab probe, the Stop key grab and the
 * drawn cursor's overlay window (docs/driver-x11.md). It may import {@code platform} (to implement
 * {@code DrawnCursor}), {@code home} and the pure core; never {@code platform.linux}, {@code platform.atspi} or
 * {@code platform.wayland}, which build on it (no cycles between packages). Like all of {@code platform}, never a
 * service, {@code run}, a front end or {@code boot} (ArchitectureTest).
 */
package dev.deckhand.platform.x11;
