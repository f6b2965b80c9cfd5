/**
 * The policy file the person owns: reading, validating and writing it, the first start's defaults, and where a
 * {@code file} verifier may look and which places are denied (docs/design.md#deny-lists, docs/design.md#verifiers).
 * A service: it may import another service without a cycle, the platform, {@code home} and the pure core; never
 * {@code run}, a front end or {@code boot} (docs/architecture.md#the-layers, ArchitectureTest).
 */
package dev.deckhand.policy;
