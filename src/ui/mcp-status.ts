// /mcp: each configured MCP server, its state and how many tools it gave,
// and why one failed or was not started (its words made safe: a server's
// stderr line can hold anything). /mcp NAME connects that one again, in the
// background: the REPL never waits for a server.

import type { McpServers } from "../mcp";
import type { Colors } from "./render/colors";
import { safeText } from "./render/safe-text";

export function mcpCommand(servers: McpServers | undefined, name: string, c: Colors): string {
  if (!servers) return "No MCP servers are configured (awl mcp add NAME COMMAND, or docs/mcp.md).";
  if (name && !servers.reconnect(name)) return c.red(`No MCP server is named ${safeText(name)}: /mcp lists them.`);
  const rows = servers.servers.map((s) => {
    const state = s.state === "ready" ? c.green(`ready, ${s.tools.length} tool${s.tools.length === 1 ? "" : "s"}`) : s.state === "connecting" ? c.yellow("connecting") : c.red(s.state);
    return `  ${safeText(s.name)}  ${state}${s.reason ? c.dim(`: ${safeText(s.reason)}`) : ""}`;
  });
  return ["MCP servers:", ...rows, c.dim("/mcp <name> connects one again.")].join("\n");
}
