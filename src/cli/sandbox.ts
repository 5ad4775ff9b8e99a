// The sandbox a chat or -p run uses, from the person's flags, environment and
// own settings only (docs/sandbox.md): --sandbox, AWL_SANDBOX,
// --sandbox-network, and the "sandbox" object of their settings.json.

import { Sandbox, sandboxSettings } from "../tools/sandbox";
import { sandboxMode, type Args } from "./args";

export function sandboxFor(args: Args, env: Record<string, string | undefined> = process.env): Sandbox {
  const mode = sandboxMode(args, env);
  const settings = mode === "off" ? { writable: [], network: true } : sandboxSettings(env);
  return new Sandbox(mode, settings, args.sandboxNetworkOff === true, env);
}
