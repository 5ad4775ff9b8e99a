// What a project would run once trusted, in full, for the question put to
// the person (and the line -p says when it skips them): every hook command of
// its settings files, every extension module, every `.mcp.json` server's
// command or address, and every variable those expand; the `!`command`` parts
// of its Markdown commands; and what their `allowed-tools` would let run
// without asking.

import { readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { markdownFiles, projectCommandDirs } from "./commands/markdown-commands";
import { shellParts } from "./commands/expand-command";
import { frontMatter } from "./commands/front-matter";
import { extensionModules, projectExtensionsDir } from "./modules";
import { loadSettings, projectSettingsFiles } from "./settings";

export interface ProjectCode {
  /** `event (matcher) in file: command`, one per hook. */
  hooks: string[];
  /** The extension modules, relative to the project. */
  modules: string[];
  /** `name: command args` or `name: url`, one per `.mcp.json` server. */
  servers: string[];
  /** The variables named in the hooks' commands and in `.mcp.json`, sorted. */
  variables: string[];
  /** `/name in file: command`, one per `!`command`` part of a Markdown command. */
  commands: string[];
  /** `/name in file: rules`, one per Markdown command with `allowed-tools`. */
  allows: string[];
}

/** Whether the project has anything that would run (or be allowed to). */
export function hasCode(code: ProjectCode): boolean {
  return code.hooks.length + code.modules.length + code.servers.length + code.commands.length + code.allows.length > 0;
}

export function projectCode(cwd: string): ProjectCode {
  const variables = new Set<string>();
  const hooks: string[] = [];
  for (const source of loadSettings(projectSettingsFiles(cwd)).sources) {
    for (const [event, groups] of Object.entries(source.hooks)) {
      for (const group of groups ?? []) {
        for (const hook of group.hooks) {
          hooks.push(`${event}${group.matcher ? ` (${group.matcher})` : ""} in ${relative(cwd, source.file)}: ${hook.command}`);
          for (const [, name] of hook.command.matchAll(/\$\{?([A-Za-z_]\w*)/g)) variables.add(name!);
        }
      }
    }
  }
  const modules = extensionModules(projectExtensionsDir(cwd)).map((path) => relative(cwd, path));
  return { hooks, modules, servers: mcpServers(cwd, variables), variables: [...variables].sort(), ...markdownCode(cwd) };
}

/** What the project's Markdown commands would run (their `!`command`` parts, as written) and allow without asking (their `allowed-tools`). */
function markdownCode(cwd: string): Pick<ProjectCode, "commands" | "allows"> {
  const code: Pick<ProjectCode, "commands" | "allows"> = { commands: [], allows: [] };
  for (const file of projectCommandDirs(cwd).flatMap(markdownFiles)) {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue; // named when the commands load
    }
    const where = `/${basename(file, ".md").toLowerCase()} in ${relative(cwd, file)}`;
    const { fields, body } = frontMatter(text);
    for (const command of shellParts(body)) code.commands.push(`${where}: ${command}`);
    if (fields["allowed-tools"]) code.allows.push(`${where}: ${fields["allowed-tools"]}`);
  }
  return code;
}

/** The servers `.mcp.json` names (Claude Code's `{"mcpServers": {name: {command, args} | {url}}}`), its `${VAR}`s added to `variables`. */
function mcpServers(cwd: string, variables: Set<string>): string[] {
  let text: string;
  try {
    text = readFileSync(join(cwd, ".mcp.json"), "utf8");
  } catch {
    return [];
  }
  // An empty file names no server (the sandbox's stand-in, left by an awl killed mid-command, is one).
  if (text.trim() === "") return [];
  for (const [, name] of text.matchAll(/\$\{([A-Za-z_]\w*)/g)) variables.add(name!);
  let servers: unknown;
  try {
    servers = (JSON.parse(text) as { mcpServers?: unknown })?.mcpServers;
  } catch {
    return [".mcp.json: (not valid JSON; as it is, no server starts)"];
  }
  if (typeof servers !== "object" || servers === null) return [];
  return Object.entries(servers).map(([name, server]) => {
    const { command, args, url } = (server ?? {}) as { command?: unknown; args?: unknown; url?: unknown };
    const words = [command, ...(Array.isArray(args) ? args : [])].filter((w) => w !== undefined).map(String);
    return `${name}: ${words.length > 0 ? words.join(" ") : String(url ?? "(no command)")}`;
  });
}
