/**
 * The guard that asks the grant module before each step: proposals by effect, approval cards (one per batch, then
 * each step judged when it runs), the preflight on the desktop port, the denied places a tree shows, and the last
 * check (docs/design.md#refusals). It may import {@code loop} and its other packages and {@code grant}; nothing in
 * {@code loop} may import it (no cycles between packages). Pure, like all of the {@code loop} module: it may import
 * the JDK, Jackson and {@code dev.deckhand.grant} only; no Quarkus, Jakarta, JNA, LangChain4j or Vert.x, no files,
 * sockets or SQL, nothing of the application (ArchitectureTest).
 */
package dev.deckhand.loop.guard;
