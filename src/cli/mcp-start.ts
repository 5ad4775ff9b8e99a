// The MCP servers of a chat or -p run: listed before the session opens (the
// files only read: a --mcp-config file that cannot be read stops the run
// before anything is written), their tools given to the model through the
// tools' registry (decided at the first request: src/mcp/tools.ts). The
// caller starts them (McpServers.start) when they may load what they need:
// once the REPL's prompt is drawn, or, for -p, at once or once its request
// is out.

import { configuredServers, toolsFor, type McpServers } from "../mcp";
import { addServerTools } from "../tools";
import type { Args } from "./args";

export function listMcp(args: Args, cwd: string): McpServers | undefined {
  const servers = configuredServers(cwd, args.mcpConfig);
  if (servers) addServerTools(() => toolsFor(servers));
  return servers;
}
