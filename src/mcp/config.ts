// A configured server's entry, checked and with its variables expanded:
// `${VAR}` and `${VAR:-default}` in every string; an unset one without a
// default makes that server an error of one line, the others still run. A
// project's file is the repository's words, not the person's: the provider
// keys and the variables bash is not given (tools/bash-env.ts) are never
// expanded from it.

import { type } from "../ark";
import { programEnvironment } from "../program-env";
import type { Origin, RawServer } from "./config-files";
import { isObject } from "../json";

const Stdio = type({ "type?": "'stdio'", command: "string > 0", "args?": "string[]", "env?": "Record<string, string>", "cwd?": "string" });
const Http = type({ type: "'http'", url: "string > 0", "headers?": "Record<string, string>" });
const ServerEntry = Stdio.or(Http);

export type StdioEntry = typeof Stdio.infer;
export type HttpEntry = typeof Http.infer;

/** A configured server: its entry ready to start, or the one line that says why it cannot. */
export interface ServerConfig {
  name: string;
  origin: Origin;
  file: string;
  entry?: StdioEntry | HttpEntry;
  error?: string;
}

export function checkServer(server: RawServer, env: Record<string, string | undefined> = process.env): ServerConfig {
  const { name, origin, file } = server;
  if (server.error) return { name, origin, file, error: server.error };
  return { name, origin, file, ...checkEntry(server.raw, origin === "project" ? programEnvironment(env) : env, env) };
}

/** `env`: what the file may expand; `all`: awl's whole environment, to tell a withheld variable from an unset one. */
function checkEntry(raw: unknown, env: Record<string, string | undefined>, all: Record<string, string | undefined>): Pick<ServerConfig, "entry" | "error"> {
  if (isObject(raw) && raw.type === "sse") return { error: 'the "sse" transport is not supported: use "http" (streamable HTTP)' };
  const entry = ServerEntry(raw);
  if (entry instanceof type.errors) return { error: entry.summary.split("\n")[0]! };
  try {
    return { entry: expandAll(entry, (name) => (name in env || !(name in all) ? env[name] : withheld(name))) };
  } catch (error) {
    if (error instanceof UnsetVariable) return { error: error.message };
    throw error;
  }
}

class UnsetVariable extends Error {}

function withheld(name: string): never {
  throw new UnsetVariable(`\${${name}} is a key or secret, never given to a project's servers (name it in your own mcp.json instead)`);
}

const VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** `${VAR}` and `${VAR:-default}` in one string; an unset VAR without a default throws UnsetVariable. */
export function expand(text: string, lookup: (name: string) => string | undefined): string {
  return text.replace(VARIABLE, (_, name: string, fallback: string | undefined) => {
    const value = lookup(name);
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    throw new UnsetVariable(`\${${name}} is not set`);
  });
}

function expandAll<T>(value: T, lookup: (name: string) => string | undefined): T {
  if (typeof value === "string") return expand(value, lookup) as T;
  if (Array.isArray(value)) return value.map((v) => expandAll(v, lookup)) as T;
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandAll(v, lookup)])) as T;
  return value;
}
