/**
 * The action schema and its strict parser, the one table of action kinds and their fields
 * (docs/contract.md#actions). It may import {@code loop.json} and {@code grant}; never the loop packages that use
 * it (no cycles between packages). Pure, like all of the {@code loop} module: it may import the JDK, Jackson and
 * {@code dev.deckhand.grant} only; no Quarkus, Jakarta, JNA, LangChain4j or Vert.x, no files, sockets or SQL,
 * nothing of the application (ArchitectureTest).
 */
package dev.deckhand.loop.action;
