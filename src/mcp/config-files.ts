// Where MCP servers are configured, in Claude Code's format
// ({"mcpServers": {"name": {command, args, env} | {type: "http", url, headers}}}):
// the repository's .mcp.json, the person's $XDG_CONFIG_HOME/awl/mcp.json (which
// wins on a shared name) and `--mcp-config FILE` (which wins over both). This
// file only finds and reads them (JSON.parse, no arktype: it runs before the
// prompt is drawn); config.ts checks each entry and expands its variables.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { configDir } from "../config-dir";
import { UserError } from "../errors";
import { isObject } from "../json";

/** Where a server's entry was read. */
export type Origin = "project" | "person" | "command line";

export interface ConfigFile {
  file: string;
  origin: Origin;
}

/** A server as its file names it, not checked yet; a file that cannot be read is one of these, named by its path, with the reason. */
export interface RawServer {
  name: string;
  origin: Origin;
  file: string;
  raw?: unknown;
  error?: string;
}

/** $XDG_CONFIG_HOME/awl/mcp.json, or ~/.config/awl/mcp.json (a relative XDG_CONFIG_HOME is ignored). */
export function personConfigPath(env: Record<string, string | undefined> = process.env): string {
  return join(configDir(env), "mcp.json");
}

export function projectConfigPath(cwd: string): string {
  return join(cwd, ".mcp.json");
}

/** The files that name servers, the winner on a shared name last. */
export function configFiles(cwd: string, extra: string | undefined, env: Record<string, string | undefined> = process.env): ConfigFile[] {
  const found: ConfigFile[] = [];
  if (existsSync(projectConfigPath(cwd))) found.push({ file: projectConfigPath(cwd), origin: "project" });
  if (existsSync(personConfigPath(env))) found.push({ file: personConfigPath(env), origin: "person" });
  if (extra !== undefined) found.push({ file: extra, origin: "command line" });
  return found;
}

/** Every server the files name, a later file's winning on a shared name; --mcp-config's file that cannot be read is a UserError. */
export function readConfigs(files: ConfigFile[]): RawServer[] {
  const byName = new Map<string, RawServer>();
  for (const { file, origin } of files) {
    let servers: Record<string, unknown>;
    try {
      servers = readServers(file);
    } catch (error) {
      // A file named on the command line is the person's mistake now; another is said as a server that failed, and the others still start.
      if (!(error instanceof UserError) || origin === "command line") throw error;
      byName.set(file, { name: file, origin, file, error: error.message });
      continue;
    }
    for (const [name, raw] of Object.entries(servers)) {
      byName.delete(name); // the winner is listed where it was read
      byName.set(name, { name, origin, file, raw });
    }
  }
  return [...byName.values()];
}

/** The `mcpServers` of one file; a UserError naming the file when it cannot be read or is not such a file. */
export function readServers(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UserError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  // An empty file names no server (the sandbox's stand-in, left by an awl killed mid-command, is one).
  if (text.trim() === "") return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new UserError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
  const servers = isObject(json) ? (json.mcpServers ?? {}) : undefined;
  if (!isObject(servers)) throw new UserError(`${file}: expected {"mcpServers": {"name": {...}}}`);
  return servers;
}

