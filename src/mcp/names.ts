// What the model calls a server's tool: mcp__<server>__<tool>, within what
// every provider takes (64 characters of [A-Za-z0-9_-]). Other characters
// become "_"; a name that does not fit is cut and given a short hash of the
// whole original (server and tool), so two names that agree on their first
// 55 characters, or that differ only in characters made "_", stay two tools.

import { createHash } from "node:crypto";
import { join } from "node:path";
import { dataHome } from "../config-dir";

export const MAX_NAME = 64;
const HASH_LENGTH = 8;

/** Each server tool's name, in order; two that would be the same (server "a__b" tool "c", server "a" tool "b__c") both get their hash. */
export function toolNames(tools: readonly { server: string; tool: string }[]): string[] {
  const names = tools.map(({ server, tool }) => toolName(server, tool));
  const seen = new Map<string, number>();
  for (const name of names) seen.set(name, (seen.get(name) ?? 0) + 1);
  return names.map((name, i) => (seen.get(name)! > 1 ? toolName(tools[i]!.server, tools[i]!.tool, true) : name));
}

export function toolName(server: string, tool: string, hashed = false): string {
  const plain = `mcp__${server}__${tool}`;
  const safe = plain.replace(/[^A-Za-z0-9_-]/g, "_");
  if (safe === plain && safe.length <= MAX_NAME && !hashed) return safe;
  const hash = createHash("sha256").update(`${server}\0${tool}`).digest("hex").slice(0, HASH_LENGTH);
  return `${safe.slice(0, MAX_NAME - HASH_LENGTH - 1)}_${hash}`;
}

/**
 * A server's name as a file name (its OAuth tokens, its stderr log): as it is
 * when it holds only [A-Za-z0-9_.-]; otherwise with those made "_" and a short
 * hash of the whole name, so that "a b" and "a_b" never share a token file.
 */
export function serverFileName(server: string): string {
  const safe = server.replace(/[^A-Za-z0-9_.-]/g, "_");
  return safe === server ? safe : `${safe}-${createHash("sha256").update(server).digest("hex").slice(0, HASH_LENGTH)}`;
}

/** Where awl keeps what MCP servers leave: $XDG_DATA_HOME/awl/mcp (their stderr logs; their sign-ins under oauth/). */
export function mcpDataDir(env: Record<string, string | undefined>): string {
  return join(dataHome(env), "mcp");
}
