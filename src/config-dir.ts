// Where the person's own awl files live: $XDG_CONFIG_HOME/awl, else
// ~/.config/awl (a relative XDG_CONFIG_HOME is ignored, as the XDG Base
// Directory specification says).
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

export function configDir(env: Record<string, string | undefined> = process.env): string {
  const xdg = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : undefined;
  return join(xdg ?? join(env.HOME || homedir(), ".config"), "awl");
}
