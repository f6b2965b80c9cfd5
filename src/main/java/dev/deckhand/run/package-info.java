/**
 * One call of the tool: the refusals before any run, binding and holding the grant, wiring one run's ports (guard,
 * decider, desktop, verifier, audit trail), the watcher, the run record, the verifier-read budget and the host's
 * {@code file} and {@code command} verifiers. It may import the services, the platform, {@code home} and the pure
 * core; never a front end or {@code boot}, and only they may import it (docs/architecture.md#the-layers,
 * ArchitectureTest).
 */
package dev.deckhand.run;
