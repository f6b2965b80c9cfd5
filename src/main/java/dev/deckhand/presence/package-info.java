/**
 * What shows the person that the agent acts: the drawn cursor and the voice line around a run, the global Stop
 * shortcut and Focus during runs (docs/presence.md). A service: it may import another service without a cycle, the
 * platform, {@code home} and the pure core; never {@code run}, a front end or {@code boot}
 * (docs/architecture.md#the-layers, ArchitectureTest).
 */
package dev.deckhand.presence;
