/**
 * The wire format with Jackson: reading fields strictly and naming the field in every error. It imports nothing of
 * Deckhand's, since every other loop package may use it; Jackson is the one JSON library (ArchitectureTest). Pure,
 * like all of the {@code loop} module: it may import the JDK, Jackson and {@code dev.deckhand.grant} only; no
 * Quarkus, Jakarta, JNA, LangChain4j or Vert.x, no files, sockets or SQL, nothing of the application
 * (ArchitectureTest).
 */
package dev.deckhand.loop.json;
