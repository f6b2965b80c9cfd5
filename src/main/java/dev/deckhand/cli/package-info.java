/**
 * {@code deckhand run}: its options, the grant it mints for the person at their terminal (through
 * {@code owner.TerminalGrants}), Ctrl-C as Stop, the summary line or {@code --json}, and {@code ExitCode}, the one
 * mapping from a run's result to an exit status (docs/contract.md#the-command-line). A front end: it may import
 * {@code run}, the services, the platform, {@code home} and the pure core, and another front end without a cycle;
 * never {@code boot}, and only {@code boot} may import it (docs/architecture.md#the-layers, ArchitectureTest).
 */
package dev.deckhand.cli;
