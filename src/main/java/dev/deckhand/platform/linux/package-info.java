/**
 * The Linux desktop: {@code LinuxDesktop} joins the X11 and AT-SPI drivers into one {@code loop.desktop.Desktop},
 * {@code MixedDesktop} adds native Wayland apps on a session with both, {@code KeptFacts} keeps the policy facts
 * current by events, {@code SecretFileWatch} watches the config directory's secret files, {@code PointerToolkit}
 * tells how a {@code click_at} reaches a window on a person's display, and
 * {@code LinuxDesktops} opens the right one (docs/driver-x11.md, docs/driver-atspi.md). It
 * may import {@code platform}, its sibling drivers, {@code home} and the pure core; no sibling may import it (no
 * cycles between packages). Like all of {@code platform}, never a service, {@code run}, a front end or {@code boot}
 * (ArchitectureTest).
 */
package dev.deckhand.platform.linux;
