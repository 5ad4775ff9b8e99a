// The person's own configuration folder: $XDG_CONFIG_HOME/awl, or
// ~/.config/awl. A relative XDG_CONFIG_HOME is ignored, as the XDG spec says.
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

export function configDir(env: Record<string, string | undefined> = process.env): string {
  const xdg = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : undefined;
  return join(xdg ?? join(env.HOME || homedir(), ".config"), "awl");
}
