/**
 * The verifier contract: the declared verifier read strictly, run with its cap on every exit path, and its verdict,
 * the only source of one (docs/design.md#verifiers). It may import {@code loop.desktop}, {@code loop.json},
 * {@code loop.steps} and {@code grant}; never a loop package that uses it (no cycles between packages). Pure, like
 * all of the {@code loop} module: it may import the JDK, Jackson and {@code dev.deckhand.grant} only; no Quarkus,
 * Jakarta, JNA, LangChain4j or Vert.x, no files, sockets or SQL, nothing of the application (ArchitectureTest).
 */
package dev.deckhand.loop.verify;
