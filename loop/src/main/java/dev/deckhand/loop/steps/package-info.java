/**
 * Explicit {@code steps} and selectors: parsing the list and resolving each selector inside the grant's scope, an
 * ambiguous or missing match an error, never a guess (docs/contract.md#input). It may import {@code loop.action},
 * {@code loop.desktop} and {@code loop.json}; never a loop package that uses it (no cycles between packages). Pure,
 * like all of the {@code loop} module: it may import the JDK, Jackson and {@code dev.deckhand.grant} only; no
 * Quarkus, Jakarta, JNA, LangChain4j or Vert.x, no files, sockets or SQL, nothing of the application
 * (ArchitectureTest).
 */
package dev.deckhand.loop.steps;
