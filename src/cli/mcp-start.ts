// The MCP servers of a chat or -p run: listed before the session starts (the
// files only read), checked and connected once the prompt is drawn (or, for
// -p, at once or once its request is out), their tools given to the model
// through the tools' registry (decided at the first request: src/mcp/tools.ts).

import { configuredServers, toolsFor, type McpServers } from "../mcp";
import { addTools } from "../tools";
import type { Args } from "./args";

/**
 * The servers, listed, their tools offered. `now`: they start once the
 * event loop turns (the REPL's prompt is drawn by then); otherwise the
 * caller starts them (-p with AWL_MCP_WAIT=0, once its request is out:
 * checking and connecting load arktype and the SDK, which would delay it).
 */
export function startMcp(args: Args, cwd: string, now = true): McpServers | undefined {
  const servers = configuredServers(cwd, args.mcpConfig);
  if (!servers) return undefined;
  addTools(() => toolsFor(servers));
  if (now) setTimeout(() => void servers.start(), 1);
  return servers;
}
