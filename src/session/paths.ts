// Where session files live (docs/session-format.md, "Where the files live").
import { homedir } from "node:os";
import { join } from "node:path";

/** `AWL_SESSION_DIR` replaces the whole root; else `$XDG_DATA_HOME/awl/sessions`, else `~/.local/share/awl/sessions`. */
export function sessionRoot(env: Record<string, string | undefined> = process.env): string {
  if (env.AWL_SESSION_DIR) return env.AWL_SESSION_DIR;
  const data = env.XDG_DATA_HOME || join(env.HOME || homedir(), ".local", "share");
  return join(data, "awl", "sessions");
}

/**
 * The spec's example is binding: "/Users/travis/Code/awl" -> "--Users-travis-Code-awl--".
 * Not injective ("/a-b" and "/a/b" collide), so lookups also check the header's cwd.
 */
export function encodeCwd(cwd: string): string {
  const trimmed = cwd.replace(/^\/+/, "").replace(/\/+$/, "");
  return `--${trimmed.replaceAll("/", "-")}--`;
}

export function sessionDir(cwd: string, env?: Record<string, string | undefined>): string {
  return join(sessionRoot(env), encodeCwd(cwd));
}

/** `2026-04-25T17-40-15-990Z_019dc5ba-53f6-71a5-ab8f-b1f8709c2572.jsonl` */
export function sessionFileName(timestamp: string, id: string): string {
  return `${timestamp.replace(/[:.]/g, "-")}_${id}.jsonl`;
}

/** The session id a file name carries, or undefined for anything that is not a session file. */
export function idFromFileName(name: string): string | undefined {
  const match = /_([^_/]+)\.jsonl$/.exec(name);
  return match?.[1];
}
