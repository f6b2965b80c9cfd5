/**
 * The MCP front end: the one tool, {@code computer}, with its published input and output schemas, the reading of
 * its arguments, the tool result ({@code structuredContent}) and the ledger of tool calls
 * (docs/contract.md#the-tool-computer). A front end: it may import {@code run}, the services, the platform,
 * {@code home} and the pure core, and another front end without a cycle; never {@code boot}, and only {@code boot}
 * may import it (docs/architecture.md#the-layers, ArchitectureTest). It never reaches a mint path
 * ({@code owner.TerminalGrants}): only the person mints grants.
 */
package dev.deckhand.mcp;
