/**
 * A run without the world: the bounded perceive, decide, act loop ({@code ComputerLoop}), the tool's arguments
 * ({@code RunArguments}, {@code RunRequest}), the outcome and result, and the ports it talks through
 * ({@code Decider}, {@code Guard}, {@code Preflight}, {@code AuditSink}) (docs/design.md#the-run-loop). Pure, like
 * all of the {@code loop} module: it may import the JDK, Jackson and {@code dev.deckhand.grant} only; no Quarkus,
 * Jakarta, JNA, LangChain4j or Vert.x, no files, sockets or SQL, nothing of the application (ArchitectureTest).
 */
package dev.deckhand.loop;
