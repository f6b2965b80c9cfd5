/**
 * The routing rule, pure and tested: which route a run takes and which actions the model may return on it, and
 * {@code NO_VERIFIER} (docs/design.md#routing). It may import {@code loop.action}, {@code loop.desktop},
 * {@code loop.observe} and {@code grant}; never a loop package that uses it (no cycles between packages). Pure,
 * like all of the {@code loop} module: it may import the JDK, Jackson and {@code dev.deckhand.grant} only; no
 * Quarkus, Jakarta, JNA, LangChain4j or Vert.x, no files, sockets or SQL, nothing of the application
 * (ArchitectureTest).
 */
package dev.deckhand.loop.route;
