// The MCP servers of a chat or -p run: listed before the session starts (the
// files only read), checked and connected once the prompt is drawn or the
// first request is on its way, their tools given to the model through the
// tools' registry (decided at the first request: src/mcp/tools.ts).

import { configuredServers, toolsFor, type McpServers } from "../mcp";
import { addTools } from "../tools";
import type { Args } from "./args";

export function startMcp(args: Args, cwd: string): McpServers | undefined {
  const servers = configuredServers(cwd, args.mcpConfig);
  if (!servers) return undefined;
  addTools(() => toolsFor(servers));
  setTimeout(() => void servers.start(), 1); // fires once the prompt is drawn (chat) or the first request is sent (-p, AWL_MCP_WAIT=0)
  return servers;
}
