// `awl mcp [list]`, `awl mcp add [-e NAME=VALUE]… [-H "Name: value"]… NAME COMMAND|URL [ARGS…]`,
// `awl mcp remove NAME`: the configured MCP servers (docs/mcp.md). add and
// remove change only the person's own file ($XDG_CONFIG_HOME/awl/mcp.json,
// written whole, atomically, 0600: it may hold tokens); a project's
// .mcp.json is the repository's, changed by editing it.

import { existsSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { EXIT_OK, UsageError, UserError } from "../errors";
import { checkServer } from "../mcp/config";
import { configFiles, personConfigPath, readConfigs, readServers } from "../mcp/config-files";
import { NOT_TRUSTED, projectServersAllowed } from "../mcp/project-trust";
import { openBrowser } from "../mcp/browser";
import { SIGN_IN_WAIT_MS } from "../mcp/servers";
import { mkdirPrivate, writeFileAtomic } from "../private-file";
import { safeText } from "../ui/render/safe-text";
import type { Args } from "./args";

const USAGE = "awl mcp [list] | awl mcp add [-e NAME=VALUE]... [-H 'Name: value']... NAME COMMAND|URL [ARGS...] | awl mcp remove NAME | awl mcp login NAME";

export async function mcp(args: Args, cwd: string): Promise<number> {
  const [action = "list", ...rest] = args.targets;
  if (action === "list" && rest.length === 0) return list(cwd);
  if (action === "add") return add(rest);
  if (action === "remove" && rest.length === 1) return remove(rest[0]!, cwd);
  if (action === "login" && rest.length === 1) return signIn(rest[0]!, cwd);
  throw new UsageError(`usage: ${USAGE}`);
}

function list(cwd: string): number {
  const raws = readConfigs(configFiles(cwd, undefined));
  if (raws.length === 0) {
    console.log(`No MCP servers configured (add one with awl mcp add, or in ${personConfigPath()}).`);
    return EXIT_OK;
  }
  const allowed = projectServersAllowed(cwd, raws);
  for (const raw of raws) {
    const server = checkServer(raw);
    const what = server.entry ? (server.entry.type === "http" ? `http ${server.entry.url}` : [server.entry.command, ...(server.entry.args ?? [])].join(" ")) : "";
    const state = server.error ? `error: ${server.error}` : raw.origin === "project" && !allowed ? `not started: ${NOT_TRUSTED}` : "";
    console.log(safeText([server.name, `(${raw.origin === "project" ? ".mcp.json" : raw.origin === "person" ? "yours" : raw.origin})`, what, state].filter(Boolean).join("  ")));
  }
  return EXIT_OK;
}

function add(words: string[]): number {
  const env: Record<string, string> = {};
  const headers: Record<string, string> = {};
  let i = 0;
  for (; i < words.length; i++) {
    const flag = words[i]!;
    if (flag !== "-e" && flag !== "--env" && flag !== "-H" && flag !== "--header") break;
    const value = words[++i];
    if (value === undefined) throw new UsageError(`${flag} needs a value: ${USAGE}`);
    if (flag === "-e" || flag === "--env") {
      const eq = value.indexOf("=");
      if (eq <= 0) throw new UsageError(`${flag} takes NAME=VALUE, not ${value}`);
      env[value.slice(0, eq)] = value.slice(eq + 1);
    } else {
      const colon = value.indexOf(":");
      if (colon <= 0) throw new UsageError(`${flag} takes 'Name: value', not ${value}`);
      headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
    }
  }
  const [name, target, ...rest] = words.slice(i);
  if (!name || !target) throw new UsageError(`usage: ${USAGE}`);
  const http = /^https?:\/\//.test(target);
  if (http && (rest.length > 0 || Object.keys(env).length > 0)) throw new UsageError("an HTTP server takes a URL and headers (-H), no arguments or -e");
  if (!http && Object.keys(headers).length > 0) throw new UsageError("-H belongs to an HTTP server (a URL)");
  const entry = http ? { type: "http", url: target, ...(Object.keys(headers).length ? { headers } : {}) } : { command: target, ...(rest.length ? { args: rest } : {}), ...(Object.keys(env).length ? { env } : {}) };
  const file = personConfigPath();
  const servers = existsSync(file) ? readServers(file) : {};
  const replaced = name in servers;
  writePersonFile(file, { ...servers, [name]: entry });
  console.log(`${replaced ? "Replaced" : "Added"} the MCP server ${safeText(name)} in ${file}.`);
  return EXIT_OK;
}

function remove(name: string, cwd: string): number {
  const file = personConfigPath();
  const servers = existsSync(file) ? readServers(file) : {};
  if (!(name in servers)) {
    const project = readConfigs(configFiles(cwd, undefined)).find((s) => s.name === name && s.origin === "project");
    throw new UserError(project ? `${name} is in this project's .mcp.json, not yours: edit ${project.file}` : `no MCP server named ${name} in ${file}`);
  }
  const { [name]: _, ...left } = servers;
  writePersonFile(file, left);
  console.log(`Removed the MCP server ${safeText(name)} from ${file}.`);
  return EXIT_OK;
}

/** `awl mcp login NAME`: signs in to an HTTP server through the browser (the URL printed too). */
async function signIn(name: string, cwd: string): Promise<number> {
  const raw = readConfigs(configFiles(cwd, undefined)).find((s) => s.name === name);
  if (!raw) throw new UserError(`no MCP server named ${name} (awl mcp list lists them)`);
  if (raw.origin === "project" && !projectServersAllowed(cwd, [raw])) throw new UserError(`${name} is this project's, and not started: ${NOT_TRUSTED}`);
  const server = checkServer(raw);
  if (server.error) throw new UserError(`MCP server ${name}: ${server.error}`);
  if (server.entry?.type !== "http") throw new UserError(`${name} runs a command: only an HTTP server signs in`);
  const { login } = await import("../mcp/login");
  const open = (url: URL) => {
    process.stderr.write(`Sign in to ${safeText(name)} in your browser:\n  ${safeText(url.href)}\n`);
    openBrowser(url.href);
  };
  try {
    const tools = await login(name, server.entry, { open, timeoutMs: SIGN_IN_WAIT_MS });
    console.log(`Signed in to ${safeText(name)} (${tools} tool${tools === 1 ? "" : "s"}).`);
    return EXIT_OK;
  } catch (error) {
    throw new UserError(`cannot sign in to ${name}: ${(error as Error).message.split("\n")[0]}`);
  }
}

/** The person's file with these servers, everything else in it kept. */
function writePersonFile(file: string, servers: Record<string, unknown>): void {
  const whole = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>) : {};
  mkdirPrivate(dirname(file));
  writeFileAtomic(file, `${JSON.stringify({ ...whole, mcpServers: servers }, null, 2)}\n`);
}
