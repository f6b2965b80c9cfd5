/**
 * {@code deckhand eval} and its per-task child {@code eval-task}: the task file, the suite, a private virtual
 * desktop per task, acting as the person (mint, approve), the report and {@code GET /api/eval/reports}
 * (docs/design.md#task-format). A front end: it may import {@code run}, the services, the platform, {@code home}
 * and the pure core, and another front end without a cycle; never {@code boot}, and only {@code boot} may import it
 * (docs/architecture.md#the-layers, ArchitectureTest).
 */
package dev.deckhand.eval;
