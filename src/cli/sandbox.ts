// The sandbox a chat or -p run uses, from the person's flags, environment and
// own settings only (docs/sandbox.md): --sandbox, AWL_SANDBOX,
// --sandbox-network, and the "sandbox" object of their settings.json.

import { join } from "node:path";
import { configDir } from "../config-dir";
import { readSettingsFile } from "../extensions/settings";
import { DEFAULT_SANDBOX_SETTINGS, Sandbox, sandboxSettingsOf, UNREADABLE_SANDBOX_SETTINGS, type SandboxSettings } from "../tools/sandbox";
import { sandboxMode, type Args } from "./args";

export function sandboxFor(args: Args, env: Record<string, string | undefined> = process.env): Sandbox {
  const mode = sandboxMode(args, env);
  const settings = mode === "off" ? DEFAULT_SANDBOX_SETTINGS : sandboxSettings(env);
  return new Sandbox(mode, settings, args.sandboxNetworkOff === true, env);
}

/**
 * The person's sandbox settings. A file that is not JSON is named, with its
 * line, as every settings file is (extensions/settings.ts), and the session
 * goes on with the tightest reading until it is fixed.
 */
export function sandboxSettings(env: Record<string, string | undefined>): SandboxSettings {
  const file = join(configDir(env), "settings.json");
  const read = readSettingsFile(file, "it is skipped until fixed, and meanwhile bash commands get no network");
  if (read === undefined) return DEFAULT_SANDBOX_SETTINGS;
  return "problem" in read ? UNREADABLE_SANDBOX_SETTINGS : sandboxSettingsOf(read.parsed, file, env);
}
