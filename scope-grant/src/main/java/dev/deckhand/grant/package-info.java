/**
 * Scope grants and policy (docs/design.md#grants, docs/design.md#refusals): the broker that mints, binds, reserves
 * and revokes grants, the policy and its refusals, approval cards, refusal codes. Pure: it may import the JDK,
 * Jackson and ICU4J only; no Quarkus, Jakarta, JNA, LangChain4j or Vert.x, no files, sockets or SQL, and nothing
 * else of Deckhand's, not even {@code loop}, which builds on it (ArchitectureTest); time only through an injected
 * {@link java.time.Clock}.
 *
 * <h2>Wiring (the app)</h2>
 * <ol>
 * <li>At start-up, in the owner wiring: {@code GrantBroker.Owned o = GrantBroker.create(clock)}. Give
 *   {@code o.ownerPass()} only to the owner-authenticated REST resources; give the MCP side
 *   {@code o.broker()} alone. Create one {@link dev.deckhand.grant.ApprovalBook} and wire
 *   {@code broker.onEnd(e -> e.grant().ifPresent(g -> book.cancelForGrant(g.id())))} plus the run
 *   cancellation.
 * <li>{@code GET /api/windows}: {@link dev.deckhand.grant.Policy#grantable} per window.
 *   {@code POST /api/grants}: {@link dev.deckhand.grant.MintRequest#of} + wire enums' {@code fromWire},
 *   then {@link dev.deckhand.grant.GrantBroker#mint} ({@code GrantConflictException} → 409,
 *   {@code RefusedException} MODE_DENIED → 403/422 with the refusal). {@code DELETE /api/grants/{id}}:
 *   {@code revoke}; {@code POST /api/stop}: {@code stop("web page")}; approvals: {@code pending},
 *   {@code approve}, {@code deny} ({@code NoSuchElementException} → 404, {@code IllegalStateException} → 409).
 * <li>The watcher: {@link dev.deckhand.grant.DenyScan#scan} every {@code pollInterval}, plus
 *   {@code broker.active()} (which notices idle expiry).
 * </ol>
 *
 * <h2>Per run / per action (the loop)</h2>
 * {@link dev.deckhand.grant.Policy#checkCallMode} first; {@code broker.acquire(session, parent)};
 * {@link dev.deckhand.grant.DenyScan#scan} before the run; before each capture
 * {@link dev.deckhand.grant.Policy#beforeCapture}; before each action
 * {@link dev.deckhand.grant.Policy#check} → {@code Allow}: {@code broker.consume(session, grantId,
 * revision)} then deliver; {@code NeedsApproval}: {@code book.request(...)}, wait for a decision,
 * {@code book.consume(...)}, then check again with {@code approved = true}; {@code Refuse}: report it.
 */
package dev.deckhand.grant;
