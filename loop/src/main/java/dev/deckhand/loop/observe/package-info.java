/**
 * The observation the model reads: the compact text form of the scoped tree within a token budget, the roles and
 * tabular listings (docs/design.md#the-run-loop). It may import {@code loop.desktop}; never a loop package that
 * uses it (no cycles between packages). Pure, like all of the {@code loop} module: it may import the JDK, Jackson
 * and {@code dev.deckhand.grant} only; no Quarkus, Jakarta, JNA, LangChain4j or Vert.x, no files, sockets or SQL,
 * nothing of the application (ArchitectureTest).
 */
package dev.deckhand.loop.observe;
