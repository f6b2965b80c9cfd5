// Connects to Deckhand with the official TypeScript MCP SDK, lists the tools and calls `computer`.
// Prints one JSON line with what it saw; TypeScriptClientIT asserts on it.
//   node client.mjs http <url> <token-file> [origin]   (origin: sent as the Origin header, as a browser page would)
//   node client.mjs stdio <command> [args...]      (environment passed through)
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [mode, ...rest] = process.argv.slice(2);
let transport;
if (mode === "http") {
  const [url, tokenFile, origin] = rest;
  const token = readFileSync(tokenFile, "utf8").trim();
  const headers = { Authorization: `Bearer ${token}` };
  if (origin) headers.Origin = origin;
  transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
} else if (mode === "stdio") {
  const [command, ...args] = rest;
  transport = new StdioClientTransport({ command, args, env: process.env, stderr: "inherit" });
} else {
  console.error("usage: node client.mjs http <url> <token-file> [origin] | stdio <command> [args...]");
  process.exit(64);
}

const client = new Client({ name: "deckhand-ts-sdk-check", version: "1.0.0" });
const timer = setTimeout(() => { console.error("timed out"); process.exit(2); }, 60_000);
try {
  await client.connect(transport);
  const { tools } = await client.listTools();
  const computer = tools.find((t) => t.name === "computer");
  const result = await client.callTool({ name: "computer", arguments: {
    instruction: "type hello in the editor",
    // with a verifier, admission passes and the call reaches the grant: there is none
    verifier: { kind: "window", titleMatches: "hello" },
  } });
  console.log(JSON.stringify({
    transport: mode,
    server: client.getServerVersion()?.name,
    tools: tools.map((t) => t.name),
    annotations: computer?.annotations,
    required: computer?.inputSchema?.required,
    // callTool validated structuredContent against this schema (the SDK throws when it does not match)
    outputRequired: computer?.outputSchema?.required,
    usage: result.structuredContent?.usage,
    isError: result.isError === true,
    code: result.structuredContent?.refusal?.code,
    text: result.content?.[0]?.text,
  }));
  await client.close();
  clearTimeout(timer);
  process.exit(0);
} catch (e) {
  console.error(`client failed: ${e?.stack ?? e}`);
  process.exit(1);
}
