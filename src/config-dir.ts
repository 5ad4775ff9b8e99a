// Where the person's own awl files live: $XDG_CONFIG_HOME/awl, else
// ~/.config/awl (a relative XDG_CONFIG_HOME is ignored, as the XDG Base
// Directory specification says).
import { homedir } from "node:os";
import { isAbsolute, join } from "node:path";

/** Where awl keeps what it writes for the person: $XDG_DATA_HOME/awl, else ~/.local/share/awl (a relative XDG_DATA_HOME is ignored too). */
export function dataHome(env: Record<string, string | undefined> = process.env): string {
  const xdg = env.XDG_DATA_HOME && isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : undefined;
  return join(xdg ?? join(env.HOME || homedir(), ".local", "share"), "awl");
}

export function configDir(env: Record<string, string | undefined> = process.env): string {
  const xdg = env.XDG_CONFIG_HOME && isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : undefined;
  return join(xdg ?? join(env.HOME || homedir(), ".config"), "awl");
}
