// /mcp: each configured MCP server, its state and how many tools it gave,
// and why one failed or was not started (its words made safe: a server's
// stderr line can hold anything). /mcp NAME connects that one again, in the
// background: the REPL never waits for a server. /mcp login NAME starts the
// browser sign-in (the page to open shown; the server connects once it is
// done), /mcp logout NAME forgets it.

import type { McpServers } from "../mcp";
import type { Colors } from "./render/colors";
import { safeText } from "./render/safe-text";

/** What /mcp login and logout do before the command shows (the sign-in's page is known once this resolves). */
export async function prepareMcp(servers: McpServers | undefined, argument: string): Promise<void> {
  const [action, name] = argument.split(/\s+/);
  if (action === "login" && name) await servers?.login(name);
  if (action === "logout" && name) await servers?.logout(name);
}

export function mcpCommand(servers: McpServers | undefined, argument: string, c: Colors): string {
  if (!servers) return "No MCP servers are configured (awl mcp add NAME COMMAND, or docs/mcp.md).";
  const [first = "", second] = argument.split(/\s+/);
  const action = second !== undefined && (first === "login" || first === "logout") ? first : undefined;
  const name = action ? second! : first;
  const server = name ? servers.servers.find((s) => s.name === name) : undefined;
  if (name && !server) return c.red(`No MCP server is named ${safeText(name)}: /mcp lists them.`);
  if (action && !server!.config?.entry) return c.red(`${safeText(name)} cannot be signed in: ${safeText(server!.reason ?? "it has not started")}`);
  if (action === "login") {
    const signIn = server!.signIn;
    if (signIn?.error) return c.red(`Cannot sign in to ${safeText(name)}: ${safeText(signIn.error)}`);
    if (signIn?.url) return `Sign in to ${safeText(name)} in your browser (opened if it could be):\n  ${safeText(signIn.url)}\n${c.dim("It connects once you have; /mcp shows it.")}`;
    return `${safeText(name)} is signed in: connecting.`;
  }
  if (action === "logout") return `Signed out of ${safeText(name)}: its tokens are forgotten.`;
  if (name) servers.reconnect(name);
  const rows = servers.servers.map((s) => {
    const state = s.state === "ready" ? c.green(`ready, ${s.tools.length} tool${s.tools.length === 1 ? "" : "s"}`) : s.state === "connecting" ? c.yellow("connecting") : c.red(s.state);
    return `  ${safeText(s.name)}  ${state}${s.reason ? c.dim(`: ${safeText(s.reason)}`) : ""}`;
  });
  return ["MCP servers:", ...rows, c.dim("/mcp <name> connects one again.")].join("\n");
}
