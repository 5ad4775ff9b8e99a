// The person's own sandbox settings: the "sandbox" object of
// $XDG_CONFIG_HOME/awl/settings.json (~/.config/awl/settings.json), a file
// only the person writes (commands cannot: it is outside every writable
// root). Nothing in the project is read here, so no file the model can write
// loosens the sandbox. The file is read by the command line (cli/sandbox.ts),
// through the one settings reader; this checks its "sandbox" object.
//
//   { "sandbox": { "writable": ["~/.cache/bun", "/var/cache/pkg"], "network": false } }
//
// writable: more folders commands the person approves may write (package
// caches); network: false takes the network away from every command.

import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";
import { UserError } from "../../errors";

export interface SandboxSettings {
  /** Absolute paths, `~` expanded. */
  writable: string[];
  network: boolean;
}

/** No settings file, or none with a "sandbox" object. */
export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = { writable: [], network: true };
/** A settings file awl cannot read: the tightest reading, until it is fixed (nothing more writable, no network). */
export const UNREADABLE_SANDBOX_SETTINGS: SandboxSettings = { writable: [], network: false };

/** The "sandbox" object of `file`'s JSON, checked; one that is wrong is said in one line naming the file (never a silent default that would loosen or tighten the sandbox). */
export function sandboxSettingsOf(parsed: unknown, file: string, env: Record<string, string | undefined> = process.env): SandboxSettings {
  const wrong = (what: string) => new UserError(`${file}: ${what} (see docs/sandbox.md)`);
  const sandbox = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>).sandbox : undefined;
  if (sandbox === undefined) return DEFAULT_SANDBOX_SETTINGS;
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
