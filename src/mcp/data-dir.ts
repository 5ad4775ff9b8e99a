// Where awl keeps what MCP servers leave: their stderr logs and sign-ins.

import { isAbsolute, join } from "node:path";

/** $XDG_DATA_HOME/awl/mcp, else ~/.local/share/awl/mcp (a relative XDG_DATA_HOME is ignored). */
export function dataDir(env: Record<string, string | undefined> = process.env): string {
  const xdg = env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : undefined;
  return join(xdg ?? join(env.HOME ?? "", ".local", "share"), "awl", "mcp");
}
