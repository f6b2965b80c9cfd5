/**
 * AT-SPI through libatspi on one confined thread: the bus, the scoped tree and its uids, actions, menus and their
 * accelerators, and the facts the absolute refusals need (docs/driver-atspi.md). It may import {@code platform},
 * {@code platform.x11} (the {@code AT_SPI_BUS} root-window property), {@code home} and the pure core; never
 * {@code platform.linux} or {@code platform.wayland}, which build on it (no cycles between packages). Like all of
 * {@code platform}, never a service, {@code run}, a front end or {@code boot} (ArchitectureTest).
 */
package dev.deckhand.platform.atspi;
