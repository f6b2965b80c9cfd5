/**
 * The driver port ({@code Desktop}, a record of its parts: {@code Display}, {@code Trees}, {@code Input},
 * {@code Captures}, {@code Facts}, {@code Showing}; {@code Around} and {@code Call} for the decorators of every
 * call) and what crosses it: windows, geometry, the scoped tree, captures and their basis, the facts the policy
 * needs, the last check before each native call ({@code DeliveryGate}) (docs/design.md#the-run-loop,
 * docs/architecture.md#the-desktop-port). It may import {@code grant} only: the other loop packages build on it
 * (no cycles between packages). Pure, like all of the {@code loop} module: it may import the JDK, Jackson and
 * {@code dev.deckhand.grant} only; no Quarkus, Jakarta, JNA, LangChain4j or Vert.x, no files, sockets or SQL,
 * nothing of the application (ArchitectureTest).
 */
package dev.deckhand.loop.desktop;
