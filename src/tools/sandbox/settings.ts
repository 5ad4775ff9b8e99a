// The person's own sandbox settings: the "sandbox" object of
// $XDG_CONFIG_HOME/awl/settings.json (~/.config/awl/settings.json), a file
// only the person writes (commands cannot: it is outside every writable
// root). Nothing in the project is read here, so no file the model can write
// loosens the sandbox. Read once, through sandboxSettings() alone, so the
// place it comes from can change without touching its users.
//
//   { "sandbox": { "writable": ["~/.cache/bun", "/var/cache/pkg"], "network": false } }
//
// writable: more folders commands the person approves may write (package
// caches); network: false takes the network away from every command.

import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { UserError } from "../../errors";

export interface SandboxSettings {
  /** Absolute paths, `~` expanded. */
  writable: string[];
  network: boolean;
}

type Env = Record<string, string | undefined>;

/** The settings file's path: $XDG_CONFIG_HOME/awl/settings.json; a relative XDG_CONFIG_HOME is ignored. */
function settingsPath(env: Env = process.env): string {
  const xdg = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : undefined;
  return join(xdg ?? join(env.HOME || homedir(), ".config"), "awl", "settings.json");
}

/** The person's sandbox settings; a file that is missing gives the defaults, one that is wrong is said in one line. */
export function sandboxSettings(env: Env = process.env): SandboxSettings {
  const path = settingsPath(env);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { writable: [], network: true };
  }
  const wrong = (what: string) => new UserError(`${path}: ${what} (see docs/sandbox.md)`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw wrong(`not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const sandbox = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>).sandbox : undefined;
  if (sandbox === undefined) return { writable: [], network: true };
  if (typeof sandbox !== "object" || sandbox === null || Array.isArray(sandbox)) throw wrong(`"sandbox" must be an object`);
  const { writable = [], network = true } = sandbox as Record<string, unknown>;
  if (!Array.isArray(writable) || !writable.every((p) => typeof p === "string")) throw wrong(`"sandbox.writable" must be a list of paths`);
  if (typeof network !== "boolean") throw wrong(`"sandbox.network" must be true or false`);
  const home = env.HOME || homedir();
  const paths = writable.map((p: string) => (p === "~" ? home : p.startsWith("~/") ? join(home, p.slice(2)) : p));
  const relative = paths.find((p) => !isAbsolute(p));
  if (relative !== undefined) throw wrong(`"sandbox.writable" takes absolute paths (or ~/…), not ${relative}`);
  return { writable: paths, network };
}
