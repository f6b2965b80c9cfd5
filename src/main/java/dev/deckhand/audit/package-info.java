/**
 * The SQLite audit log: schema and migrations, the hash chain and its seals, records of grants, actions, approvals
 * and runs, the queries behind {@code /api/audit/*}, and {@code deckhand verify-audit} (docs/design.md#audit). The
 * only package that opens the database. A service: it may import another service without a cycle, the platform,
 * {@code home} and the pure core; never {@code run}, a front end or {@code boot} (docs/architecture.md#the-layers,
 * ArchitectureTest).
 */
package dev.deckhand.audit;
