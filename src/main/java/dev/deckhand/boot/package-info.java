/**
 * The roof: {@code Main} and the command dispatch (serve, {@code stdio}, {@code run}, {@code eval},
 * {@code eval-task}, {@code signin}, {@code verify-audit}), the start-up banner and the check that the server binds
 * the loopback interface only. It alone knows the command names and may import any layer; no package may import it
 * (docs/architecture.md#the-layers, ArchitectureTest).
 */
package dev.deckhand.boot;
